/// How each server reads a parameter name into key segments (`a[b][]`, Rack's, PHP's, dots).
extension QueryParser {
    /// `a[b][]` → ["a", "b", ""], with the depth limit applied.
    func segments(of key: [UInt8]) throws -> [[UInt8]] {
        var key = key
        if allowDots { key = dotsToBrackets(key) }
        if phpNames { key = phpMangled(key) }
        if rackKeys { return try rackSegments(key) }
        guard let open = key.firstIndex(of: 0x5B), open > 0, key[open...].contains(0x5D) else { return [key] }
        var result: [[UInt8]] = [Array(key[..<open])]
        var i = open
        var level = 0
        while i < key.count, key[i] == 0x5B, let close = key[(i + 1)...].firstIndex(of: 0x5D) {
            if level == depth {
                if strict { throw QueryError("key \"\(ByteString(key))\" is nested deeper than \(depth) levels (depth)") }
                result.append(Array(key[i...]))  // the rest, literally, as qs keeps it
                return result
            }
            result.append(Array(key[(i + 1)..<close]))
            level += 1
            i = close + 1
        }
        if i < key.count {
            // Text after the brackets, or an unclosed bracket: qs keeps it as one more segment.
            if strict { throw QueryError("key \"\(ByteString(key))\" is malformed (an unclosed '[' or text after ']')") }
            result.append(Array(key[i...]))
        }
        return result
    }

    func rackSegments(_ key: [UInt8]) throws -> [[UInt8]] {
        var result: [[UInt8]] = []
        var i = 0
        let isBracket = { (b: UInt8) in b == 0x5B || b == 0x5D }
        while i < key.count {
            if !result.isEmpty, i + 1 < key.count, key[i] == 0x5B, key[i + 1] == 0x5D {
                result.append([]); i += 2
            } else {
                while i < key.count, isBracket(key[i]) { i += 1 }
                let start = i
                while i < key.count, !isBracket(key[i]) { i += 1 }
                if i > start { result.append(Array(key[start..<i])) }
                while i < key.count, key[i] == 0x5D { i += 1 }
            }
            if result.count > depth + 1 {
                if strict { throw QueryError("key \"\(ByteString(key))\" is nested deeper than \(depth) levels (depth)") }
                return Array(result.prefix(depth + 1))
            }
        }
        return result.isEmpty ? [key] : result
    }

    func phpMangled(_ key: [UInt8]) -> [UInt8] {
        var out = key
        let open = key.firstIndex(of: 0x5B)
        let closed = open.map { key[$0...].contains(0x5D) } ?? false
        let nameEnd = closed ? open! : key.count
        for i in 0..<nameEnd where out[i] == 0x2E || out[i] == 0x20 || (out[i] == 0x5B && !closed) { out[i] = 0x5F }
        // PHP drops leading spaces of the name before mangling the rest.
        while out.first == 0x5F, key.first == 0x20 { out.removeFirst(); break }
        return out
    }

    func dotsToBrackets(_ key: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < key.count {
            if key[i] == 0x2E, i > 0, i + 1 < key.count, key[i + 1] != 0x2E, key[i + 1] != 0x5B {
                var j = i + 1
                while j < key.count, key[j] != 0x2E, key[j] != 0x5B { j += 1 }
                out.append(0x5B); out += key[(i + 1)..<j]; out.append(0x5D)
                i = j
            } else {
                out.append(key[i]); i += 1
            }
        }
        return out
    }
}
