/// An I-Regexp (RFC 9485), the interoperable regular expressions of JSONPath's `match()` and
/// `search()`, read strictly by the RFC's grammar (§5) and matched in linear time: the pattern
/// is compiled to a Thompson automaton that is run over the subject's code points with every
/// live state at once, so no pattern, however nested (`(a+)+b`, `(a|aa)*c`), makes the work
/// more than the subject's length times the pattern's size. Nothing beyond the RFC is taken:
/// `\d`, `\w`, `(?:…)`, lazy `*?`, anchors are not I-Regexp, so `init` refuses them.
///
/// `matches(_:whole:budget:)` anchors both ends for `match()` and none for `search()`; an
/// unescaped `^` or `$` outside a class anchors at the subject's start or end, as the JSONPath
/// Compliance Test Suite has it ("functions, match, explicit caret/dollar") and as the RFC's
/// mappings to ECMAScript and PCRE read them. `.` is any code point but CR and LF (§5.3).
public struct IRegexp: Sendable {
    /// One instruction of the automaton.
    enum Instruction: Sendable {
        /// Consumes one code point in the class, then goes on at the next instruction.
        case scalar(ScalarClass)
        /// Goes on at both targets.
        case split(Int, Int)
        /// Goes on only at the subject's start (`^`) or end (`$`).
        case atStart, atEnd
        case jump(Int)
        case accept
    }

    let program: [Instruction]

    /// Instructions a pattern may compile to (a range quantifier copies its atom): a pattern
    /// past it is refused as an invalid one is, so that matching stays bounded.
    public static let maxProgram = 10_000
    /// Groups a pattern may nest.
    public static let maxNesting = 64

    /// Compiles `pattern`; nil when it is not an I-Regexp (RFC 9485 §5), nests groups more than
    /// `maxNesting` deep or compiles to more than `maxProgram` instructions.
    public init?(_ pattern: String) {
        var parser = IRegexpParser(Array(pattern.unicodeScalars))
        guard let tree = parser.parse() else { return nil }
        var compiler = IRegexpCompiler()
        guard compiler.emit(tree), compiler.program.count < Self.maxProgram else { return nil }
        compiler.program.append(.accept)
        program = compiler.program
    }

    /// Whether `text` matches: whole (JSONPath's `match()`), or somewhere in it (`search()`).
    /// Complexity: O(code points × instructions), each step charged to `budget`.
    /// - Throws: `WorkBudget.Exceeded` when the budget runs out first.
    public func matches(_ text: String, whole: Bool, budget: inout WorkBudget) throws(WorkBudget.Exceeded) -> Bool {
        var current: [Int] = [], next: [Int] = []
        current.reserveCapacity(program.count)
        next.reserveCapacity(program.count)
        // The step at which each instruction was last added: a state joins a list once a step.
        var seen = [Int](repeating: -1, count: program.count)
        var pending: [Int] = []
        let length = text.unicodeScalars.count
        func add(_ start: Int, step: Int, to list: inout [Int]) {
            pending.append(start)
            while let pc = pending.popLast() {
                guard seen[pc] != step else { continue }
                seen[pc] = step
                switch program[pc] {
                case .jump(let target): pending.append(target)
                case .split(let first, let second): pending.append(second); pending.append(first)
                case .atStart: if step == 0 { pending.append(pc + 1) }
                case .atEnd: if step == length { pending.append(pc + 1) }
                case .scalar, .accept: list.append(pc)
                }
            }
        }
        func accepts(_ list: [Int]) -> Bool { list.contains { if case .accept = program[$0] { return true } else { return false } } }

        try budget.spend(length / 64)
        add(0, step: 0, to: &current)
        var step = 0
        for scalar in text.unicodeScalars {
            if !whole && accepts(current) { return true }
            try budget.spend(current.count + 1)
            step += 1
            next.removeAll(keepingCapacity: true)
            for pc in current {
                if case .scalar(let set) = program[pc], set.contains(scalar) { add(pc + 1, step: step, to: &next) }
            }
            // search(): a match may start at every code point.
            if !whole { add(0, step: step, to: &next) }
            swap(&current, &next)
            if whole && current.isEmpty { return false }
        }
        return accepts(current)
    }
}

/// A set of code points: ranges, general categories (`\p{L}`), each possibly complemented.
struct ScalarClass: Sendable {
    enum Item: Sendable {
        case range(ClosedRange<UInt32>)
        case category(Set<Unicode.GeneralCategory>, negated: Bool)
        case nested(ScalarClass)
    }
    var items: [Item]
    var negated = false

    /// `.`: any code point but CR and LF.
    static let dot = ScalarClass(items: [.range(0x0A...0x0A), .range(0x0D...0x0D)], negated: true)

    static func single(_ scalar: Unicode.Scalar) -> ScalarClass { ScalarClass(items: [.range(scalar.value...scalar.value)]) }

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let found = items.contains { item in
            switch item {
            case .range(let range): return range.contains(scalar.value)
            case .category(let categories, let negated): return categories.contains(scalar.properties.generalCategory) != negated
            case .nested(let inner): return inner.contains(scalar)
            }
        }
        return found != negated
    }
}

/// The tree of a pattern, as RFC 9485 §5's grammar reads it.
indirect enum IRegexpNode: Sendable {
    case alternation([IRegexpNode])
    case sequence([IRegexpNode])
    case scalar(ScalarClass)
    /// `^` or `$`.
    case anchor(atStart: Bool)
    /// An atom repeated from `min` to `max` times (nil: no upper bound).
    case repeated(IRegexpNode, min: Int, max: Int?)
}

/// Recursive descent over the pattern's code points; nil for anything the grammar does not allow.
struct IRegexpParser {
    let scalars: [Unicode.Scalar]
    var i = 0
    var depth = 0

    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

    var peek: Unicode.Scalar? { i < scalars.count ? scalars[i] : nil }

    mutating func parse() -> IRegexpNode? {
        guard let tree = alternation(), i == scalars.count else { return nil }
        return tree
    }

    /// `i-regexp = branch *( "|" branch )`
    mutating func alternation() -> IRegexpNode? {
        var branches: [IRegexpNode] = []
        while true {
            guard let branch = branch() else { return nil }
            branches.append(branch)
            guard peek == "|" else { break }
            i += 1
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    /// `branch = *piece`; ends before `|`, `)` or the end.
    mutating func branch() -> IRegexpNode? {
        var pieces: [IRegexpNode] = []
        while let c = peek, c != "|", c != ")" {
            guard let atom = atom() else { return nil }
            guard let piece = quantified(atom) else { return nil }
            pieces.append(piece)
        }
        return .sequence(pieces)
    }

    /// `quantifier = ( "*" / "+" / "?" ) / "{" QuantExact [ "," [ QuantExact ] ] "}"`
    mutating func quantified(_ atom: IRegexpNode) -> IRegexpNode? {
        switch peek {
        case "*": i += 1; return .repeated(atom, min: 0, max: nil)
        case "+": i += 1; return .repeated(atom, min: 1, max: nil)
        case "?": i += 1; return .repeated(atom, min: 0, max: 1)
        case "{":
            i += 1
            guard let low = number() else { return nil }
            var high: Int? = low
            if peek == "," {
                i += 1
                high = peek == "}" ? nil : number()
                if high == nil && peek != "}" { return nil }
            }
            guard peek == "}" else { return nil }
            i += 1
            if let high, high < low { return nil }
            return .repeated(atom, min: low, max: high)
        default: return atom
        }
    }

    /// `QuantExact = 1*%x30-39`, bounded (a bound past the program's size could never compile).
    mutating func number() -> Int? {
        var value = 0, digits = 0
        while let c = peek, ("0"..."9").contains(c) {
            value = min(value * 10 + Int(c.value - 0x30), IRegexp.maxProgram)
            digits += 1
            i += 1
        }
        return digits > 0 ? value : nil
    }

    /// `atom = NormalChar / charClass / ( "(" i-regexp ")" )`
    mutating func atom() -> IRegexpNode? {
        guard let c = peek else { return nil }
        switch c {
        case "(":
            i += 1
            depth += 1
            guard depth <= IRegexp.maxNesting, let inner = alternation(), peek == ")" else { return nil }
            depth -= 1
            i += 1
            return inner
        case ".": i += 1; return .scalar(.dot)
        case "^", "$": i += 1; return .anchor(atStart: c == "^")
        case "[": return charClassExpression().map { .scalar($0) }
        case "\\": return escape().map { .scalar($0) }
        default:
            guard Self.isNormal(c) else { return nil }
            i += 1
            return .scalar(.single(c))
        }
    }

    /// `NormalChar`: any code point but `( ) * + . ? [ \ ] { | }`.
    static func isNormal(_ c: Unicode.Scalar) -> Bool { !"()*+.?[\\]{|}".unicodeScalars.contains(c) }

    /// After `\`: `SingleCharEsc` or `\p{…}` / `\P{…}` (`charClassEsc`).
    mutating func escape() -> ScalarClass? {
        i += 1
        guard let c = peek else { return nil }
        i += 1
        switch c {
        case "n": return .single("\n")
        case "r": return .single("\r")
        case "t": return .single("\t")
        case "p", "P":
            guard peek == "{" else { return nil }
            i += 1
            let start = i
            while let d = peek, d != "}" { i += 1 }
            guard peek == "}" else { return nil }
            let name = String(String.UnicodeScalarView(scalars[start..<i]))
            i += 1
            guard let categories = Self.categories(name) else { return nil }
            return ScalarClass(items: [.category(categories, negated: c == "P")])
        default:
            // ( ) * + - . ? [ \ ] ^ { | }
            guard "()*+-.?[\\]^{|}".unicodeScalars.contains(c) else { return nil }
            return .single(c)
        }
    }

    /// `charClassExpr = "[" [ "^" ] ( "-" / CCE1 ) *CCE1 [ "-" ] "]"`
    mutating func charClassExpression() -> ScalarClass? {
        i += 1
        var set = ScalarClass(items: [])
        if peek == "^" { set.negated = true; i += 1 }
        var first = true
        while true {
            guard let c = peek else { return nil }
            if c == "]" && !first { i += 1; return set }
            if c == "-" {
                // A "-" only first, or last before "]".
                guard first || scalars.indices.contains(i + 1) && scalars[i + 1] == "]" else { return nil }
                i += 1
                set.items.append(.range(0x2D...0x2D))
                first = false
                continue
            }
            first = false
            if c == "\\", let next = scalars.indices.contains(i + 1) ? scalars[i + 1] : nil, next == "p" || next == "P" {
                guard let escaped = escape() else { return nil }
                set.items.append(.nested(escaped))
                continue
            }
            guard let low = classChar() else { return nil }
            if peek == "-", scalars.indices.contains(i + 1), scalars[i + 1] != "]" {
                i += 1
                guard let high = classChar(), low.value <= high.value else { return nil }
                set.items.append(.range(low.value...high.value))
            } else {
                set.items.append(.range(low.value...low.value))
            }
        }
    }

    /// `CCchar`: any code point but `-`, `[`, `\`, `]`, or a `SingleCharEsc`.
    mutating func classChar() -> Unicode.Scalar? {
        guard let c = peek else { return nil }
        if c == "\\" {
            let before = i
            guard let set = escape(), case .range(let r) = set.items.first, set.items.count == 1, r.count == 1,
                  let scalar = Unicode.Scalar(r.lowerBound) else { i = before; return nil }
            return scalar
        }
        guard c != "-", c != "[", c != "]" else { return nil }
        i += 1
        return c
    }

    /// `IsCategory`: a one-letter major class or a two-letter category.
    static func categories(_ name: String) -> Set<Unicode.GeneralCategory>? {
        let table: [String: Unicode.GeneralCategory] = [
            "Lu": .uppercaseLetter, "Ll": .lowercaseLetter, "Lt": .titlecaseLetter, "Lm": .modifierLetter, "Lo": .otherLetter,
            "Mn": .nonspacingMark, "Mc": .spacingMark, "Me": .enclosingMark,
            "Nd": .decimalNumber, "Nl": .letterNumber, "No": .otherNumber,
            "Pc": .connectorPunctuation, "Pd": .dashPunctuation, "Ps": .openPunctuation, "Pe": .closePunctuation,
            "Pi": .initialPunctuation, "Pf": .finalPunctuation, "Po": .otherPunctuation,
            "Sm": .mathSymbol, "Sc": .currencySymbol, "Sk": .modifierSymbol, "So": .otherSymbol,
            "Zs": .spaceSeparator, "Zl": .lineSeparator, "Zp": .paragraphSeparator,
            "Cc": .control, "Cf": .format, "Co": .privateUse, "Cn": .unassigned,
        ]
        if let one = table[name] { return [one] }
        guard name.count == 1 else { return nil }
        let major = Set(table.filter { $0.key.hasPrefix(name) }.values)
        return major.isEmpty ? nil : major
    }
}

/// Writes a tree as automaton instructions (Thompson's construction).
struct IRegexpCompiler {
    var program: [IRegexp.Instruction] = []

    /// false once the program passes `IRegexp.maxProgram`.
    mutating func emit(_ node: IRegexpNode) -> Bool {
        guard program.count < IRegexp.maxProgram else { return false }
        switch node {
        case .scalar(let set):
            program.append(.scalar(set))
        case .anchor(let atStart):
            program.append(atStart ? .atStart : .atEnd)
        case .sequence(let items):
            for item in items { guard emit(item) else { return false } }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (k, branch) in branches.enumerated() {
                if k < branches.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, -1))
                    guard emit(branch) else { return false }
                    jumps.append(program.count)
                    program.append(.jump(-1))
                    program[split] = .split(split + 1, program.count)
                } else {
                    guard emit(branch) else { return false }
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeated(let atom, let low, let high):
            for _ in 0..<low { guard emit(atom) else { return false } }
            if let high {
                // Each optional copy may be skipped.
                var splits: [Int] = []
                for _ in low..<high {
                    splits.append(program.count)
                    program.append(.split(program.count + 1, -1))
                    guard emit(atom) else { return false }
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let loop = program.count
                program.append(.split(loop + 1, -1))
                guard emit(atom) else { return false }
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
        return program.count < IRegexp.maxProgram
    }
}
