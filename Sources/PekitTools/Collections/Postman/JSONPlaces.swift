import PekitCore

/// Where a value is in a JSON text, so that a message about a collection can name the line and
/// column a person's editor shows. The text is already known to parse (JSONText read it).
enum JSONPlaces {
    /// A step of a path: a member's name or an element's index.
    enum Step: Equatable { case key(String), index(Int) }

    /// The 1-based line and column (in bytes) of `offset`.
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1, start = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A { line += 1; start = i + 1 }
        return (line, offset - start + 1)
    }

    /// The offset of the value at `path`, or of the deepest value on the way that exists.
    static func offset(of path: [Step], in bytes: [UInt8]) -> Int {
        let scanner = Scanner(bytes: bytes)
        return scanner.find(path[...], at: scanner.skipSpace(0))
    }

    private struct Scanner {
        let bytes: [UInt8]

        func skipSpace(_ i: Int) -> Int {
            var i = i
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
            return i
        }

        /// The index after the string that starts at `i` (its opening quote).
        func skipString(_ i: Int) -> Int {
            var i = i + 1
            while i < bytes.count, bytes[i] != 0x22 { i += bytes[i] == 0x5C ? 2 : 1 }
            return i + 1
        }

        /// The index after the value that starts at `i`.
        func skipValue(_ i: Int) -> Int {
            guard i < bytes.count else { return i }
            switch bytes[i] {
            case 0x22: return skipString(i)
            case 0x7B, 0x5B:
                var depth = 0, j = i
                while j < bytes.count {
                    switch bytes[j] {
                    case 0x22: j = skipString(j); continue
                    case 0x7B, 0x5B: depth += 1
                    case 0x7D, 0x5D:
                        depth -= 1
                        if depth == 0 { return j + 1 }
                    default: break
                    }
                    j += 1
                }
                return j
            default:
                var j = i
                while j < bytes.count, ![0x2C, 0x7D, 0x5D, 0x20, 0x09, 0x0A, 0x0D].contains(bytes[j]) { j += 1 }
                return j
            }
        }

        func find(_ path: ArraySlice<Step>, at i: Int) -> Int {
            guard let step = path.first, i < bytes.count else { return i }
            var j = skipSpace(i + 1)
            switch (step, bytes[i]) {
            case (.key(let name), 0x7B):
                while j < bytes.count, bytes[j] == 0x22 {
                    let end = skipString(j)
                    let key = (try? JSONText.parse(bytes[j..<end])).flatMap { if case .string(let s) = $0 { return s.description }; return nil }
                    let value = skipSpace(skipSpace(end) + 1)
                    if key == name { return find(path.dropFirst(), at: value) }
                    j = skipSpace(skipValue(value))
                    if j < bytes.count, bytes[j] == 0x2C { j = skipSpace(j + 1) }
                }
            case (.index(let index), 0x5B):
                var n = 0
                while j < bytes.count, bytes[j] != 0x5D {
                    if n == index { return find(path.dropFirst(), at: j) }
                    j = skipSpace(skipValue(j))
                    if j < bytes.count, bytes[j] == 0x2C { j = skipSpace(j + 1) }
                    n += 1
                }
            default: break
            }
            return i
        }
    }
}
