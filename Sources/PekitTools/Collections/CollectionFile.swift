import PekitCore

/// A file of requests another tool keeps (a `.http` file, a `.hurl` file) as the Lua test file
/// pekit runs for it: one seam that `pekit test FILE` and `pekit import FORMAT FILE` share, the
/// format told by the file's extension.
public enum CollectionFile {
    /// The Lua, and what the translation did not carry over (each with its file and line).
    public struct Translation: Sendable {
        public var lua: String
        public var notes: [String]
    }

    /// A file that does not read as its format: the file, line and column (1-based), and what
    /// was expected there.
    public struct ParseError: Error, CustomStringConvertible, Equatable, Sendable {
        public let path: String
        public let line: Int
        public let column: Int
        public let message: String
        public var description: String { "\(path):\(line):\(column): \(message)" }
    }

    /// Whether pekit translates a file of this name (`.http`, `.rest`, `.hurl`).
    public static func handles(_ path: String) -> Bool { format(of: path) != nil }

    static func format(of path: String) -> String? {
        for ext in ["http", "rest", "hurl"] where path.hasSuffix("." + ext) { return ext == "rest" ? "http" : ext }
        return nil
    }

    /// Translates the file at `path` (its bytes given), `.hurl` as Hurl, anything else as `.http`.
    /// - Throws: `ParseError` naming the file, line and column.
    public static func translate(_ bytes: [UInt8], path: String, layout: HTTPFile.Layout) throws -> Translation {
        let text = String(decoding: bytes, as: UTF8.self)
        let directory = FilePaths.directory(of: path)
        if format(of: path) == "hurl" {
            let file = try HurlFile.parse(text, path: path)
            return Translation(lua: file.lua(path: path, directory: directory, layout: layout), notes: [])
        }
        let file = try HTTPFile.parse(text, path: path)
        return Translation(lua: file.lua(path: path, directory: directory, layout: layout), notes: file.notes(path: path))
    }
}
