/// The rules behind a server's reading of one request, the ones its input calls on: why two
/// servers' readings differ, each rule with the code it comes from. What `pekit serve` lists
/// under its table of readings. Each rule is one the server model follows (and so the real
/// server, which the models are held to).
public enum ReadingRules {
    /// The rules of `model` (a `QueryServer.models` name) that `query` (a query, or an
    /// urlencoded body: `name=value` pairs) calls on.
    /// - Parameters:
    ///   - query: the query or urlencoded body, as sent.
    ///   - model: the server model's name.
    /// - Complexity: O(n²) in the number of pairs (names compared), O(n) in the length otherwise.
    public static func query(_ query: [UInt8], model: String) -> [String] {
        let separators: [UInt8] = model == "rack" ? [0x26, 0x3B] : [0x26]
        let pairs = query.split(whereSeparator: { separators.contains($0) }).filter { !$0.isEmpty }
        let names = pairs.map { pair in Array(pair.prefix { $0 != 0x3D }) }
        let decodedNames = names.map { QueryServer.Model.formDecoded($0[...]) }
        let nested = ["qs", "php", "rack"].contains(model)
        var rules: [String] = []
        // A name given twice (not a list's `a[]`).
        let once = decodedNames.filter { !($0.count >= 2 && $0.suffix(2).elementsEqual([0x5B, 0x5D])) }
        if Set(once).count < once.count {
            switch model {
            case "qs": rules.append("a name given twice is a list of its values (qs, lib/utils.js combine)")
            case "php": rules.append("a name given twice keeps its last value (main/php_variables.c, php_register_variable_ex)")
            case "rack": rules.append("a name given twice keeps its last value (Rack::QueryParser#normalize_params)")
            default: rules.append("every value of a name is kept, in a list")
            }
        }
        if decodedNames.contains(where: { $0.contains(0x5B) }) {
            rules.append(nested ? "brackets in a name nest: a[b] is a map, a[] a list (\(model == "qs" ? "qs, lib/parse.js parseKeys" : model == "php" ? "php_register_variable_ex" : "Rack normalize_params"))"
                                : "brackets are part of the name: the parser is flat")
        }
        if model == "php", decodedNames.contains(where: { $0.prefix { $0 != 0x5B }.contains { $0 == 0x2E || $0 == 0x20 } }) {
            rules.append("'.' and ' ' in a name become '_' (php_register_variable_ex)")
        }
        if query.contains(0x3B) {
            switch model {
            case "go": rules.append("a pair with ';' is dropped and an error returned (net/url, Go 1.17 on)")
            case "rack": rules.append("';' separates pairs as '&' does (Rack 2.2's default separators)")
            default: rules.append("';' is part of a name or value")
            }
        }
        if hasBadEscape(query) {
            switch model {
            case "qs": rules.append("where decodeURIComponent throws (a '%' that starts no escape), the name or value stays undecoded (qs, lib/utils.js decode)")
            case "go": rules.append("a pair with a '%' that starts no escape is dropped and an error returned (net/url unescape)")
            case "rack": rules.append("a '%' that starts no escape raises for the whole query (URI.decode_www_form_component)")
            default: rules.append("a '%' that starts no escape stays as it is")
            }
        }
        if !hasBadEscape(query), !UTF8Validation.isValid(QueryServer.Model.formDecoded(query[...])) {
            switch model {
            case "python", "whatwg", "node-querystring": rules.append("escapes of bytes that are not UTF-8 become U+FFFD")
            case "qs": rules.append("escapes of bytes that are not UTF-8 leave the value undecoded (decodeURIComponent throws)")
            default: rules.append("escapes of bytes that are not UTF-8 give those bytes")
            }
        }
        if pairs.contains(where: { pair in !pair.contains(0x3D) || pair.last == 0x3D }) {
            switch model {
            case "python": rules.append("a blank value is dropped (parse_qs, keep_blank_values=False)")
            case "rack": rules.append("a name without '=' is nil (null); one with '=' and no value an empty string")
            default: rules.append("a blank value is an empty string")
            }
        }
        return rules
    }

    /// How `model`'s server reads a multipart/form-data body (`MultipartServer`), in short.
    /// - Parameter model: the server model's name.
    public static func multipart(model: String) -> [String] {
        switch model {
        case "php": return ["a multipart body fills $_POST with its values and $_FILES with its files, a file's names transposed ($_FILES['f']['name']['x'] for f[x]) and its filename cut to its base name (main/rfc1867.c)"]
        case "rack": return ["a multipart part is a parameter of its name, nested as in a query; a file a hash of filename, type, name, head and tempfile (Rack::Multipart::Parser)"]
        case "python": return ["cgi.FieldStorage keeps every part in order, a name twice too; a value decoded as UTF-8, a file as bytes"]
        case "go": return ["ParseMultipartForm gives the values and the files by name, each a list; a filename cut to its base name (mime/multipart)"]
        case "qs": return ["Express reads no multipart body without a middleware (multer, busboy)"]
        default: return ["no multipart parser of its own"]
        }
    }

    /// The rules of `model`'s cookie parser (`QueryServer.Model.cookieServer`) that `header`
    /// calls on; none for a model without one.
    /// - Parameters:
    ///   - header: the Cookie field's value (several joined by "; ").
    ///   - model: the server model's name.
    public static func cookies(_ header: [UInt8], model: String) -> [String] {
        guard let server = QueryServer.models.first(where: { $0.name == model })?.cookieServer else { return [] }
        let pieces = header.split(separator: 0x3B).map { piece in piece.drop { $0 == 0x20 || $0 == 0x09 } }.filter { !$0.isEmpty }
        let names = pieces.map { Array($0.prefix { $0 != 0x3D }) }
        var rules: [String] = []
        if Set(names).count < names.count {
            switch server {
            case .php, .rack, .express: rules.append("the first cookie of a name wins")
            case .python: rules.append("the last cookie of a name wins (SimpleCookie is a dict)")
            case .go: rules.append("every cookie is kept, a name twice too (Request.Cookies is a list)")
            }
        }
        if pieces.contains(where: { piece in piece.drop { $0 != 0x3D }.dropFirst().first == 0x22 }) {
            rules.append(server == .php || server == .rack ? "double quotes around a value are kept" : "double quotes around a value are taken off")
        }
        if header.contains(0x25) || header.contains(0x2B) {
            switch server {
            case .php: rules.append("values are %XX-decoded and a '+' kept (php_raw_url_decode)")
            case .rack: rules.append("values are %XX-decoded and a '+' is a space (URI.decode_www_form_component)")
            case .express: rules.append("a value with a '%' is decodeURIComponent-ed (cookie 0.5, tryDecode)")
            case .python, .go: rules.append("values are not decoded")
            }
        }
        if pieces.contains(where: { !$0.contains(0x3D) }) {
            switch server {
            case .php: rules.append("a piece without '=' is a cookie with an empty value")
            case .rack: rules.append("a piece without '=' is a cookie whose value is nil (null)")
            case .python: rules.append("a piece without '=' makes the whole header invalid: no cookie is read")
            case .go: rules.append("a piece without '=' is a cookie with an empty value")
            case .express: rules.append("a piece without '=' is skipped")
            }
        }
        // Inside a name or value (the spaces around a ';' aside).
        let inside = pieces.map { piece -> ArraySlice<UInt8> in var p = piece; while p.last == 0x20 || p.last == 0x09 { p = p.dropLast() }; return p }
        if inside.contains(where: { $0.contains { $0 == 0x20 || $0 == 0x2C || $0 == 0x5C || $0 >= 0x7F || $0 < 0x20 } }) {
            switch server {
            case .python: rules.append("a character outside SimpleCookie's legal ones ends the reading, or drops the whole header")
            case .go: rules.append("a pair whose name is no token (a space, a comma…), or whose value has a '\"', '\\\\', a control byte or a byte past ASCII, is dropped (net/http readCookies)")
            default: break
            }
        }
        return rules
    }

    static func hasBadEscape(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while let percent = bytes[i...].firstIndex(of: 0x25) {
            guard percent + 2 < bytes.count, hexValue(bytes[percent + 1]) != nil, hexValue(bytes[percent + 2]) != nil else { return true }
            i = percent + 3
        }
        return false
    }
}
