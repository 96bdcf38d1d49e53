import PekitCore

/// `pekit encode --explain`'s text: a row a character (why it was kept or escaped), then how
/// each server model reads the result back as a value, each change with its rule.
enum EncodingExplanationText {
    static func render(_ input: [UInt8], encoder: PercentEncoder, origin: AllowedSetOrigin) -> [UInt8] {
        let steps = encoder.explain(input, origin: origin)
        let encoded = steps.flatMap(\.written)
        var lines = ["input:   " + quoted(input), "encoded: " + String(decoding: encoded, as: UTF8.self), ""]
        let rows = [["char", "bytes", "written", "why", "RFC 3986", "URL Standard sets that escape it"]] + steps.map { step in
            [shown(step.bytes), step.bytes.map { ASCII.hex($0) }.joined(separator: " "), String(decoding: step.written, as: UTF8.self),
             step.reason, step.kind, step.whatwgSets.isEmpty ? "none" : step.whatwgSets.count == 8 ? "all" : step.whatwgSets.joined(separator: ", ")]
        }
        lines += table(rows)
        lines += ["", "how each server reads it back as a value (explain=\(String(decoding: encoded, as: UTF8.self))):"]
        // '+' read as a space changes what was sent only where a '+' was sent as it is (a space
        // written '+' comes back a space).
        let plusKept = steps.contains { $0.bytes == [0x2B] && $0.kept }
        let readings = QueryServer.models.map { model -> [String] in
            let reading = model.readValue(encoded)
            let notes = reading.notes.filter { plusKept || !$0.hasPrefix("'+'") }
            let read: String, same: Bool
            switch reading.outcome {
            case .value(let bytes): read = quoted(bytes); same = bytes == input
            case .dropped(let why): read = "no value (\(why))"; same = false
            case .refused(let why): read = "refused (\(why))"; same = false
            }
            return [model.name, read, same ? "as sent" : "differs: " + notes.joined(separator: "; ")]
        }
        lines += table(readings)
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// Rows as columns two spaces apart, each as wide as its widest cell (the last unpadded).
    private static func table(_ rows: [[String]]) -> [String] {
        guard let count = rows.first?.count else { return [] }
        let widths = (0..<count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            var line = "  " + row.enumerated().map { column, cell in
                column == count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// A character as a person reads it: itself when printable, a space as ' ', other bytes as \xNN.
    private static func shown(_ bytes: [UInt8]) -> String {
        if bytes == [0x20] { return "' '" }
        if bytes.count > 1 || bytes.first.map({ $0 > 0x20 && $0 < 0x7F }) == true, UTF8Validation.isValid(bytes), !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return escaped(bytes)
    }

    /// A value read, in double quotes: text as it is, control bytes and bytes that are not
    /// UTF-8 as \xNN.
    private static func quoted(_ bytes: [UInt8]) -> String {
        var out = "\""
        bytes.withUnsafeBufferPointer { buffer in
            var i = 0
            while i < buffer.count {
                let (length, problem) = UTF8Decoding.sequence(in: buffer, at: i)
                let piece = Array(buffer[i..<i + length])
                if problem != nil || (length == 1 && (piece[0] < 0x20 || piece[0] == 0x7F)) {
                    out += escaped(piece)
                } else if piece == [0x22] || piece == [0x5C] {
                    out += "\\" + String(UnicodeScalar(piece[0]))
                } else {
                    out += String(decoding: piece, as: UTF8.self)
                }
                i += length
            }
        }
        return out + "\""
    }

    private static func escaped(_ bytes: [UInt8]) -> String { bytes.map { "\\x" + ASCII.hex($0) }.joined() }
}
