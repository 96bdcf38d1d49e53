import PekitLua

/// A collection's test scripts are JavaScript: pekit never runs them. A script made only of the
/// common checks below (each inside `pm.test("…", function () { … });` or alone) is translated
/// into pekit expectations, each exactly what the check asks; any other script is listed as not
/// run, whole (a script is never translated in part: its other lines might decide what the
/// checks mean).
///
/// | Postman (pm.* API)                                   | pekit                          |
/// |------------------------------------------------------|--------------------------------|
/// | `pm.response.to.have.status(200)`                    | `expect(r):status(200)`        |
/// | `pm.expect(pm.response.code).to.eql(200)` (`.equal`) | `expect(r):status(200)`        |
/// | `pm.response.to.have.header("X")`                    | `expect(r):header("X")`        |
/// | `pm.expect(pm.response.json().a[0].b).to.eql(v)`     | `expect(r):json("$.a[0].b", v)` (v a string, number, true, false or null) |
/// | `pm.expect(pm.response.text()).to.include("s")`      | `expect(r):body("s")`          |
/// | `pm.expect(pm.response.responseTime).to.be.below(n)` | `expect(r):time_under(n / 1000)` |
enum PostmanScripts {
    /// The Lua statements of a test script, or nil when it is not made only of checks pekit
    /// translates exactly.
    static func translate(_ lines: [String]) -> [String]? {
        var out: [String] = []
        for raw in lines {
            let line = String(raw.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
            if line.isEmpty || line.hasPrefix("//") || line == "});" || line == "})" { continue }
            if let name = testOpening(line) { out.append("-- pm.test(\(LuaLiteral.quoted(name)))"); continue }
            guard let check = check(line.hasSuffix(";") ? String(line.dropLast()) : line) else { return nil }
            out.append(check)
        }
        return out.contains { !$0.hasPrefix("--") } ? out : nil
    }

    /// `pm.test("name", function () {` or `pm.test('name', () => {`: the name.
    static func testOpening(_ line: String) -> String? {
        guard line.hasPrefix("pm.test("), line.hasSuffix("{") else { return nil }
        var rest = Substring(line.dropFirst(8))
        guard let name = jsString(&rest) else { return nil }
        let tail = rest.filter { !$0.isWhitespace }
        return tail == ",function(){" || tail == ",()=>{" ? name : nil
    }

    static func check(_ line: String) -> String? {
        if let n = call(line, "pm.response.to.have.status(").flatMap(Int.init) { return "expect(r):status(\(n))" }
        if let arg = call(line, "pm.response.to.have.header(") {
            var rest = Substring(arg)
            guard let name = jsString(&rest), rest.isEmpty else { return nil }
            return "expect(r):header(\(LuaLiteral.quoted(name)))"
        }
        guard line.hasPrefix("pm.expect(") else { return nil }
        for (subject, rest) in [("pm.response.code)", "status"), ("pm.response.json()", "json"), ("pm.response.text())", "text"),
                                ("pm.response.responseTime)", "time")] where line.dropFirst(10).hasPrefix(subject) {
            var tail = Substring(line.dropFirst(10 + subject.count))
            switch rest {
            case "status":
                for verb in [".to.eql(", ".to.equal("] where tail.hasPrefix(verb) {
                    if let n = Int(tail.dropFirst(verb.count).dropLast()), tail.hasSuffix(")") { return "expect(r):status(\(n))" }
                }
            case "json":
                guard let close = tail.firstIndex(of: ")") else { return nil }
                guard let path = jsonPath(tail[..<close]) else { return nil }
                tail = tail[tail.index(after: close)...]
                for verb in [".to.eql(", ".to.equal("] where tail.hasPrefix(verb) && tail.hasSuffix(")") {
                    guard let value = literal(tail.dropFirst(verb.count).dropLast()) else { return nil }
                    return "expect(r):json(\(LuaLiteral.quoted(path)), \(value))"
                }
            case "text":
                for verb in [".to.include(", ".to.contain("] where tail.hasPrefix(verb) && tail.hasSuffix(")") {
                    var arg = tail.dropFirst(verb.count).dropLast()
                    if let text = jsString(&arg), arg.isEmpty { return "expect(r):body(\(LuaLiteral.quoted(text)))" }
                }
            default:
                for verb in [".to.be.below(", ".to.be.lessThan("] where tail.hasPrefix(verb) && tail.hasSuffix(")") {
                    if let n = Int(tail.dropFirst(verb.count).dropLast()) { return "expect(r):time_under(\(n) / 1000)" }
                }
            }
            return nil
        }
        return nil
    }

    /// The argument of `prefix…)` when the line is that call alone.
    static func call(_ line: String, _ prefix: String) -> String? {
        guard line.hasPrefix(prefix), line.hasSuffix(")") else { return nil }
        return String(line.dropFirst(prefix.count).dropLast())
    }

    /// `.a[0].b` or `['a']` after `pm.response.json()` as a JSONPath (`$.a[0].b`), names being
    /// JavaScript identifiers or quoted strings; nil for anything else.
    static func jsonPath(_ accessors: Substring) -> String? {
        var rest = accessors, path = "$"
        while let c = rest.first {
            if c == "." {
                rest = rest.dropFirst()
                let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
                guard let first = name.first, !first.isNumber else { return nil }
                path += "." + name
                rest = rest.dropFirst(name.count)
            } else if c == "[" {
                rest = rest.dropFirst()
                if let index = Int(rest.prefix { $0.isNumber }), rest.prefix(while: { $0.isNumber }).count > 0 {
                    rest = rest.dropFirst(String(index).count)
                    path += "[\(index)]"
                } else if let name = jsString(&rest) {
                    path += "['" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "']"
                } else { return nil }
                guard rest.first == "]" else { return nil }
                rest = rest.dropFirst()
            } else { return nil }
        }
        return path
    }

    /// A JavaScript literal as Lua: a string, an integer or decimal, true, false, null.
    static func literal(_ text: Substring) -> String? {
        var rest = text
        if let s = jsString(&rest), rest.isEmpty { return LuaLiteral.quoted(s) }
        switch text {
        case "true", "false": return String(text)
        case "null": return "pekit.null"
        default:
            let number = text.first == "-" ? text.dropFirst() : text
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), number.filter({ $0 == "." }).count <= 1,
                  number.first != ".", number.last != "." else { return nil }
            return String(text)
        }
    }

    /// A JavaScript string literal ("…" or '…', with the simple escapes) at the start of `text`,
    /// which is left after it; nil when there is none.
    static func jsString(_ text: inout Substring) -> String? {
        guard let quote = text.first, quote == "\"" || quote == "'" else { return nil }
        var out = "", i = text.index(after: text.startIndex)
        while i < text.endIndex {
            let c = text[i]
            if c == quote { text = text[text.index(after: i)...]; return out }
            if c == "\\" {
                i = text.index(after: i)
                guard i < text.endIndex else { return nil }
                switch text[i] {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "\\", "\"", "'", "/": out.append(text[i])
                default: return nil
                }
            } else { out.append(c) }
            i = text.index(after: i)
        }
        return nil
    }
}
