import Foundation
import PekitCore

/// A part of curl's -F/--form, read as curl 7.88's `formparse` (tool_formparse.c) reads it:
/// `name=value`, `name=@file` (a file part, named by the file), `name=<file` (a text part read
/// from the file), then `;type=…` (what follows an unknown `;word` joins the type, as
/// `;charset=utf-8`) and `;filename=…`. A value, a file name and a filename may be in double
/// quotes (`\"` and `\\` inside), which keeps `;` and `,` in them; blanks before a value are
/// skipped. `name=@a,b` is several files in one field: a multipart/mixed part of attachments.
/// - Throws: `UsageError` without `=`; `CommandFailure` with curl's exit 26 for a file that
///   cannot be read (nothing is sent).
func curlFormPart(_ spec: String) throws -> MultipartBody.Part {
    try formPart(spec)
}

/// A part of curl's --form-string: `name=text`, the text as written (tool_getparam.c sends it
/// with no type, no file and no `;` attributes read).
/// - Throws: `UsageError` without `=`.
func curlFormStringPart(_ spec: String) throws -> MultipartBody.Part {
    guard let eq = spec.firstIndex(of: "=") else {
        throw UsageError(command: "request", message: "--form-string takes name=text, not '\(spec)'")
    }
    return MultipartBody.Part(name: String(spec[..<eq]), source: .data(Array(spec[spec.index(after: eq)...].utf8)))
}

private func formPart(_ spec: String) throws -> MultipartBody.Part {
    // A part may have no name (`-F =value`: curl sends it with none; its test 1293).
    guard let eq = spec.firstIndex(of: "=") else {
        throw UsageError(command: "request", message: "-F/--form takes name=value, name=@file or name=<file, not '\(spec)'")
    }
    let name = String(spec[..<eq])
    var reader = CurlFormReader(Array(spec[spec.index(after: eq)...].unicodeScalars))
    if reader.peek == "@" {
        var files: [MultipartBody.Part] = []
        var separator: Unicode.Scalar?
        repeat {
            reader.skip()  // the '@', then each ','
            let piece = reader.part(endingAt: ",")
            separator = piece.separator
            guard piece.data == "-" || FilePaths.exists(piece.data) else {
                // curl's CURLE_READ_ERROR (26; its test 41), before anything is sent.
                throw CommandFailure(message: "pekit request: -F \(name)=@\(piece.data): cannot read the file", status: 26)
            }
            files.append(MultipartBody.Part(name: name, filename: piece.filename ?? fileName(piece.data),
                                            contentType: piece.type ?? MultipartBody.curlGuessedType(ofFile: piece.data), source: .file(piece.data)))
        } while separator == ","
        if files.count == 1 { return files[0] }
        // Several files: a multipart/mixed part whose parts are attachments named by their files.
        var inner = MultipartBody(parts: try files.map { file in
            guard case .file(let path) = file.source, let bytes = path == "-" ? try readAllInput() : Files.read(path) else {
                throw CommandFailure(message: "pekit request: -F \(name)=@…: cannot read the file", status: 26)
            }
            return MultipartBody.Part(name: "", filename: file.filename, contentType: file.contentType, source: .data(bytes))
        })
        inner.disposition = "attachment"
        return MultipartBody.Part(name: name, contentType: "multipart/mixed; boundary=\(inner.boundary)", source: .mixed(inner))
    }
    if reader.peek == "<" {
        reader.skip()
        let piece = reader.part(endingAt: nil)
        guard let bytes = piece.data == "-" ? try readAllInput() : Files.read(piece.data) else {
            throw CommandFailure(message: "pekit request: -F \(name)=<\(piece.data): cannot read the file", status: 26)
        }
        return MultipartBody.Part(name: name, filename: piece.filename, contentType: piece.type ?? piece.filename.map(MultipartBody.curlGuessedType), source: .data(bytes))
    }
    let piece = reader.part(endingAt: nil)
    // A part named as a file gets the type its name suggests, as libcurl's mime.c gives it.
    return MultipartBody.Part(name: name, filename: piece.filename, contentType: piece.type ?? piece.filename.map(MultipartBody.curlGuessedType),
                              source: .data(Array(piece.data.utf8)))
}

/// A path's last component (what curl names a file part by).
private func fileName(_ path: String) -> String { String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "") }

/// The reader of one -F value: curl's get_param_word and get_param_part.
struct CurlFormReader {
    let s: [Unicode.Scalar]
    var i = 0
    init(_ s: [Unicode.Scalar]) { self.s = s }

    var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }
    mutating func skip() { i += 1 }
    static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0B}" || c == "\u{0C}" }

    /// A word up to `;` or `end`: in double quotes (`\"` and `\\` escaped) when it starts with
    /// one and the quote closes; what follows a closing quote up to the separator is passed over.
    /// Returns the word and whether it was quoted.
    mutating func word(endingAt end: Unicode.Scalar?) -> (String, quoted: Bool) {
        let begin = i
        if peek == "\"" {
            var j = i + 1, out = String.UnicodeScalarView()
            while j < s.count {
                if s[j] == "\\", j + 1 < s.count, s[j + 1] == "\\" || s[j + 1] == "\"" { out.append(s[j + 1]); j += 2; continue }
                if s[j] == "\"" {
                    j += 1
                    while j < s.count, s[j] != ";", s[j] != end { j += 1 }
                    i = j
                    return (String(out), true)
                }
                out.append(s[j]); j += 1
            }
            i = begin  // no closing quote: read as it stands
        }
        while i < s.count, s[i] != ";", s[i] != end { i += 1 }
        return (String(String.UnicodeScalarView(s[begin..<i])), false)
    }

    /// The data, then `;type=`, `;filename=` and the rest up to `end` (or the end).
    mutating func part(endingAt end: Unicode.Scalar?) -> (data: String, type: String?, filename: String?, separator: Unicode.Scalar?) {
        while let c = peek, Self.isSpace(c) { skip() }
        var (data, quoted) = word(endingAt: end)
        if !quoted { while let last = data.unicodeScalars.last, Self.isSpace(last) { data.unicodeScalars.removeLast() } }
        var type: String?, filename: String?
        var inType = false
        while peek == ";" {
            skip()
            let afterSemicolon = i
            while let c = peek, Self.isSpace(c) { skip() }
            let rest = String(String.UnicodeScalarView(s[i...])).lowercased()
            if !inType && rest.hasPrefix("type=") {
                i += 5
                while let c = peek, Self.isSpace(c) { skip() }
                let (text, _) = word(endingAt: end)
                type = text.trimmingCharacters(in: .whitespaces)
                inType = true
            } else if rest.hasPrefix("filename=") {
                inType = false
                i += 9
                while let c = peek, Self.isSpace(c) { skip() }
                var (text, quotedName) = word(endingAt: end)
                if !quotedName { while let last = text.unicodeScalars.last, Self.isSpace(last) { text.unicodeScalars.removeLast() } }
                filename = text
            } else if inType {
                // Not a parameter curl knows: part of the type (`;charset=utf-8`).
                // The text as written, the blanks after ';' included (`text/foo; charset=utf-8`).
                let blanks = String(String.UnicodeScalarView(s[afterSemicolon..<i]))
                let (text, _) = word(endingAt: end)
                type = (type ?? "") + ";" + blanks + text.trimmingCharacters(in: .whitespaces)
            } else {
                _ = word(endingAt: end)  // an unknown parameter: skipped, as curl skips it
            }
        }
        // The separator (`,` before another file) is left for the caller to step over.
        return (data, type, filename, peek)
    }
}
