/// RFC 9535's grammar (§2.1 to §2.5), read by recursive descent over the query's bytes.
extension JSONPath {
    struct Parser {
        let bytes: [UInt8]
        var i = 0
        /// Filter expressions open around the one being read (`JSONPath.maxNesting` at most).
        var depth = 0
        /// I-JSON's exact integers (§2.1): ±(2^53 − 1).
        static let intRange: ClosedRange<Int64> = -(1 << 53 - 1)...(1 << 53 - 1)

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func fail(_ reason: String, at offset: Int? = nil) -> ParseError { ParseError(offset: offset ?? i, reason: reason) }
        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }
        func peek(_ k: Int) -> UInt8? { i + k < bytes.count ? bytes[i + k] : nil }
        mutating func blank() { while let c = peek, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1 } }
        mutating func take(_ c: UInt8) -> Bool { if peek == c { i += 1; return true }; return false }
        mutating func take(_ word: String) -> Bool {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { return false }
            i += w.count
            return true
        }

        // MARK: Queries and segments

        mutating func query() throws -> [Segment] {
            guard take(UInt8(ascii: "$")) else { throw fail("a query starts with $") }
            let segments = try self.segments()
            guard i == bytes.count else { throw fail(peek.map { "unexpected \(Self.shown($0))" } ?? "unexpected end") }
            return segments
        }

        /// `*(S segment)`: what follows the blank is left to the caller when it is no segment.
        mutating func segments() throws -> [Segment] {
            var out: [Segment] = []
            while true {
                let start = i
                blank()
                guard let c = peek, c == UInt8(ascii: "[") || c == UInt8(ascii: ".") else { i = start; return out }
                out.append(try segment())
            }
        }

        mutating func segment() throws -> Segment {
            if take("..") {
                if peek == UInt8(ascii: "[") { return Segment(descendant: true, selectors: try bracketed()) }
                if take(UInt8(ascii: "*")) { return Segment(descendant: true, selectors: [.wildcard]) }
                return Segment(descendant: true, selectors: [.name(try shorthand())])
            }
            if take(UInt8(ascii: ".")) {
                if take(UInt8(ascii: "*")) { return Segment(descendant: false, selectors: [.wildcard]) }
                return Segment(descendant: false, selectors: [.name(try shorthand())])
            }
            return Segment(descendant: false, selectors: try bracketed())
        }

        /// A member-name-shorthand: ALPHA, `_` or non-ASCII first, then those and digits.
        mutating func shorthand() throws -> ByteString {
            let start = i
            guard let c = peek, Self.isNameFirst(c) else { throw fail("expected a member name, * or [ after the dot") }
            while let c = peek, Self.isNameFirst(c) || (0x30...0x39).contains(c) { i += 1 }
            return ByteString(Array(bytes[start..<i]))
        }

        static func isNameFirst(_ c: UInt8) -> Bool { (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x5F || c >= 0x80 }

        mutating func bracketed() throws -> [Selector] {
            guard take(UInt8(ascii: "[")) else { throw fail("expected [") }
            blank()
            var selectors = [try selector()]
            while true {
                blank()
                if take(UInt8(ascii: ",")) { blank(); selectors.append(try selector()); continue }
                if take(UInt8(ascii: "]")) { return selectors }
                throw fail(peek.map { "expected , or ] in a bracketed selection, not \(Self.shown($0))" } ?? "unclosed [")
            }
        }

        mutating func selector() throws -> Selector {
            guard let c = peek else { throw fail("expected a selector") }
            switch c {
            case UInt8(ascii: "'"), UInt8(ascii: "\""): return .name(try stringLiteral())
            case UInt8(ascii: "*"): i += 1; return .wildcard
            case UInt8(ascii: "?"):
                i += 1
                blank()
                return .filter(try logical())
            default:
                let start = try optionalInt()
                blank()
                guard take(UInt8(ascii: ":")) else {
                    guard let index = start else { throw fail("expected a name, *, an index, a slice or a filter") }
                    return .index(index)
                }
                blank()
                let end = try optionalInt()
                blank()
                var step: Int64?
                if take(UInt8(ascii: ":")) { blank(); step = try optionalInt() }
                return .slice(start: start, end: end, step: step)
            }
        }

        /// `int`: 0, or an optional minus and digits without a leading zero (no -0), in I-JSON's range.
        mutating func optionalInt() throws -> Int64? {
            let start = i
            let negative = take(UInt8(ascii: "-"))
            guard let first = peek, (0x30...0x39).contains(first) else {
                if negative { throw fail("expected digits after -") }
                return nil
            }
            if first == 0x30 {
                i += 1
                if negative { throw fail("-0 is not an index", at: start) }
                if let c = peek, (0x30...0x39).contains(c) { throw fail("an index has no leading zero", at: start) }
                return 0
            }
            var value: Int64 = 0
            while let c = peek, (0x30...0x39).contains(c) {
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int64(c - 0x30))
                if o1 || o2 { throw fail("the integer is out of range", at: start) }
                value = a
                i += 1
            }
            value = negative ? -value : value
            guard Self.intRange.contains(value) else { throw fail("the integer is out of range (±(2^53 − 1))", at: start) }
            return value
        }

        /// A string literal in single or double quotes, with JSON's escapes (§2.3.1.1).
        mutating func stringLiteral() throws -> ByteString {
            let quote = bytes[i]
            i += 1
            var out: [UInt8] = []
            while true {
                guard let c = peek else { throw fail("unclosed string") }
                if c == quote { i += 1; return ByteString(out) }
                if c < 0x20 { throw fail("a control character in a string must be escaped") }
                if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
                i += 1
                guard let e = peek else { throw fail("unclosed string") }
                i += 1
                switch e {
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "/"), UInt8(ascii: "\\"): out.append(e)
                case quote: out.append(e)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xDC00...0xDFFF).contains(scalar) { throw fail("a lone low surrogate") }
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard take("\\u") else { throw fail("a high surrogate needs a low one") }
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("a high surrogate needs a low one") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail("not a Unicode scalar value") }
                    out += Array(String(Character(u)).utf8)
                default: throw fail("\\\(Self.shown(e)) is not an escape here")
                }
            }
        }

        mutating func hex4() throws -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let c = peek, let digit = ASCII.hexValue(c) else { throw fail("\\u needs four hex digits") }
                value = value << 4 | UInt32(digit)
                i += 1
            }
            return value
        }

        static func shown(_ c: UInt8) -> String { c >= 0x21 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x" + String(c, radix: 16) }

        // MARK: Filter expressions (§2.3.5)

        /// What a basic expression turned out to be: logical, or a bare comparable (only a
        /// function's argument may be one).
        enum Parsed { case logical(Logical), bare(Comparable) }

        mutating func logical() throws -> Logical {
            try asLogical(orExpression())
        }

        mutating func orExpression() throws -> Parsed { try chain("||", { try $0.andExpression() }, Logical.or) }

        mutating func andExpression() throws -> Parsed { try chain("&&", { try $0.basic() }, Logical.and) }

        /// Terms joined by `op` (with blanks around it), made one expression by `join`.
        mutating func chain(_ op: String, _ term: (inout Parser) throws -> Parsed, _ join: ([Logical]) -> Logical) throws -> Parsed {
            var terms = [try term(&self)]
            while true {
                let start = i
                blank()
                guard take(op) else { i = start; break }
                blank()
                terms.append(try term(&self))
            }
            if terms.count == 1 { return terms[0] }
            return .logical(join(try terms.map { try asLogical($0) }))
        }

        /// A term of `&&` or `||`: logical, or a query or logical function standing as a test.
        func asLogical(_ parsed: Parsed) throws -> Logical {
            switch parsed {
            case .logical(let l): return l
            case .bare(let c):
                guard let test = try test(c, at: i) else { throw fail("a literal or a function of a value is no test: compare it") }
                return test
            }
        }

        /// Every nesting of a filter expression passes through here (a parenthesis, `!`, a
        /// filter in a query, a function's argument): so the depth is counted here.
        mutating func basic() throws -> Parsed {
            let at = i
            depth += 1
            defer { depth -= 1 }
            guard depth <= JSONPath.maxNesting else { throw fail("filter expressions nest more than \(JSONPath.maxNesting) levels deep") }
            if take(UInt8(ascii: "!")) {
                blank()
                if take(UInt8(ascii: "(")) { return .logical(.not(try parenthesised())) }
                guard case .bare(let operand) = try primary(), let test = try test(operand, at: at) else {
                    throw fail("! applies to a parenthesised expression, a query or a function", at: at)
                }
                return .logical(.not(test))
            }
            if take(UInt8(ascii: "(")) { return .logical(try parenthesised()) }
            guard case .bare(let left) = try primary() else { throw fail("expected an expression", at: at) }
            let before = i
            blank()
            guard let op = comparison() else {
                i = before
                return .bare(left)
            }
            blank()
            let rightAt = i
            guard case .bare(let right) = try primary() else { throw fail("expected a value to compare", at: rightAt) }
            try checkComparable(left, at: at)
            try checkComparable(right, at: rightAt)
            return .logical(.compare(left, op, right))
        }

        mutating func parenthesised() throws -> Logical {
            blank()
            let inner = try logical()
            blank()
            guard take(UInt8(ascii: ")")) else { throw fail("expected )") }
            return inner
        }

        /// A query or a logical function alone is a test; a literal or a value function is not.
        func test(_ operand: Comparable, at: Int) throws -> Logical? {
            switch operand {
            case .query(let q): return .exists(q)
            case .function(let f): return f.name.returnsLogical ? .function(f) : nil
            case .literal: return nil
            }
        }

        func checkComparable(_ c: Comparable, at: Int) throws {
            switch c {
            case .literal: return
            case .query(let q): if !q.isSingular { throw fail("only a singular query (names and indexes) can be compared", at: at) }
            case .function(let f): if f.name.returnsLogical { throw fail("\(f.name.rawValue)() gives a logical value, which cannot be compared", at: at) }
            }
        }

        mutating func comparison() -> Comparison? {
            for op in [Comparison.eq, .ne, .le, .ge, .lt, .gt] where take(op.rawValue) { return op }
            return nil
        }

        /// A literal, a query (`@…`, `$…`) or a function call.
        mutating func primary() throws -> Parsed {
            guard let c = peek else { throw fail("unexpected end of the filter") }
            switch c {
            case UInt8(ascii: "@"), UInt8(ascii: "$"):
                i += 1
                return .bare(.query(Query(relative: c == UInt8(ascii: "@"), segments: try segments())))
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                return .bare(.literal(.string(try stringLiteral())))
            case UInt8(ascii: "-"), 0x30...0x39:
                return .bare(.literal(try number()))
            default:
                if take("true") { return .bare(.literal(.boolean(true))) }
                if take("false") { return .bare(.literal(.boolean(false))) }
                if take("null") { return .bare(.literal(.null)) }
                if (0x61...0x7A).contains(c) { return .bare(.function(try function())) }
                throw fail("unexpected \(Self.shown(c)) in a filter")
            }
        }

        /// A JSON number literal (§2.3.5.1: `-0` allowed, with a fraction and an exponent).
        mutating func number() throws -> PekitValue {
            let start = i
            _ = take(UInt8(ascii: "-"))
            guard let first = peek, (0x30...0x39).contains(first) else { throw fail("expected digits", at: start) }
            i += 1
            if first == 0x30, let c = peek, (0x30...0x39).contains(c) { throw fail("a number has no leading zero", at: start) }
            while let c = peek, (0x30...0x39).contains(c) { i += 1 }
            var isInteger = true
            if take(UInt8(ascii: ".")) {
                isInteger = false
                guard let c = peek, (0x30...0x39).contains(c) else { throw fail("expected digits after the point") }
                while let c = peek, (0x30...0x39).contains(c) { i += 1 }
            }
            if let e = peek, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
                isInteger = false
                i += 1
                if let s = peek, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { i += 1 }
                guard let c = peek, (0x30...0x39).contains(c) else { throw fail("expected digits in the exponent") }
                while let c = peek, (0x30...0x39).contains(c) { i += 1 }
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            if isInteger, let n = Int64(text), text != "-0" { return .integer(n) }
            guard let x = Double(text) else { throw fail("not a number", at: start) }
            return .number(x)
        }

        mutating func function() throws -> Function {
            let start = i
            while let c = peek, (0x61...0x7A).contains(c) || c == 0x5F || (0x30...0x39).contains(c) { i += 1 }
            let name = String(decoding: bytes[start..<i], as: UTF8.self)
            guard take(UInt8(ascii: "(")) else { throw fail("expected ( after \(name)", at: i) }
            guard let known = FunctionName(rawValue: name) else { throw fail("no function \(name)() (length, count, match, search, value)", at: start) }
            var arguments: [(Argument, Int)] = []
            blank()
            if !take(UInt8(ascii: ")")) {
                while true {
                    let at = i
                    let argument: Argument
                    switch try orExpression() {
                    case .logical(let l): argument = .logical(l)
                    case .bare(.literal(let v)): argument = .literal(v)
                    case .bare(.query(let q)): argument = .query(q)
                    case .bare(.function(let f)): argument = .function(f)
                    }
                    arguments.append((argument, at))
                    blank()
                    if take(UInt8(ascii: ",")) { blank(); continue }
                    if take(UInt8(ascii: ")")) { break }
                    throw fail("expected , or ) after an argument of \(name)()")
                }
            }
            try known.check(arguments.map(\.0), at: start, offsets: arguments.map(\.1))
            return Function(name: known, arguments: arguments.map(\.0))
        }
    }
}

extension JSONPath.FunctionName {
    /// match() and search() give a logical value; the others a value.
    var returnsLogical: Bool { self == .match || self == .search }

    /// §2.4.3: each argument's type must be the parameter's (or convert to it).
    func check(_ arguments: [JSONPath.Argument], at start: Int, offsets: [Int]) throws {
        enum Kind { case value, nodes }
        let parameters: [Kind]
        switch self {
        case .length: parameters = [.value]
        case .count, .value: parameters = [.nodes]
        case .match, .search: parameters = [.value, .value]
        }
        guard arguments.count == parameters.count else {
            throw JSONPath.ParseError(offset: start, reason: "\(rawValue)() takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s"), not \(arguments.count)")
        }
        for (k, (argument, kind)) in zip(arguments, parameters).enumerated() {
            let ok: Bool
            switch (argument, kind) {
            case (.literal, .value): ok = true
            case (.query(let q), .value): ok = q.isSingular
            case (.function(let f), .value): ok = !f.name.returnsLogical
            case (.query, .nodes): ok = true
            default: ok = false
            }
            if !ok {
                let wanted = kind == .value ? "a value (a literal, a singular query or a value function)" : "a query"
                throw JSONPath.ParseError(offset: offsets[k], reason: "argument \(k + 1) of \(rawValue)() must be \(wanted)")
            }
        }
    }
}
