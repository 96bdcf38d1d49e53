import Foundation
import PekitCore
import PekitHTTP

/// curl's `--etag-compare FILE` and `--etag-save FILE` (7.68+, tool_operate.c): the file's
/// ETag sent as `If-None-Match` (after the command's own fields, as curl adds it to them; `""`
/// when the file is empty, or missing while `--etag-save` is given too), and the answer's ETag
/// written to a file (`-`: standard output) with a line end, or nothing when it has none.
enum ETagFiles {
    /// The If-None-Match field `--etag-compare` asks for, or nil.
    /// - Throws: `CommandFailure` with curl's exit status 26 for a file that cannot be read
    ///   (without `--etag-save`), before anything is sent.
    static func compareField(_ parsed: Arguments) throws -> RequestBuilder.Header? {
        guard let path = parsed.value(RequestOptions.etagCompare) else { return nil }
        guard let bytes = Files.read(path) else {
            if parsed.has(RequestOptions.etagSave) { return RequestBuilder.Header("If-None-Match", "\"\"") }
            throw CommandFailure(message: "pekit request: --etag-compare: cannot read \(printable(path)) (as curl, exit 26)", status: 26)
        }
        // curl's file2string: the lines joined, their ends dropped.
        let text = String(decoding: bytes.filter { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        return RequestBuilder.Header("If-None-Match", text.isEmpty ? "\"\"" : text)
    }

    /// Whether `--etag-save`'s file can be written, checked before sending (curl opens it first).
    /// - Throws: `CommandFailure` (exit 26, as curl 7.88) when its directory does not exist or
    ///   is not writable.
    static func checkSave(_ parsed: Arguments) throws {
        guard let path = parsed.value(RequestOptions.etagSave), path != "-" else { return }
        if let why = OutputFileRules.uncreatable(path) {
            throw CommandFailure(message: "pekit request: --etag-save: cannot create \(printable(path)) (\(why)); nothing was sent (as curl, exit 26)", status: 26)
        }
    }

    /// Writes the answer's ETag where `--etag-save` says.
    static func save(_ parsed: Arguments, _ response: PekitResponse) throws {
        guard let path = parsed.value(RequestOptions.etagSave) else { return }
        var value: [UInt8] = []
        if let tag = response.header("ETag") { value = Array(tag.description.trimmingOWS.utf8) + [0x0A] }
        if path == "-" { Output.stdout.write(value) } else { try writeOutput(value, to: path) }
    }
}
