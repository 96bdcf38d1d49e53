import Foundation
import PekitLua

// The environment variables of a pasted command, in the script `pekit import curl` prints:
// read when the script runs (os.getenv), never their values at import.

/// The token a script's environment variable stands as while the request is built: ASCII
/// letters and underscores, which no encoding changes, so that it is found again in the script.
func environmentToken(_ name: String) -> String { "__PEKIT_ENV_\(name)__" }

/// The script with each variable's token in a string literal (`"…"` or `[[…]]`) made a read of
/// the variable when the script runs, as bash reads it (unset or, with a `:-` default, empty:
/// the default or ""): `"Bearer __PEKIT_ENV_TOKEN__"` is `"Bearer " .. env("TOKEN")`, `env`
/// defined at the top. The script is scanned as Lua reads it (strings, long strings, comments).
/// - Throws: `CommandFailure` when a token is found outside a string (the script would not say
///   what the command says).
func readingEnvironment(_ script: String, _ variables: [String], defaults: [String: String]) throws -> String {
    let tokens = variables.map { (name: $0, token: Array(environmentToken($0).unicodeScalars)) }.filter { script.contains(String(String.UnicodeScalarView($0.token))) }
    guard !tokens.isEmpty else { return script }
    enum State { case code, quoted(Unicode.Scalar), long(Int), comment, longComment(Int) }
    let s = Array(script.unicodeScalars)
    var out = String.UnicodeScalarView(), state = State.code, i = 0
    func starts(_ text: String, at j: Int) -> Bool {
        let t = Array(text.unicodeScalars)
        return j + t.count <= s.count && Array(s[j..<j + t.count]) == t
    }
    /// The level of a long bracket `[==[` at j, or nil.
    func longOpen(at j: Int) -> (level: Int, length: Int)? {
        guard j < s.count, s[j] == "[" else { return nil }
        var k = j + 1, level = 0
        while k < s.count, s[k] == "=" { level += 1; k += 1 }
        return k < s.count && s[k] == "[" ? (level, k - j + 1) : nil
    }
    while i < s.count {
        let c = s[i]
        if let found = tokens.first(where: { i + $0.token.count <= s.count && Array(s[i..<i + $0.token.count]) == $0.token }) {
            let read = "env(\(LuaLiteral.quoted(found.name))\(defaults[found.name].map { ", " + LuaLiteral.quoted($0) } ?? ""))"
            i += found.token.count
            switch state {
            case .quoted(let q):
                out.append(contentsOf: "\(q) .. \(read) .. \(q)".unicodeScalars)
            case .long(let level):
                let eq = String(repeating: "=", count: level)
                // A newline right after an opening bracket is dropped by Lua: one more keeps it.
                let keep = i < s.count && s[i] == "\n" ? "\n" : ""
                out.append(contentsOf: "]\(eq)] .. \(read) .. [\(eq)[\(keep)".unicodeScalars)
            default:
                throw CommandFailure(message: "pekit import: the command's $\(found.name) lands where the script cannot read it from the environment; pekit import curl --send sends it")
            }
            continue
        }
        switch state {
        case .code:
            if starts("--", at: i) {
                if let (level, length) = longOpen(at: i + 2) {
                    state = .longComment(level); out.append(contentsOf: s[i..<i + 2 + length]); i += 2 + length; continue
                }
                state = .comment
            } else if c == "\"" || c == "'" {
                state = .quoted(c)
            } else if let (level, length) = longOpen(at: i) {
                state = .long(level); out.append(contentsOf: s[i..<i + length]); i += length; continue
            }
        case .quoted(let q):
            if c == "\\", i + 1 < s.count { out.append(c); out.append(s[i + 1]); i += 2; continue }
            if c == q { state = .code }
        case .long(let level), .longComment(let level):
            let close = "]" + String(repeating: "=", count: level) + "]"
            if starts(close, at: i) { out.append(contentsOf: close.unicodeScalars); i += close.unicodeScalars.count; state = .code; continue }
        case .comment:
            if c == "\n" { state = .code }
        }
        out.append(c)
        i += 1
    }
    // `"" .. x .. ""` is x, and `[[]] .. ` and ` .. [[]]` are nothing.
    var result = String(out)
    for empty in ["\"\" .. ", "[[]] .. "] { result = result.replacingOccurrences(of: empty, with: "") }
    for empty in [" .. \"\"", " .. [[]]"] { result = result.replacingOccurrences(of: empty, with: "") }
    let helper = [
        "-- The command's environment variables, read when the script runs, as the shell reads them.",
        "local function env(name, default)",
        "  local value = os.getenv(name)",
        "  if value == nil or (default and value == \"\") then return default or \"\" end",
        "  return value",
        "end",
    ]
    // After the comment lines that say where the script came from.
    var lines = result.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let at = lines.firstIndex { !$0.hasPrefix("--") } ?? lines.count
    lines.insert(contentsOf: helper, at: at)
    return lines.joined(separator: "\n")
}
