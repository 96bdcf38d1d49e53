/// Domain to ASCII for host names (URL Standard §3.3, UTS #46 with CheckHyphens and
/// UseSTD3ASCIIRules off, non-transitional). This slice handles ASCII names: they are lower-cased,
/// and an `xn--` label must be valid Punycode (RFC 3492) whose decoded form is not ASCII only.
/// Names with non-ASCII characters need UTS #46's mapping and normalization tables and are
/// refused for now, saying so.
enum IDNA {
    static func domainToASCII(_ domain: [Unicode.Scalar], _ failure: inout String) -> String? {
        guard domain.allSatisfy({ $0.isASCII }) else {
            failure = "non-ASCII host names (IDNA) are not supported yet; write the host in its xn-- form"
            return nil
        }
        let lower = String(String.UnicodeScalarView(domain)).lowercased()
        for label in lower.split(separator: ".", omittingEmptySubsequences: false) where label.hasPrefix("xn--") {
            // UTS #46 validity, as far as it can be told without its tables: not all ASCII, no
            // controls, spaces, surrogates, private-use or unassigned code points.
            guard let decoded = Punycode.decode(Array(label.dropFirst(4).unicodeScalars)), !decoded.allSatisfy({ $0.isASCII }),
                  decoded.allSatisfy({ ![.control, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator, .spaceSeparator,
                                          .format].contains($0.properties.generalCategory) && !($0.isASCII && $0.properties.isUppercase) }) else {
                failure = "\"\(label)\" is not valid Punycode"
                return nil
            }
        }
        return lower
    }
}

/// Punycode decoding (RFC 3492 §6.2).
enum Punycode {
    static func decode(_ input: [Unicode.Scalar]) -> [Unicode.Scalar]? {
        let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
        var n = 128, i = 0, bias = 72
        var output: [Unicode.Scalar] = []
        var rest = input[...]
        if let delimiter = input.lastIndex(of: "-") {
            for c in input[..<delimiter] { guard c.isASCII else { return nil }; output.append(c) }
            rest = input[(delimiter + 1)...]
        }
        func digit(_ c: Unicode.Scalar) -> Int? {
            switch c.value {
            case 0x30...0x39: return Int(c.value) - 0x30 + 26
            case 0x41...0x5A: return Int(c.value) - 0x41
            case 0x61...0x7A: return Int(c.value) - 0x61
            default: return nil
            }
        }
        func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
            var delta = first ? delta / damp : delta / 2
            delta += delta / count
            var k = 0
            while delta > ((base - tMin) * tMax) / 2 { delta /= base - tMin; k += base }
            return k + (base - tMin + 1) * delta / (delta + skew)
        }
        var it = rest.makeIterator()
        var pending = it.next()
        while pending != nil {
            let oldi = i
            var w = 1, k = base
            while true {
                guard let c = pending, let d = digit(c) else { return nil }
                pending = it.next()
                guard d <= (Int.max - i) / w else { return nil }
                i += d * w
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if d < t { break }
                guard w <= Int.max / (base - t) else { return nil }
                w *= base - t
                k += base
                if pending == nil { return nil }
            }
            bias = adapt(i - oldi, output.count + 1, oldi == 0)
            guard i / (output.count + 1) <= Int(UInt32.max) - n else { return nil }
            n += i / (output.count + 1)
            i %= output.count + 1
            guard let scalar = Unicode.Scalar(UInt32(n)) else { return nil }
            output.insert(scalar, at: i)
            i += 1
        }
        return output
    }
}
