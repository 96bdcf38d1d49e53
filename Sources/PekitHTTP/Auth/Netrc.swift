import PekitCore

/// A `.netrc` file read as the installed curl reads it: Debian 12's curl 7.88.1, whose
/// lib/netrc.c carries the fix for CVE-2024-11053 (curl 8.11.1's `found` bits and `our_login`)
/// and for CVE-2025-0167 (a `default` with no credentials is no match) on 7.88's line reader
/// (lines of up to 4,095 bytes, a longer one skipped whole; `#` where a token would start ends
/// the line; a `macdef` skips lines up to an empty one). curl's own tests 478, 479, 486, 679,
/// 682–685, 1646, 1672, 2005 and 2006 hold it (CurlSuiteTests), and NetrcTests compares it with
/// the installed curl on generated files.
struct Netrc {
    /// What a lookup found.
    enum Lookup: Equatable {
        /// No entry for the host (nor a `default` with credentials).
        case missing
        /// The file's syntax stops the reader (a quoted token without its end): curl's
        /// ".netrc parser error", exit 26.
        case failed
        /// The entry: its login (nil when none was found, or when the caller gave one), its password.
        case found(login: String?, password: String?)
    }

    /// The entry for `host` in `text` (the file's bytes), as curl's `parsenetrc` finds it.
    /// - Parameter login: the user the URL named: only that login's entry answers (curl's
    ///   `specific_login`), and the login itself is not returned.
    static func lookup(_ text: [UInt8], host: String, login specific: String?) -> Lookup {
        enum State { case nothing, hostFound, hostValid, macro }
        enum Keyword { case none, login, password }
        var state = State.nothing, keyword = Keyword.none
        var foundLogin = false, foundPassword = false, ourLogin = false, done = false, matched = false
        var login = specific, password: String?
        let specificLogin = specific != nil
        func same(_ a: [UInt8], _ b: String) -> Bool {
            let b = Array(b.utf8)
            return a.count == b.count && zip(a, b).allSatisfy { ASCII.lower($0) == ASCII.lower($1) }
        }
        for var line in lines(text) where !done {
            if state == .macro {
                if line.first == 0x0A || line.first == 0x0D { state = .nothing } else { continue }
            }
            var i = 0
            while !done {
                while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
                if i >= line.count || line[i] == 0x23 { break }
                var token: [UInt8] = []
                var end = i
                if line[i] != 0x22 {
                    while end < line.count, !isSpace(line[end]) { end += 1 }
                    token = Array(line[i..<end])
                } else {
                    var escape = false, endQuote = false
                    end += 1
                    while end < line.count {
                        var s = line[end]
                        if escape {
                            escape = false
                            switch s { case 0x6E: s = 0x0A; case 0x72: s = 0x0D; case 0x74: s = 0x09; default: break }
                        } else if s == 0x5C {
                            escape = true; end += 1; continue
                        } else if s == 0x22 {
                            end += 1; endQuote = true; break
                        }
                        token.append(s)
                        end += 1
                    }
                    if escape || !endQuote { return .failed }
                }
                let word = String(decoding: token, as: UTF8.self)
                switch state {
                case .nothing:
                    if same(token, "macdef") {
                        state = .macro
                    } else if same(token, "machine") {
                        state = .hostFound; keyword = .none; foundLogin = false; foundPassword = false; ourLogin = false
                        password = nil
                        if !specificLogin { login = nil }
                    } else if same(token, "default") {
                        state = .hostValid; matched = true
                    }
                case .macro:
                    if token.isEmpty { state = .nothing }
                case .hostFound:
                    if same(token, host) { state = .hostValid; matched = true } else { state = .nothing }
                case .hostValid:
                    if keyword == .login {
                        if specificLogin { ourLogin = login == word } else { ourLogin = true; login = word }
                        foundLogin = true; keyword = .none
                    } else if keyword == .password {
                        password = word; foundPassword = true; keyword = .none
                    } else if same(token, "login") {
                        keyword = .login
                    } else if same(token, "password") {
                        keyword = .password
                    } else if same(token, "machine") {
                        state = .hostFound; keyword = .none; foundLogin = false; foundPassword = false
                        password = nil
                        if !specificLogin { login = nil }
                    } else if same(token, "default") {
                        state = .hostValid; matched = true
                        password = nil
                        if !specificLogin { login = nil }
                    }
                    if foundLogin && foundPassword && ourLogin { done = true }
                }
                // Past the token and the byte after it (curl steps over one byte, whatever it is).
                i = end + 1
                // 7.88's reader cut the line at an unquoted token's end: the rest is read on.
                if i > line.count { line = []; break }
            }
        }
        guard matched else { return .missing }
        if password == nil && ourLogin { password = "" } else if login == nil && password == nil { return .missing }
        return .found(login: specificLogin ? nil : login, password: password)
    }

    /// C's isspace in the "C" locale.
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    /// The file's lines as curl 7.88's `Curl_get_line` gives them to a 4,096-byte buffer: each
    /// with its line feed (one added to a last line without one), a line of 4,095 bytes or more
    /// skipped whole.
    static func lines(_ text: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = [], start = 0
        while start < text.count {
            let newline = text[start...].firstIndex(of: 0x0A)
            let end = newline.map { $0 + 1 } ?? text.count
            var line = Array(text[start..<end])
            if newline == nil {
                // At the end of the file: a line feed is added when it fits.
                if line.count + 1 < 4096 { line.append(0x0A); out.append(line) }
            } else if line.count < 4096 {
                out.append(line)
            }
            start = end
        }
        return out
    }
}
