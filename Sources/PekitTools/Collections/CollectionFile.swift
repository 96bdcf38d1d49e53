import PekitCore

/// A file of requests another tool keeps (a `.http` file, a `.hurl` file, a Postman collection's
/// `.json`) as the Lua test file
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

    /// Whether pekit translates a file of this name (`.http`, `.rest`, `.hurl`, `.json`: a Postman
    /// collection).
    public static func handles(_ path: String) -> Bool { format(of: path) != nil }

    static func format(of path: String) -> String? {
        for ext in ["http", "rest", "hurl"] where path.hasSuffix("." + ext) { return ext == "rest" ? "http" : ext }
        return path.hasSuffix(".json") ? "postman" : nil
    }

    /// The formats `translate` takes by name (`pekit import FORMAT`).
    public static let formats = ["http", "hurl", "postman"]

    /// Translates the file at `path` (its bytes given) as `format` (one of `formats`), or by its
    /// name: `.hurl` as Hurl, `.json` as a Postman collection, anything else as `.http`.
    /// - Throws: `ParseError` naming the file, line and column.
    public static func translate(_ bytes: [UInt8], path: String, format given: String? = nil, layout: HTTPFile.Layout) throws -> Translation {
        let text = String(decoding: bytes, as: UTF8.self)
        let directory = FilePaths.directory(of: path)
        let format = given ?? format(of: path)
        if format == "hurl" {
            let file = try HurlFile.parse(text, path: path)
            return Translation(lua: file.lua(path: path, directory: directory, layout: layout), notes: [])
        }
        if format == "postman" {
            let collection = try PostmanCollection.parse(bytes, path: path)
            let shortName = path.split(separator: "/").last.map(String.init) ?? path
            return Translation(lua: collection.lua(path: path, directory: directory), notes: collection.notes(path: shortName))
        }
        let file = try HTTPFile.parse(text, path: path)
        return Translation(lua: file.lua(path: path, directory: directory, layout: layout), notes: file.notes(path: path))
    }
}
