import PekitCore
import PekitHTTP

/// curl's two views of a transfer, from libcurl's own reports (`SendOptions.trace`).
enum TraceOutput {
    /// -v: `* ` notes, `> ` the header block sent, `< ` the header lines received, on standard
    /// error, control characters escaped.
    /// - Parameter style: standard error's (`--color`): header lines coloured on a terminal.
    static func verbose(_ event: SendOptions.TraceEvent, _ bytes: [UInt8], style: Style = .plain) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch event {
        case .text:
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) { Output.stderr.line("* " + printable(String(line))) }
        case .headerOut:
            var lines = text.components(separatedBy: "\r\n")
            if lines.last == "" { lines.removeLast() }
            for line in lines { Output.stderr.line("> " + style.headLine(printable(line))) }
        case .headerIn:
            var line = bytes[...]
            while let last = line.last, last == 0x0A || last == 0x0D { line = line.dropLast() }
            Output.stderr.line("< " + style.headLine(printable(String(decoding: line, as: UTF8.self))))
        case .dataOut, .dataIn:
            break
        }
        Output.stderr.flush()
    }

    /// --trace-ascii: curl's format, every byte sent and received, 64 to a line, CRLF ending
    /// a line, other bytes outside 0x20–0x7F as '.'.
    static func ascii(_ event: SendOptions.TraceEvent, _ bytes: [UInt8]) -> [UInt8] {
        let title: String
        switch event {
        case .text: return Array(("== Info: " + String(decoding: bytes, as: UTF8.self)).utf8)
        case .headerOut: title = "=> Send header"
        case .dataOut: title = "=> Send data"
        case .headerIn: title = "<= Recv header"
        case .dataIn: title = "<= Recv data"
        }
        var out = Array("\(title), \(bytes.count) bytes (0x\(String(bytes.count, radix: 16)))\n".utf8)
        let width = 0x40, size = bytes.count
        var i = 0
        while i < size {
            out += Array(String(format: "%04x: ", i).utf8)
            var c = 0
            while c < width && i + c < size {
                if i + c + 1 < size && bytes[i + c] == 0x0D && bytes[i + c + 1] == 0x0A { i += c + 2 - width; break }
                let b = bytes[i + c]
                out.append(b >= 0x20 && b < 0x80 ? b : 0x2E)
                if i + c + 2 < size && bytes[i + c + 1] == 0x0D && bytes[i + c + 2] == 0x0A { i += c + 3 - width; break }
                c += 1
            }
            out.append(0x0A)
            i += width
        }
        return out
    }
}
