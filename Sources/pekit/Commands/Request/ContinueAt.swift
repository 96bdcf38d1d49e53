import PekitCore
import PekitHTTP

/// curl's `-C OFFSET` / `-C -` (`--continue-at`), as curl 7.88 has it (tool_getparam.c, http.c):
/// a download asks for the rest (`Range: bytes=N-`, N the -o file's size with `-`) and its answer
/// goes after what the file holds; an upload sends the rest of its body (`Content-Range: bytes
/// N-LAST/TOTAL`, its first N bytes left out; a `-d` body is cut to its first TOTAL−N bytes, as
/// curl cuts post data).
enum ContinueAt {
    /// `-C`'s value: an offset, or `-` (from the output file; an upload: the whole body again).
    enum Offset: Equatable { case bytes(Int64), fromFile }

    static func offset(_ parsed: Arguments) throws -> Offset? {
        guard let text = parsed.value(RequestOptions.continueAt) else { return nil }
        if text == "-" { return .fromFile }
        guard let n = Int64(text), n >= 0 else {
            throw UsageError(command: "request", message: "-C/--continue-at takes a byte offset or -, not '\(text)'")
        }
        return .bytes(n)
    }

    /// An upload's body and Content-Range from the offset (nothing to do for a download).
    static func upload(_ builder: inout RequestBuilder, _ offset: Offset) throws {
        let bytes: [UInt8], isPost: Bool
        switch builder.body {
        case .file(let path, _):
            guard let read = Files.read(path) else { throw CommandFailure(message: "pekit request: -T: cannot read \(path)", status: 26) }
            (bytes, isPost) = (read, false)
        case .bytes(let data, _):
            (bytes, isPost) = (data, true)
        default:
            return
        }
        let total = Int64(bytes.count)
        switch offset {
        case .fromFile:
            // The server's part is unknown: the whole body again, said so.
            builder.contentRange = "0-\(total - 1)/\(total)"
        case .bytes(let n):
            guard n > 0 else { return }
            builder.contentRange = "\(n)-\(total - 1)/\(total)"
            let rest = Int(max(0, total - n))
            // -T: the file from the offset; -d: its first bytes (curl sends post data so).
            let body = isPost ? Array(bytes.prefix(rest)) : Array(bytes.dropFirst(Int(min(n, total))))
            if case .bytes(_, let type) = builder.body { builder.body = .bytes(body, contentType: type) } else { builder.body = .bytes(body, contentType: nil) }
        }
    }

    /// A download's offset: N, or the size of the file the answer goes to (0 when there is none).
    static func downloadOffset(_ offset: Offset, outputPath: String?) -> Int64 {
        switch offset {
        case .bytes(let n): return n
        case .fromFile: return outputPath.flatMap { FilePaths.size(of: $0) } ?? 0
        }
    }

    /// What curl makes of a resumed download's answer (http.c): whether the body is written,
    /// and the exit status when it fails (33: the server does not resume).
    struct Verdict { var writesBody: Bool; var failure: String?; var resumeFrom: Int64 }

    static func verdict(_ response: PekitResponse, from offset: Int64, method: String) -> Verdict {
        var resumeFrom = offset, contentRange = false
        if let field = response.header("Content-Range")?.description {
            // "bytes N-", "bytes: N-", "N-", or "*/TOTAL": the first digit or star.
            let rest = field.drop { !$0.isNumber && $0 != "*" }
            if let first = rest.first, first.isNumber {
                if Int64(rest.prefix { $0.isNumber }) == resumeFrom { contentRange = true }
            } else {
                resumeFrom = 0
            }
        }
        // A 416 to a resume: the document is whole already; its body is not the document's (curl
        // decides it at the status line, before a Content-Range of */TOTAL resets the resume).
        if offset > 0, method == "GET", response.status == 416 { return Verdict(writesBody: false, failure: nil, resumeFrom: resumeFrom) }
        guard resumeFrom > 0, method == "GET" else { return Verdict(writesBody: true, failure: nil, resumeFrom: resumeFrom) }
        if contentRange { return Verdict(writesBody: true, failure: nil, resumeFrom: resumeFrom) }
        // The whole document, exactly as long as what is here: already downloaded.
        if let length = response.header("Content-Length").flatMap({ Int64($0.description.trimmingOWS) }), length == resumeFrom {
            return Verdict(writesBody: false, failure: nil, resumeFrom: resumeFrom)
        }
        return Verdict(writesBody: false, failure: "the server does not seem to support byte ranges: cannot resume (as curl, exit 33)", resumeFrom: resumeFrom)
    }
}
