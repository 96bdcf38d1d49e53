#if canImport(Glibc)
import Glibc
#endif
import PekitCore

/// curl's HSTS cache file (`--hsts FILE`), read, kept and written as libcurl 7.88 does (lib/hsts.c):
/// a line per host, `host "YYYYMMDD HH:MM:SS"` (or `"unlimited"`), a leading dot for
/// includeSubDomains, `#` comments. A send reads the file first, takes each https answer's
/// `Strict-Transport-Security` field into it (never for an address), reaches a host it lists
/// (or a subdomain of one listed with the dot) over https:// whatever the URL says, and writes
/// the file again at its end, complete or not at all.
final class HSTSCache {
    struct Entry {
        var host: String
        var includeSubdomains: Bool
        /// Unix seconds; `Int64.max`: unlimited.
        var expires: Int64
    }
    private(set) var entries: [Entry] = []
    let path: String
    private let now: () -> Int64

    /// The cache `path` holds (none yet when there is no file), with `now` the clock.
    init(path: String, now: @escaping () -> Int64 = { Int64(time(nil)) }) {
        self.path = path
        self.now = now
        guard let bytes = Files.read(path) else { return }
        for line in Netrc.lines(bytes) where line.count < 4095 {
            let text = line.drop { $0 == 0x20 || $0 == 0x09 }
            if text.first == 0x23 { continue }
            add(line: Array(text))
        }
    }

    /// One line as `hsts_add` reads it: `sscanf("%256s \"%64[^\"]\"")`.
    private func add(line: [UInt8]) {
        let isSpace = { (b: UInt8) in b == 0x20 || (0x09...0x0D).contains(b) }
        var i = line.firstIndex { !isSpace($0) } ?? line.count
        let hostStart = i
        while i < line.count, !isSpace(line[i]), i - hostStart < 256 { i += 1 }
        guard i > hostStart else { return }
        var host = String(decoding: line[hostStart..<i], as: UTF8.self)
        while i < line.count, isSpace(line[i]) { i += 1 }
        guard i < line.count, line[i] == 0x22 else { return }
        i += 1
        let dateStart = i
        while i < line.count, line[i] != 0x22, i - dateStart < 64 { i += 1 }
        guard i > dateStart else { return }
        let date = String(decoding: line[dateStart..<i], as: UTF8.self)
        let expires = date == "unlimited" ? Int64.max : Self.parseDate(date)
        var subdomains = false
        if host.hasPrefix(".") { host.removeFirst(); subdomains = true }
        if let found = lookup(host, subdomains: subdomains) {
            if Self.sameName(entries[found].host, host), expires > entries[found].expires { entries[found].expires = expires }
        } else {
            create(host, subdomains: subdomains, expires: expires)
        }
    }

    /// `YYYYMMDD HH:MM:SS` (UTC) in Unix seconds; -1 (long expired) for anything else, as
    /// curl_getdate's failure.
    static func parseDate(_ text: String) -> Int64 {
        let parts = text.split(separator: " ")
        guard parts.count == 2, parts[0].count == 8, let ymd = Int(parts[0]) else { return -1 }
        let hms = parts[1].split(separator: ":").compactMap { Int($0) }
        guard hms.count == 3 else { return -1 }
        var t = tm()
        t.tm_year = Int32(ymd / 10000 - 1900); t.tm_mon = Int32(ymd / 100 % 100 - 1); t.tm_mday = Int32(ymd % 100)
        t.tm_hour = Int32(hms[0]); t.tm_min = Int32(hms[1]); t.tm_sec = Int32(hms[2])
        return Int64(timegm(&t))
    }

    /// Host names compared as curl's strcasecompare does (ASCII letters, case aside).
    private static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { ASCII.lower($0) == ASCII.lower($1) }
    }

    private func create(_ host: String, subdomains: Bool, expires: Int64) {
        var host = host
        if host.hasSuffix(".") { host.removeLast() }
        entries.append(Entry(host: host, includeSubdomains: subdomains, expires: expires))
    }

    /// The entry for `hostname` (`Curl_hsts`): its own, else with `subdomains` the longest
    /// includeSubDomains entry it is under. Expired entries go as the list is read.
    private func lookup(_ hostname: String, subdomains: Bool) -> Int? {
        var name = hostname
        guard !name.isEmpty, name.utf8.count <= 256 else { return nil }
        if name.hasSuffix(".") { name.removeLast() }
        let now = now()
        var best: Int?, bestLength = 0
        var i = 0
        while i < entries.count {
            let entry = entries[i]
            if entry.expires <= now { entries.remove(at: i); continue }
            if subdomains && entry.includeSubdomains, entry.host.utf8.count < name.utf8.count,
               name.lowercased().hasSuffix("." + entry.host.lowercased()), entry.host.utf8.count > bestLength {
                best = i; bestLength = entry.host.utf8.count
            }
            if Self.sameName(name, entry.host) { return i }
            i += 1
        }
        return best
    }

    /// `url` over https:// when the cache lists its host (an http:// URL; any other as it is).
    /// The port stays as written; without one, it becomes https's.
    func upgrade(_ url: RequestURL) -> RequestURL? {
        guard url.scheme == "http", lookup(url.host, subdomains: true) != nil else { return nil }
        var upgraded = url
        upgraded.scheme = "https"
        return upgraded
    }

    /// A `Strict-Transport-Security` field's value from `hostname` over https (`Curl_hsts_parse`):
    /// `max-age` (required, once; quoted or not) and `includeSubDomains` (once); 0 removes the
    /// host's own entry. Returns whether the field was taken (a bad one is skipped, as curl does).
    @discardableResult
    func take(_ value: String, from hostname: String) -> Bool {
        if RequestURL.isIPAddress(hostname) { return true }
        let p = Array(value.utf8)
        var i = 0, maxAge: Int64?, subdomains = false, gotSubdomains = false
        func blanks() { while i < p.count, p[i] == 0x20 || p[i] == 0x09 { i += 1 } }
        func starts(_ word: String) -> Bool {
            let w = Array(word.utf8)
            return i + w.count <= p.count && zip(p[i..<(i + w.count)], w).allSatisfy { ASCII.lower($0) == $1 }
        }
        repeat {
            blanks()
            if starts("max-age=") {
                guard maxAge == nil else { return false }
                i += 8
                blanks()
                let quoted = i < p.count && p[i] == 0x22
                if quoted { i += 1 }
                let start = i
                while i < p.count, (0x30...0x39).contains(p[i]) { i += 1 }
                guard i > start else { return false }
                maxAge = Int64(String(decoding: p[start..<i], as: UTF8.self)) ?? Int64.max
                if quoted { guard i < p.count, p[i] == 0x22 else { return false }; i += 1 }
            } else if starts("includesubdomains") {
                guard !gotSubdomains else { return false }
                subdomains = true; gotSubdomains = true
                i += 17
            } else {
                while i < p.count, p[i] != 0x3B { i += 1 }
            }
            blanks()
            if i < p.count, p[i] == 0x3B { i += 1 }
        } while i < p.count
        guard let maxAge else { return false }
        if maxAge == 0 {
            if let own = lookup(hostname, subdomains: false) { entries.remove(at: own) }
            return true
        }
        let now = now()
        let expires = Int64.max - now < maxAge ? Int64.max : now + maxAge
        if let own = lookup(hostname, subdomains: false) {
            entries[own].expires = expires
            entries[own].includeSubdomains = subdomains
        } else {
            create(hostname, subdomains: subdomains, expires: expires)
        }
        return true
    }

    /// The file as libcurl writes it.
    var text: String {
        var out = "# Your HSTS cache. https://curl.se/docs/hsts.html\n# This file was generated by libcurl! Edit at your own risk.\n"
        for entry in entries {
            var date = "unlimited"
            if entry.expires != Int64.max {
                var seconds = time_t(entry.expires), t = tm()
                gmtime_r(&seconds, &t)
                func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
                date = "\(t.tm_year + 1900)\(two(t.tm_mon + 1))\(two(t.tm_mday)) \(two(t.tm_hour)):\(two(t.tm_min)):\(two(t.tm_sec))"
            }
            out += (entry.includeSubdomains ? "." : "") + entry.host + " \"" + date + "\"\n"
        }
        return out
    }

    /// Writes the file (a temporary file renamed over it: complete or not at all).
    /// - Throws: `HTTPError.setup` naming the file when it cannot be written.
    func save() throws {
        guard !path.isEmpty else { return }
        do { try Files.writeAtomically(Array(text.utf8), to: path, mode: 0o644) } catch {
            throw HTTPError.setup("--hsts \(path): cannot write the file (\(error))")
        }
    }
}
