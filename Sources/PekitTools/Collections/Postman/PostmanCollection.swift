import PekitCore

/// A Postman collection (format v2.0.0 or v2.1.0, schema.getpostman.com/json/collection): its
/// requests in the order the app lists them (folders depth first), each with what it inherits
/// (the folder's and the collection's auth and variables), as Postman's SDK
/// (postman-collection) reads the file. Scripts are JavaScript: kept as text, never run.
public struct PostmanCollection: Sendable {
    /// A `{key, value}` entry of a list (headers, query, url-encoded fields, variables), with
    /// whether it is disabled (`disabled: true`; `enabled: false` in an environment).
    public struct Entry: Sendable, Equatable {
        public var key: String
        /// nil when the entry has no value (a query parameter written `?flag`).
        public var value: String?
        public var disabled: Bool
        /// A form field's content type (`contentType`), or nil.
        public var contentType: String? = nil
    }

    /// A request's URL as the SDK keeps it: the pieces, variables not yet replaced.
    public struct URL: Sendable, Equatable {
        public var `protocol`: String?
        public var user: String?
        public var password: String?
        public var host: String?
        public var port: String?
        /// The path's segments (nil: no path; `[""]`: "/").
        public var path: [String]?
        public var query: [Entry] = []
        /// Path variables: `:name` segments' values.
        public var variables: [Entry] = []
        public var hash: String?
    }

    /// A multipart field: text, or a file by its path (`src`).
    public struct FormPart: Sendable, Equatable {
        public var key: String
        public var value: String?
        /// The files of a file field (the SDK takes one path or a list); empty for a text field.
        public var files: [String]
        public var isFile: Bool
        public var disabled: Bool
        public var contentType: String?
    }

    public enum Body: Sendable, Equatable {
        case raw(String, language: String?)
        case urlencoded([Entry])
        case formdata([FormPart])
        /// A binary body: the file's path, or nil when the collection names none.
        case file(String?)
        case graphql(query: String, variables: String?)
    }

    /// An auth block: its type (`basic`, `bearer`, `apikey`, `awsv4`, `oauth1`, `digest`, …) and
    /// its parameters by name (v2.1 writes them as `{key, value}` lists, v2.0 as an object).
    public struct Auth: Sendable, Equatable {
        public var type: String
        public var parameters: [String: String]
        /// Where it was written (`$.item[0].request.auth`), for messages.
        public var place: String
    }

    /// A script (`prerequest` or `test`), its lines as written.
    public struct Script: Sendable, Equatable {
        public var listen: String
        public var lines: [String]
        /// The item or folder it belongs to, by name (for messages).
        public var owner: String
    }

    public struct Request: Sendable {
        /// The folders' names, outermost first, then the request's.
        public var names: [String]
        /// Its place in the file (`$.item[1].item[0]`), for messages.
        public var place: String
        public var description: String?
        public var method: String
        public var url: URL
        public var headers: [Entry]
        public var body: Body?
        /// The auth that applies (its own, else its folders', else the collection's); nil for none.
        public var auth: Auth?
        /// The variables of its folders and its own (`variable`), outermost first.
        public var variables: [Entry]
        /// Its own scripts and its folders' and the collection's, outermost first (Postman runs
        /// all of them for the request).
        public var scripts: [Script]
        /// `protocolProfileBehavior.disableBodyPruning == false`: a GET's body is dropped.
        public var prunesBody: Bool
    }

    public var name: String
    /// `info.schema`'s version: "2.0.0" or "2.1.0".
    public var version: String
    public var variables: [Entry]
    public var requests: [Request]

    /// A file that is not a collection this reader takes: where (the JSON path of the value,
    /// and its line and column in the file) and why.
    public typealias ParseError = CollectionFile.ParseError
}

extension PostmanCollection {
    /// Reads a collection.
    /// - Parameters:
    ///   - bytes: the file's bytes (JSON).
    ///   - path: the file's name, for errors.
    /// - Throws: `ParseError` naming the line and column of the JSON that does not parse, or of
    ///   the value that is not what a collection holds there (and its JSON path).
    public static func parse(_ bytes: [UInt8], path: String) throws -> PostmanCollection {
        let root: PekitValue
        do { root = try JSONText.parse(bytes) } catch let error as JSONText.ParseError {
            let (line, column) = JSONPlaces.lineAndColumn(of: error.position - 1, in: bytes)
            throw ParseError(path: path, line: line, column: column, message: "not JSON: \(error.reason)")
        }
        var reader = PostmanReader(bytes: bytes, path: path)
        return try reader.collection(root)
    }
}
