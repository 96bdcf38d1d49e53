/// UTS #46 processing (revision 33's rules, Unicode 17.0.0 tables) as the URL Standard runs it: nontransitional,
/// CheckBidi and CheckJoiners on, CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off. Map,
/// normalize to NFC, break at dots, then decode and check each label; the first rule a label
/// breaks is kept, with the label, for the message.
enum UTS46 {
    /// The first rule the name breaks: which label (its index) and why.
    struct Problem: Error, Equatable {
        let labelIndex: Int
        let reason: String
    }

    /// The labels of `name` after processing (decoded from Punycode where they were), or the
    /// first problem.
    static func process(_ name: [UInt32], tables: UTS46Tables = .shared) -> Result<[[UInt32]], Problem> {
        // 1. Map. A disallowed code point stays, to be reported with its label.
        var mapped: [UInt32] = []
        mapped.reserveCapacity(name.count)
        for c in name {
            if c < 0x80 {
                mapped.append(c >= 0x41 && c <= 0x5A ? c | 0x20 : c)
                continue
            }
            switch tables.status(c) {
            case .valid, .disallowed: mapped.append(c)
            case .mapped: tables.appendMapping(of: c, to: &mapped)
            case .ignored: break
            }
        }
        // 2. Normalize; 3. break.
        let labels = NFC.normalize(mapped, tables: tables).split(separator: 0x2E, omittingEmptySubsequences: false).map(Array.init)
        var out: [[UInt32]] = []
        out.reserveCapacity(labels.count)
        // 4. Convert and validate.
        for (index, label) in labels.enumerated() {
            if label.count >= 4 && label[0] == 0x78 && label[1] == 0x6E && label[2] == 0x2D && label[3] == 0x2D {
                guard label.allSatisfy({ $0 < 0x80 }) else {
                    return .failure(Problem(labelIndex: index, reason: "is a Punycode label with a character that is not ASCII"))
                }
                guard let decoded = Punycode.decode(ArraySlice(label.dropFirst(4).map { UInt8($0) })) else {
                    return .failure(Problem(labelIndex: index, reason: "is not valid Punycode"))
                }
                if decoded.isEmpty || decoded.allSatisfy({ $0 < 0x80 }) {
                    return .failure(Problem(labelIndex: index, reason: "is Punycode for text that needs none (empty, or ASCII)"))
                }
                if let reason = invalidity(decoded, tables) {
                    return .failure(Problem(labelIndex: index, reason: "is Punycode for text that is not a valid label: it " + reason))
                }
                out.append(decoded)
            } else {
                if let reason = invalidity(label, tables) { return .failure(Problem(labelIndex: index, reason: reason)) }
                out.append(label)
            }
        }
        // CheckBidi, for a name with a right-to-left label.
        if out.contains(where: { $0.contains { c in c >= 0x80 && tables.bidi(c).isRightToLeft } }) {
            for (index, label) in out.enumerated() where !label.isEmpty && !satisfiesBidiRule(label, tables) {
                return .failure(Problem(labelIndex: index, reason: "breaks the Bidi rule (RFC 5893) for right-to-left labels"))
            }
        }
        return .success(out)
    }

    /// The ASCII form of processed labels: Punycode for those that are not ASCII.
    static func ascii(_ labels: [[UInt32]]) -> String? {
        var out: [UInt8] = []
        for (i, label) in labels.enumerated() {
            if i > 0 { out.append(0x2E) }
            if label.allSatisfy({ $0 < 0x80 }) {
                out += label.map { UInt8($0) }
            } else {
                guard let code = Punycode.encode(label) else { return nil }
                out.append(contentsOf: [0x78, 0x6E, 0x2D, 0x2D] as [UInt8])
                out.append(contentsOf: code)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The Unicode form of processed labels.
    static func unicode(_ labels: [[UInt32]]) -> String {
        var text = String.UnicodeScalarView()
        for (i, label) in labels.enumerated() {
            if i > 0 { text.append(".") }
            for c in label { if let scalar = Unicode.Scalar(c) { text.append(scalar) } }
        }
        return String(text)
    }

    // §4.1's validity criteria for nontransitional processing (CheckHyphens off): why `label`
    // is not valid, or nil.
    private static func invalidity(_ label: [UInt32], _ tables: UTS46Tables) -> String? {
        if label.allSatisfy({ $0 < 0x80 }) { return nil }  // ASCII (no STD3 rules): valid
        if !NFC.isNormalized(label, tables: tables) && NFC.normalize(label, tables: tables) != label { return "is not in Unicode NFC" }
        if label.count >= 4 && label[0] == 0x78 && label[1] == 0x6E && label[2] == 0x2D && label[3] == 0x2D {
            return "starts with xn--"
        }
        if label.contains(0x2E) { return "holds a dot" }
        if let first = label.first, tables.isMark(first) { return "starts with a combining mark" }
        for c in label where c >= 0x80 {
            if tables.status(c) != .valid { return "holds U+\(hexDigitsUpper(c)), which IDNA (UTS #46) disallows" }
        }
        if !satisfiesContextJ(label, tables) {
            return "has a zero-width joiner or non-joiner where the CONTEXTJ rule (RFC 5892) forbids it"
        }
        return nil
    }

    // RFC 5892 Appendix A.1 and A.2: ZWNJ after a virama or between joining letters, ZWJ after
    // a virama.
    private static func satisfiesContextJ(_ label: [UInt32], _ tables: UTS46Tables) -> Bool {
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
    private static func satisfiesBidiRule(_ label: [UInt32], _ tables: UTS46Tables) -> Bool {
        let classes = label.map { tables.bidi($0) }
        guard let first = classes.first else { return true }
        let last = classes.last(where: { $0 != .NSM })
        switch first {
        case .R, .AL:
            guard classes.allSatisfy(\.allowedRightToLeft) else { return false }
            guard let last, last == .R || last == .AL || last == .EN || last == .AN else { return false }
            return !(classes.contains(.EN) && classes.contains(.AN))
        case .L:
            guard classes.allSatisfy(\.allowedLeftToRight) else { return false }
            guard let last, last == .L || last == .EN else { return false }
            return true
        default:
            return false
        }
    }
}
