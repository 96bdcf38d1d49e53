import CLua
import CLuaShim
import PekitCore

/// `pekit.regex`: regular expressions as Perl, PCRE, Rust's `regex` and Hurl write them (`\d`,
/// `(?:…)`, `(?<name>…)`, `*?`, classes, anchors), where Lua's patterns are a different
/// language. Swift's own `Regex` engine reads them (the toolchain's, no library to load); a
/// pattern is compiled once per runtime and kept. Text is read as UTF-8 (a byte that is not
/// UTF-8 reads as U+FFFD); positions are byte offsets, 1-based as Lua's.
enum RegexModule: LuaModule {
    static let name = "regex"

    /// The compiled patterns of one runtime, by their text (a script's patterns are few).
    final class State {
        var compiled: [String: Regex<AnyRegexOutput>] = [:]
    }

    static func regex(_ call: LuaCall, _ n: Int32) throws -> Regex<AnyRegexOutput> {
        let pattern = try call.string(n)
        let state = call.runtime.moduleState(State.self, State.init)
        if let known = state.compiled[pattern] { return known }
        let compiled: Regex<AnyRegexOutput>
        do { compiled = try Regex(pattern) } catch {
            throw call.badArgument(n, "\(LuaLiteral.quoted(pattern)) is not a regular expression: \(error)")
        }
        if state.compiled.count > 256 { state.compiled.removeAll() }
        state.compiled[pattern] = compiled
        return compiled
    }

    /// A match's groups as Lua values (a group that took no part: false), or the whole match
    /// when the pattern has none; the count pushed.
    static func pushCaptures(_ match: Regex<AnyRegexOutput>.Match, _ call: LuaCall) -> Int32 {
        let output = match.output
        guard output.count > 1 else {
            call.stack.push(ByteString(String(match.0)))
            return 1
        }
        for i in 1..<output.count {
            if let sub = output[i].substring { call.stack.push(ByteString(String(sub))) } else { call.stack.push(bool: false) }
        }
        return Int32(output.count - 1)
    }

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let setFunction = runtime.setFunction
        installTable(in: runtime, into: pekit) { module in
            setFunction(module, "pekit.regex", "match") { call in
                let re = try regex(call, 1)
                let text = try call.string(2)
                guard let match = try re.firstMatch(in: text) else { call.stack.pushNil(); return 1 }
                return pushCaptures(match, call)
            }
            setFunction(module, "pekit.regex", "find") { call in
                let re = try regex(call, 1)
                let text = try call.string(2)
                guard let match = try re.firstMatch(in: text) else { call.stack.pushNil(); return 1 }
                let start = text.utf8.distance(from: text.startIndex, to: match.range.lowerBound)
                let end = text.utf8.distance(from: text.startIndex, to: match.range.upperBound)
                call.stack.push(integer: Int64(start + 1))
                call.stack.push(integer: Int64(end))
                return 2 + pushCaptures(match, call)
            }
            setFunction(module, "pekit.regex", "test") { call in
                let re = try regex(call, 1)
                call.stack.push(bool: try re.firstMatch(in: try call.string(2)) != nil)
                return 1
            }
            setFunction(module, "pekit.regex", "replace") { call in
                let re = try regex(call, 1)
                let text = try call.string(2)
                let replacement = try call.string(3)
                var out = "", last = text.startIndex, count = 0
                for match in text.matches(of: re) {
                    out += text[last..<match.range.lowerBound]
                    out += expand(replacement, match)
                    last = match.range.upperBound
                    count += 1
                }
                out += text[last...]
                call.stack.push(ByteString(out))
                call.stack.push(integer: Int64(count))
                return 2
            }
        }
    }

    /// A replacement with `$1`, `${1}`, `${name}` and `$$` read as Rust's `regex` and Perl read them.
    static func expand(_ replacement: String, _ match: Regex<AnyRegexOutput>.Match) -> String {
        var out = ""
        var rest = Substring(replacement)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            rest = rest[rest.index(after: dollar)...]
            if rest.first == "$" { out += "$"; rest = rest.dropFirst(); continue }
            var name = ""
            if rest.first == "{", let close = rest.firstIndex(of: "}") {
                name = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            } else {
                name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                rest = rest.dropFirst(name.count)
            }
            if let number = Int(name), number < match.output.count {
                out += match.output[number].substring.map(String.init) ?? ""
            } else if let group = match.output[name] {
                out += group.substring.map(String.init) ?? ""
            } else if name.isEmpty {
                out += "$"
            }
        }
        return out + rest
    }
}
