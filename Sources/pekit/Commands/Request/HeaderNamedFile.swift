import PekitCore
import PekitHTTP

/// The file of `-O -J`: named by the answer's `Content-Disposition` (its `filename=`, read as
/// curl 7.88 reads it, in `--output-dir` when given) and then never replacing a file already
/// there, as curl opens it; else the URL's name, as `-O` alone. Chosen from the final
/// response's head, before its first body byte (`SendOptions.head`) or at its end; written
/// to a temporary file renamed into place when complete.
final class HeaderNamedFile: @unchecked Sendable {
    // Touched from the sending thread's callbacks and then the command's: one after the other.
    let urlPath: String
    let directory: String?
    private(set) var path: String?
    /// The name as `-w %{filename_effective}` says it: the answer's (without `--output-dir`,
    /// as curl 7.88 says it), or the URL's path.
    private(set) var shownName: String?
    private var keepsExisting = false
    private var writer: Files.AtomicWriter?

    init(urlPath: String, directory: String?) { self.urlPath = urlPath; self.directory = directory }

    /// What a Content-Disposition field says of the file's name.
    enum Filename: Equatable {
        /// No `filename=` parameter: the URL's name serves.
        case absent
        /// A `filename=` that names no file (`/`, a path ending in a separator).
        case unusable
        /// The name.
        case name(String)
    }

    /// Chooses the name from `head`, once.
    func choose(_ head: PekitResponse) {
        guard path == nil else { return }
        let field = head.headers.first { PekitHeaders.sameName($0.name, "Content-Disposition") }
        switch field.map({ Self.filename($0.value.bytes) }) ?? .absent {
        case .name(let name):
            path = directory.map { $0.isEmpty ? name : $0 + "/" + name } ?? name
            shownName = name
            keepsExisting = true
        case .unusable:
            // A filename= curl reads as no name (`filename=/`): curl makes no file (exit 23).
            path = ""
        case .absent:
            path = urlPath
            shownName = urlPath
        }
    }

    /// Appends `bytes`, opening the file on the first.
    /// - Throws: `CommandFailure` (exit 23, curl's write error) when the file cannot be made.
    func write(_ bytes: [UInt8]) throws {
        if writer == nil { writer = try open() }
        try writer?.write(bytes)
    }

    /// Completes the file (an empty one when no byte came).
    func commit() throws {
        if writer == nil { writer = try open() }
        if keepsExisting, let path, FilePaths.exists(path) { throw refusal(path) }
        try writer?.commit()
        writer = nil
    }

    /// Removes the file begun, if any: a failed transfer leaves none.
    func abandon() { writer?.abort(); writer = nil }

    private func refusal(_ path: String) -> CommandFailure {
        CommandFailure(message: "pekit request: -J: \(printable(path)) exists and is not replaced (as curl does not replace it)", status: 23)
    }

    private func open() throws -> Files.AtomicWriter {
        let path = path ?? urlPath
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw CommandFailure(message: "pekit request: -O -J: neither the URL nor the answer's Content-Disposition names a file", status: 23)
        }
        if keepsExisting, FilePaths.exists(path) { throw refusal(path) }
        do { return try Files.AtomicWriter(path: path) } catch {
            throw CommandFailure(message: "pekit request: cannot write \(printable(path)): \(error)", status: 23)
        }
    }

    /// The `filename=` of a Content-Disposition field's value as curl 7.88 reads it
    /// (`tool_cb_hdr.c`): the first parameter spelled `filename=` (its case as written; an
    /// encoded `filename*=` is not read); a value in quotes ends at the same quote, one without
    /// at `;`; only what follows its last `/` and then its last `\` (none when nothing does);
    /// cut at CR or LF.
    static func filename(_ value: [UInt8]) -> Filename {
        let word = Array("filename=".utf8)
        var p = 0
        while true {
            while p < value.count, !((0x41...0x5A).contains(value[p]) || (0x61...0x7A).contains(value[p])) { p += 1 }
            guard value.count - p >= word.count else { return .absent }
            if !value[p..<(p + word.count)].elementsEqual(word) {
                while p < value.count, value[p] != 0x3B { p += 1 }
                continue
            }
            p += word.count
            break
        }
        var rest = Array(value[p...])
        var stop: UInt8 = 0x3B
        if let first = rest.first, first == 0x27 || first == 0x22 { stop = first; rest.removeFirst() }
        if let end = rest.firstIndex(of: stop) { rest = Array(rest[..<end]) }
        for separator: UInt8 in [0x2F, 0x5C] {
            if let last = rest.lastIndex(of: separator) {
                rest = Array(rest[(last + 1)...])
                if rest.isEmpty { return .unusable }
            }
        }
        if let cr = rest.firstIndex(of: 0x0D) { rest = Array(rest[..<cr]) }
        if let lf = rest.firstIndex(of: 0x0A) { rest = Array(rest[..<lf]) }
        return .name(String(decoding: rest, as: UTF8.self))
    }
}
