import Foundation
import PekitCore

/// curl 8's variables (`--variable`, `--expand-OPTION`; curl 8.3, with 8.12's byte ranges and
/// 8.13's `64dec`), as curl's src/var.c has them at the curl commit the suite's fixtures name
/// (curl 7.88 here has none: its docs/cmdline-opts/variable.md and tests 428, 429, 448 and 458
/// are the reference). `--variable name=text`, `name@file` (`@-`: standard input),
/// `%ENV` (an error when not set), `%ENV=default`, `%ENV@file`, and `name[N-M]…` for bytes N to
/// M; `{{name}}` in the argument of an option written `--expand-OPTION`, with functions after
/// a colon run left to right (`{{name:trim,url}}` is written `{{name:trim:url}}`).
struct CurlVariables {
    /// The command its messages name (`import`, `request`).
    let command: String
    private var values: [String: [UInt8]] = [:]
    /// What curl says without failing (a name skipped, a `}}` missing), for standard error.
    private(set) var warnings: [String] = []

    /// The environment variables `%NAME` read, and the defaults given them (`%NAME=TEXT`): a
    /// script `pekit import curl` prints reads them when it runs.
    private(set) var environmentNames: [String] = []
    private(set) var environmentDefaults: [String: String] = [:]

    /// No variables yet, for `command`'s messages.
    init(command: String) { self.command = command }

    /// The longest name, as curl's `MAX_VAR_LEN` (128, with its NUL).
    static let maxName = 127

    private static func isNameByte(_ b: UInt8) -> Bool { isDigit(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x5F }
    private static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }

    /// `--variable`'s argument.
    /// - Throws: `CommandFailure` (exit 2, as curl) for `%NAME` not set, an unreadable file,
    ///   or a bad byte range.
    mutating func set(_ argument: [UInt8], environment: (String) -> String?, readInput: () throws -> [UInt8]) throws {
        var i = 0
        let imports = argument.first == 0x25
        if imports { i = 1 }
        let start = i
        while i < argument.count, Self.isNameByte(argument[i]) { i += 1 }
        let name = String(decoding: argument[start..<i], as: UTF8.self)
        guard !name.isEmpty, name.utf8.count <= Self.maxName else {
            warnings.append("Bad variable name length (\(i - start)), skipping")
            return
        }
        var content: [UInt8]?
        if imports {
            let value = environment(name)
            if i == argument.count && value == nil {
                throw CommandFailure(message: "pekit \(command): --variable %\(name): the environment variable \(name) is not set (give a default: %\(name)=TEXT)", status: 2)
            }
            content = value.map { Array($0.utf8) }
            if !environmentNames.contains(name) { environmentNames.append(name) }
            if i < argument.count, argument[i] == 0x3D { environmentDefaults[name] = String(decoding: argument[(i + 1)...], as: UTF8.self) }
        }
        // A byte range: [N-M] or [N-].
        var range: (Int, Int?)?
        if i + 1 < argument.count, argument[i] == 0x5B, Self.isDigit(argument[i + 1]) {
            var j = i + 1
            func number() -> Int? {
                let from = j
                while j < argument.count, Self.isDigit(argument[j]) { j += 1 }
                return Int(String(decoding: argument[from..<j], as: UTF8.self))
            }
            guard let first = number(), j < argument.count, argument[j] == 0x2D else { throw syntax(argument) }
            j += 1
            var last: Int?
            if j < argument.count, argument[j] != 0x5D { last = number() }
            guard j < argument.count, argument[j] == 0x5D else { throw syntax(argument) }
            if let last, first > last { throw syntax(argument) }
            range = (first, last)
            i = j + 1
        }
        if content == nil {
            if i < argument.count, argument[i] == 0x40 {
                let path = String(decoding: argument[(i + 1)...], as: UTF8.self)
                if path == "-" { content = try readInput() } else {
                    guard let bytes = Files.read(path) else {
                        throw CommandFailure(message: "pekit \(command): --variable \(name)@\(path): cannot read the file", status: 26)
                    }
                    content = bytes
                }
            } else if i < argument.count, argument[i] == 0x3D {
                content = Array(argument[(i + 1)...])
            } else {
                warnings.append("Bad --variable syntax, skipping: \(String(decoding: argument, as: UTF8.self))")
                return
            }
        }
        var bytes = content ?? []
        if let (first, last) = range {
            bytes = first >= bytes.count ? [] : Array(bytes[first...min(last ?? Int.max, bytes.count - 1)])
        }
        values[name] = bytes
    }

    private func syntax(_ argument: [UInt8]) -> CommandFailure {
        CommandFailure(message: "pekit \(command): --variable \(String(decoding: argument, as: UTF8.self)): a byte range is [START-END] or [START-]", status: 2)
    }

    /// `text` with each `{{name}}` replaced (curl's `varexpand`): `\{{` is `{{` as written; a name
    /// that is empty, too long or not of letters, digits and `_` stays as written; an unset one
    /// is empty; a `{{` without `}}` ends the expansion there. Nothing expanded: `text` itself.
    /// - Throws: `CommandFailure` (exit 2) for an unknown function or a NUL byte expanded unencoded.
    mutating func expand(_ text: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var line = 0
        var added = false
        func find(_ a: UInt8, _ b: UInt8, from: Int) -> Int? {
            var k = from
            while k + 1 < text.count { if text[k] == a && text[k + 1] == b { return k }; k += 1 }
            return nil
        }
        while let open = find(0x7B, 0x7B, from: line) {
            if open > line, text[open - 1] == 0x5C {
                out += text[line..<(open - 1)] + [0x7B, 0x7B]
                line = open + 2
                continue
            }
            guard let close = find(0x7D, 0x7D, from: open) else {
                warnings.append("missing close '}}' in '\(String(decoding: text, as: UTF8.self))'")
                break
            }
            let inner = text[(open + 2)..<close]
            let colon = inner.firstIndex(of: 0x3A)
            let name = text[(open + 2)..<(colon ?? close)]
            if name.isEmpty || name.count > Self.maxName {
                warnings.append("bad variable name length '\(String(decoding: text, as: UTF8.self))'")
                out += text[line..<(close + 2)]
            } else if !name.allSatisfy(Self.isNameByte) {
                warnings.append("bad variable name: \(String(decoding: name, as: UTF8.self))")
                out += text[line..<(close + 2)]
            } else {
                out += text[line..<open]
                var value = values[String(decoding: name, as: UTF8.self)] ?? []
                if let colon { value = try apply(functions: text[(colon + 1)..<close], to: value, whole: text) }
                if value.contains(0) {
                    throw CommandFailure(message: "pekit \(command): variable contains null byte", status: 2)
                }
                out += value
                added = true
            }
            line = close + 2
        }
        guard added else { return text }
        return out + text[line...]
    }

    /// The functions after a name's colon, left to right: trim, json, url, b64, 64dec.
    private func apply(functions: ArraySlice<UInt8>, to value: [UInt8], whole: [UInt8]) throws -> [UInt8] {
        var value = value
        for function in functions.split(separator: 0x3A, omittingEmptySubsequences: false) {
            switch String(decoding: function, as: UTF8.self) {
            case "trim":
                let isSpace = { (b: UInt8) in b == 0x20 || (0x09...0x0D).contains(b) }
                value = Array(value.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
            case "json":
                var out: [UInt8] = []
                for b in value {
                    switch b {
                    case 0x5C: out += Array("\\\\".utf8)
                    case 0x22: out += Array("\\\"".utf8)
                    case 0x08: out += Array("\\b".utf8)
                    case 0x0C: out += Array("\\f".utf8)
                    case 0x0A: out += Array("\\n".utf8)
                    case 0x0D: out += Array("\\r".utf8)
                    case 0x09: out += Array("\\t".utf8)
                    case ..<0x20: out += Array(String(format: "\\u%04x", b).utf8)
                    default: out.append(b)
                    }
                }
                value = out
            case "url":
                // curl_easy_escape: all but ALPHA, DIGIT and -._~, in upper-case hex.
                value = PercentEncoder.rfc3986.encode(bytes: value)
            case "b64":
                value = Base64.encode(value, alphabet: .standard)
            case "64dec":
                value = value.isEmpty ? [] : ((try? Base64.decode(value, alphabet: .standard)) ?? Array("[64dec-fail]".utf8))
            default:
                throw CommandFailure(message: "pekit \(command): unknown variable function in '\(String(decoding: whole, as: UTF8.self))'", status: 2)
            }
        }
        return value
    }
}

extension CurlVariables {
    /// `pekit request`'s arguments with curl 8's `--variable` taken out and each
    /// `--expand-OPTION VALUE` made `--OPTION EXPANDED` (the same as `pekit import curl` does);
    /// the arguments themselves when they have neither.
    static func applied(to args: [[UInt8]], options: [Option]) throws -> [[UInt8]] {
        let marks = ["--variable", "--expand-"].map { Array($0.utf8) }
        guard args.contains(where: { word in marks.contains { word.starts(with: $0) } }) else { return args }
        var variables = CurlVariables(command: "request")
        defer { for warning in variables.warnings { Output.stderr.line("pekit request: warning: \(printable(warning))") } }
        var out: [[UInt8]] = []
        var i = 0
        func takesValue(_ word: String) -> Bool {
            if word.hasPrefix("--") { return !word.contains("=") && options.first { "--" + $0.name == word }?.takesValue == true }
            // A bundle (-sSd): its first flag that takes a value takes the rest, or the next word.
            let letters = Array(word.dropFirst())
            guard let at = letters.firstIndex(where: { letter in options.contains { $0.short == letter && $0.takesValue } }) else { return false }
            return at == letters.count - 1
        }
        while i < args.count {
            let word = String(decoding: args[i], as: UTF8.self)
            i += 1
            if word == "--" { out += args[(i - 1)...]; break }
            if word == "--variable" || word.hasPrefix("--variable=") {
                let value = word.hasPrefix("--variable=") ? Array(args[i - 1].dropFirst(11)) : (i < args.count ? args[i] : nil)
                guard let value else { throw UsageError(command: "request", message: "option '--variable' needs a value") }
                if !word.hasPrefix("--variable=") { i += 1 }
                try variables.set(value, environment: { ProcessInfo.processInfo.environment[$0] }, readInput: readAllInput)
                continue
            }
            if word.hasPrefix("--expand-") {
                let rest = word.dropFirst("--expand-".count)
                let name = String(rest.prefix { $0 != "=" })
                guard let option = options.first(where: { $0.name == name }), option.takesValue else {
                    throw UsageError(command: "request", message: "\(word.prefix { $0 != "=" }): --\(name) is no option of pekit request's that takes a value")
                }
                let attached = rest.contains("=")
                let value = attached ? Array(args[i - 1].drop { $0 != 0x3D }.dropFirst()) : (i < args.count ? args[i] : nil)
                guard let value else { throw UsageError(command: "request", message: "option '\(word)' needs a value") }
                if !attached { i += 1 }
                out += [Array("--\(name)".utf8), try variables.expand(value)]
                continue
            }
            out.append(args[i - 1])
            if word.hasPrefix("-") && word != "-" && takesValue(word), i < args.count {
                out.append(args[i])
                i += 1
            }
        }
        return out
    }
}
