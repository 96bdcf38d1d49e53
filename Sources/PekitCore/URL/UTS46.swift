/// UTS #46 processing (revision 33's rules, Unicode 17.0.0 tables) as the URL Standard runs it: nontransitional,
/// CheckBidi and CheckJoiners on, CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off. Map,
/// normalize to NFC, break at dots, then decode and check each label; the first rule a label
/// breaks is kept, with the label, for the message.
///
/// A name is processed in one buffer of code points, its labels separated by U+002E, and the
/// ASCII form is written straight into bytes: no array is made for a label. Most names need only
/// the mapping pass, which also learns what the checks after it need (whether the name is already
/// NFC, holds a disallowed or right-to-left code point, or a joiner), so that a label of a
/// name that is NFC and holds nothing disallowed is checked only for what can still be wrong in
/// it: a combining mark first, the joiners' context, and the Bidi rule.
enum UTS46 {
    /// The first rule the name breaks: which label (its index) and why.
    struct Problem: Error, Equatable {
        let labelIndex: Int
        let reason: String
    }

    // What the mapping pass saw.
    private struct Seen: OptionSet {
        let rawValue: UInt8
        static let unstable = Seen(rawValue: 1)  // a code point NFC may change
        static let disallowed = Seen(rawValue: 2)
        static let rightToLeft = Seen(rawValue: 4)
        static let joiner = Seen(rawValue: 8)  // U+200C or U+200D
    }

    /// Processes `name`, well-formed UTF-8, and calls `body` with the labels after processing
    /// (decoded from Punycode where they were), separated by U+002E. They live in temporary
    /// buffers (`withScratch`) only while `body` runs. Returns what `body` returns,
    /// or the first problem.
    static func process<R>(utf8 name: UnsafeBufferPointer<UInt8>, tables: UTS46Tables = .shared, _ body: (UnsafeBufferPointer<UInt32>) -> R) -> Result<R, Problem> {
        withScratch(of: UInt32.self, count: name.count * tables.longestMappingPerByte) { room in
            // 1. Map. A disallowed code point stays, to be reported with its label.
            guard let (count, seen) = map(name, into: room, tables) else {
                return .failure(Problem(labelIndex: Int.max, reason: "maps to more code points than IDNA's tables allow"))
            }
            let mapped = UnsafeBufferPointer(rebasing: room[..<count])
            // 2. Normalize. A name that was already NFC keeps the guarantees of the mapping pass.
            guard seen.contains(.unstable) else { return checked(mapped, seen, tables, body) }
            return withScratch(of: UInt32.self, count: NFC.capacity(for: count, tables: tables)) { normal in
                let count = NFC.normalize(mapped, into: normal, tables: tables)
                return checked(UnsafeBufferPointer(rebasing: normal[..<count]), seen, tables, body)
            }
        }
    }

    // Maps `name` into `out` (room for `longestMappingPerByte` code points a byte), and says
    // how many code points it wrote and what it saw of them; nil should `out` be too small.
    @inline(__always)
    private static func map(_ name: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt32>, _ tables: UTS46Tables) -> (Int, Seen)? {
        var seen: Seen = []
        var i = 0, count = 0
        var lastClass: UInt32 = 0  // the combining class of the last code point mapped, for NFC's quick check
        while i < name.count {
            // Eight ASCII bytes at once, lower-cased in the word: a byte b in A–Z is the one where
            // b + 0x3F reaches 0x80 and b + 0x25 does not (no carry crosses bytes below 0x80).
            if i + 8 <= name.count && count + 8 <= out.count, let base = name.baseAddress {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                if word & 0x8080_8080_8080_8080 == 0 {
                    let upper = (word &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(word &+ 0x2525_2525_2525_2525) & 0x8080_8080_8080_8080
                    let lowered = word | upper >> 2
                    for k in 0..<8 { out[count + k] = UInt32(truncatingIfNeeded: lowered >> UInt64(8 * k)) & 0xFF }
                    count += 8
                    i += 8
                    lastClass = 0
                    continue
                }
            }
            let b = name[i]
            if b < 0x80 {
                guard count < out.count else { return nil }
                out[count] = UInt32(ASCII.lower(b))
                count += 1
                lastClass = 0
                i += 1
                continue
            }
            let c = scalar(name, &i)
            let first = count
            switch tables.map(c, into: out, at: &count) {
            case nil: return nil
            case .ignored: continue
            case .disallowed: seen.insert(.disallowed)
            case .valid, .mapped: break
            }
            for k in first..<count { note(out[k], &seen, &lastClass, tables) }
        }
        return (count, seen)
    }

    // 3. Break; 4. convert and validate; then CheckBidi. Only a name with an xn-- label (after
    // mapping: ｘｎ-- is xn--) is written out again, its decoded labels in place of those; any
    // other is `body`'s as it is.
    private static func checked<R>(_ mapped: UnsafeBufferPointer<UInt32>, _ seen: Seen, _ tables: UTS46Tables, _ body: (UnsafeBufferPointer<UInt32>) -> R) -> Result<R, Problem> {
        let general = seen.contains(.unstable) || seen.contains(.disallowed), joiner = seen.contains(.joiner)
        guard hasPunycodeLabel(mapped) else {
            if let problem = forEachLabel(mapped, { index, label in invalidity(label, tables, general: general, joiner: joiner).map { Problem(labelIndex: index, reason: $0) } }) {
                return .failure(problem)
            }
            return finished(mapped, rightToLeft: seen.contains(.rightToLeft), tables, body)
        }
        // A decoded label has no more code points than its Punycode has letters.
        return withScratch(of: UInt32.self, count: mapped.count) { room in
            var count = 0, rightToLeft = seen.contains(.rightToLeft)
            func put<Labels: Collection>(_ scalars: Labels) where Labels.Element == UInt32 {
                for c in scalars {
                    room[count] = c
                    count += 1
                }
            }
            let problem = forEachLabel(mapped) { index, label -> Problem? in
                if index > 0 { put(CollectionOfOne(0x2E)) }
                guard isPunycode(label) else {
                    if let reason = invalidity(label, tables, general: general, joiner: joiner) { return Problem(labelIndex: index, reason: reason) }
                    put(label)
                    return nil
                }
                guard label.allSatisfy({ $0 < 0x80 }) else {
                    return Problem(labelIndex: index, reason: "is a Punycode label with a character that is not ASCII")
                }
                guard let decoded = Punycode.decode(UnsafeBufferPointer(rebasing: label[4...])) else {
                    return Problem(labelIndex: index, reason: "is not valid Punycode")
                }
                if decoded.isEmpty || decoded.allSatisfy({ $0 < 0x80 }) {
                    return Problem(labelIndex: index, reason: "is Punycode for text that needs none (empty, or ASCII)")
                }
                let reason = decoded.withUnsafeBufferPointer { invalidity($0, tables, general: true, joiner: true) }
                if let reason { return Problem(labelIndex: index, reason: "is Punycode for text that is not a valid label: it " + reason) }
                if !rightToLeft { rightToLeft = decoded.contains { $0 >= 0x80 && tables.bidi($0).isRightToLeft } }
                guard count + decoded.count <= room.count else { return Problem(labelIndex: index, reason: "is not valid Punycode") }
                put(decoded)
                return nil
            }
            if let problem { return .failure(problem) }
            return finished(UnsafeBufferPointer(rebasing: room[..<count]), rightToLeft: rightToLeft, tables, body)
        }
    }

    // CheckBidi, for a name with a right-to-left label; then `body`.
    private static func finished<R>(_ processed: UnsafeBufferPointer<UInt32>, rightToLeft: Bool, _ tables: UTS46Tables, _ body: (UnsafeBufferPointer<UInt32>) -> R) -> Result<R, Problem> {
        if rightToLeft, let problem = forEachLabel(processed, { index, label in
            label.isEmpty || satisfiesBidiRule(label, tables) ? nil : Problem(labelIndex: index, reason: "breaks the Bidi rule (RFC 5893) for right-to-left labels")
        }) {
            return .failure(problem)
        }
        return .success(body(processed))
    }

    /// The most bytes the ASCII form of `processed` takes. A label that is not ASCII, with b
    /// basic and n ≥ 1 other code points, takes "xn--", b, "-" and at most 11 n digits
    /// (`Punycode.capacity(for:)`), which is at most 16 (b + n); any other, its own length.
    static func asciiCapacity(_ processed: UnsafeBufferPointer<UInt32>) -> Int { processed.count * 16 }

    /// Writes the ASCII form of processed labels into `out` (`asciiCapacity` bytes): Punycode
    /// for those that are not ASCII. Returns the length, or nil when a label is too long for Punycode.
    static func writeASCII(_ processed: UnsafeBufferPointer<UInt32>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        guard out.count >= asciiCapacity(processed) else { return nil }
        var at = 0
        let failed = forEachLabel(processed) { index, label -> Bool? in
            if index > 0 {
                out[at] = 0x2E
                at += 1
            }
            if label.allSatisfy({ $0 < 0x80 }) {
                for c in label {
                    out[at] = UInt8(truncatingIfNeeded: c)
                    at += 1
                }
                return nil
            }
            out[at] = 0x78; out[at + 1] = 0x6E; out[at + 2] = 0x2D; out[at + 3] = 0x2D  // xn--
            guard let end = Punycode.encode(label, into: out, at: at + 4) else { return true }
            at = end
            return nil
        }
        return failed == nil ? at : nil
    }

    /// The Unicode form of processed labels.
    static func unicode(_ processed: UnsafeBufferPointer<UInt32>) -> String {
        var text = String.UnicodeScalarView()
        for c in processed { if let scalar = Unicode.Scalar(c) { text.append(scalar) } }
        return String(text)
    }

    // Calls `body` with each label of `all` (the code points between full stops) and its index,
    // in order, and returns the first non-nil it returns.
    @inline(__always)
    private static func forEachLabel<T>(_ all: UnsafeBufferPointer<UInt32>, _ body: (Int, UnsafeBufferPointer<UInt32>) -> T?) -> T? {
        var start = 0, index = 0
        while true {
            var end = start
            while end < all.count && all[end] != 0x2E { end += 1 }
            if let result = body(index, UnsafeBufferPointer(rebasing: all[start..<end])) { return result }
            guard end < all.count else { return nil }
            start = end + 1
            index += 1
        }
    }

    // The code point of the well-formed UTF-8 sequence at `i` (a lead byte ≥ 0x80), moving past it.
    @inline(__always)
    private static func scalar(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UInt32 {
        let b = UInt32(p[i])
        if b < 0xE0 {
            defer { i += 2 }
            return (b & 0x1F) << 6 | UInt32(p[i + 1] & 0x3F)
        }
        if b < 0xF0 {
            defer { i += 3 }
            return (b & 0x0F) << 12 | UInt32(p[i + 1] & 0x3F) << 6 | UInt32(p[i + 2] & 0x3F)
        }
        defer { i += 4 }
        return (b & 0x07) << 18 | UInt32(p[i + 1] & 0x3F) << 12 | UInt32(p[i + 2] & 0x3F) << 6 | UInt32(p[i + 3] & 0x3F)
    }

    // What a mapped code point tells the checks after mapping.
    @inline(__always)
    private static func note(_ c: UInt32, _ seen: inout Seen, _ lastClass: inout UInt32, _ tables: UTS46Tables) {
        guard c >= 0x80 else {
            lastClass = 0
            return
        }
        let properties = tables.properties(c)
        if !UTS46Tables.passesNFCQuickCheck(c, properties, lastClass: &lastClass) { seen.insert(.unstable) }
        if UTS46Tables.Bidi(properties).isRightToLeft { seen.insert(.rightToLeft) }
        if c == 0x200C || c == 0x200D { seen.insert(.joiner) }
    }

    private static func hasPunycodeLabel(_ all: UnsafeBufferPointer<UInt32>) -> Bool {
        forEachLabel(all) { _, label in isPunycode(label) ? true : nil } ?? false
    }

    @inline(__always)
    private static func isPunycode(_ label: UnsafeBufferPointer<UInt32>) -> Bool {
        label.count >= 4 && label[0] == 0x78 && label[1] == 0x6E && label[2] == 0x2D && label[3] == 0x2D
    }

    // §4.1's validity criteria for nontransitional processing (CheckHyphens off): why `label`
    // is not valid, or nil. Unless `general`, the label comes from a name the mapping pass found
    // NFC with nothing disallowed in it (mappings are to valid code points), so only a leading
    // mark and the joiners are left to check; `joiner` says whether one may be there.
    private static func invalidity(_ label: UnsafeBufferPointer<UInt32>, _ tables: UTS46Tables, general: Bool, joiner: Bool) -> String? {
        if label.allSatisfy({ $0 < 0x80 }) { return nil }  // ASCII (no STD3 rules): valid
        if general {
            if !NFC.isNFC(label, tables: tables) { return "is not in Unicode NFC" }
            if isPunycode(label) { return "starts with xn--" }
            if label.contains(0x2E) { return "holds a dot" }
        }
        if let first = label.first, tables.isMark(first) { return "starts with a combining mark" }
        if general {
            for c in label where c >= 0x80 {
                if tables.status(c) != .valid { return "holds U+\(hexDigitsUpper(c)), which IDNA (UTS #46) disallows" }
            }
        }
        if joiner && !satisfiesContextJ(label, tables) {
            return "has a zero-width joiner or non-joiner where the CONTEXTJ rule (RFC 5892) forbids it"
        }
        return nil
    }

    // RFC 5892 Appendix A.1 and A.2: ZWNJ after a virama or between joining letters, ZWJ after
    // a virama.
    private static func satisfiesContextJ(_ label: UnsafeBufferPointer<UInt32>, _ tables: UTS46Tables) -> Bool {
        for (i, c) in label.enumerated() where c == 0x200C || c == 0x200D {
            if i > 0 && tables.combiningClass(label[i - 1]) == 9 { continue }
            guard c == 0x200C else { return false }
            var left = i - 1
            while left >= 0 && tables.joining(label[left]) == .T { left -= 1 }
            var right = i + 1
            while right < label.count && tables.joining(label[right]) == .T { right += 1 }
            guard left >= 0, right < label.count else { return false }
            let before = tables.joining(label[left]), after = tables.joining(label[right])
            guard before == .L || before == .D, after == .R || after == .D else { return false }
        }
        return true
    }

    // RFC 5893 §2's six conditions.
    private static func satisfiesBidiRule(_ label: UnsafeBufferPointer<UInt32>, _ tables: UTS46Tables) -> Bool {
        guard let firstScalar = label.first else { return true }
        let first = tables.bidi(firstScalar)
        var hasEN = false, hasAN = false
        var last: UTS46Tables.Bidi?
        for c in label {
            let bidi = tables.bidi(c)
            switch first {
            case .R, .AL: guard bidi.allowedRightToLeft else { return false }
            case .L: guard bidi.allowedLeftToRight else { return false }
            default: return false
            }
            if bidi == .EN { hasEN = true } else if bidi == .AN { hasAN = true }
            if bidi != .NSM { last = bidi }
        }
        guard let last else { return false }
        if first == .L { return last == .L || last == .EN }
        return (last == .R || last == .AL || last == .EN || last == .AN) && !(hasEN && hasAN)
    }
}
