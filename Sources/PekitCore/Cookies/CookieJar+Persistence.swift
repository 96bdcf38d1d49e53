/// Saving and loading a jar: the Netscape cookies.txt format that curl, wget and browser
/// exporters use (with `#HttpOnly_` lines, and host-only kept apart from domain cookies), and a
/// JSON format that keeps every attribute.
extension CookieJar {
    /// The formats a jar is saved in and loaded from.
    public enum FileFormat: String, Sendable, CaseIterable {
        /// `netscape`: curl's and wget's cookies.txt; `json`: pekit's own, every field kept (SameSite, partitions).
        case netscape, json

        /// JSON for a `.json` path, Netscape otherwise.
        public static func guess(_ path: String) -> FileFormat { path.lowercased().hasSuffix(".json") ? .json : .netscape }
    }

    /// The comment line, in a Netscape file, with the attributes of the cookie on the next line.
    public static let attributesPrefix = "#pekit-attributes:"

    /// The file text for the jar's cookies, session cookies too unless `sessions` is false (as
    /// curl's `-c` writes them, and `save(to:)` and the command line do).
    public func serialized(_ format: FileFormat, sessions: Bool = true) -> [UInt8] {
        lock.lock(); defer { lock.unlock() }
        let now = clock()
        let cookies = all.filter { !$0.isExpired(at: now) && (sessions || $0.isPersistent) }
        switch format {
        case .netscape:
            // In the order they were made: the format has no creation time, and a reader makes
            // them in file order, so the Cookie header's order (by creation, for equal paths:
            // RFC 6265 §5.4) comes back the same.
            let cookies = cookies.enumerated().sorted { ($0.element.creation, $0.offset) < ($1.element.creation, $1.offset) }.map(\.element)
            var out: [UInt8] = []
            var text = "# Netscape HTTP Cookie File\n# Written by pekit \(Pekit.version). Fields: domain, subdomains, path, secure, expires, name, value.\n# A '\(Self.attributesPrefix)' line gives the attributes this format has no field for (SameSite, Partitioned) of the cookie after it.\n\n"
            for c in cookies {
                // What the format has no field for goes on a comment line just before the cookie:
                // curl and other readers skip it, pekit reads it back.
                var extra: [String] = []
                if let sameSite = c.sameSite { extra.append("SameSite=\(sameSite.rawValue)") }
                if c.partitioned { extra.append(c.partitionKey.map { "Partitioned=" + $0 } ?? "Partitioned") }
                if !extra.isEmpty { text += Self.attributesPrefix + " " + extra.joined(separator: "; ") + "\n" }
                let domain = (c.httpOnly ? "#HttpOnly_" : "") + (c.hostOnly ? c.domain : "." + c.domain)
                // 1 for an expired cookie (0 would mean a session one); at most the year 9999.
                let expires = c.expires.map { $0.isNaN || $0 <= 0 ? "1" : String(Int64(Swift.min($0, 253_402_300_799))) } ?? "0"
                text += [domain, c.hostOnly ? "FALSE" : "TRUE", c.path, c.secure ? "TRUE" : "FALSE", expires, c.name, ""].joined(separator: "\t")
                // The value as its bytes came (one that is not UTF-8 too), the rest of the line.
                if let raw = c.rawValue { out += text.utf8; out += raw; out.append(0x0A); text = ""; continue }
                text += c.value + "\n"
            }
            return out + Array(text.utf8)
        case .json:
            let list = cookies.map { c -> PekitValue in
                var entries: [PekitMap.Entry] = [
                    .init(key: "name", value: .text(c.name)), .init(key: "value", value: .text(c.value)),
                    .init(key: "domain", value: .text(c.domain)), .init(key: "path", value: .text(c.path)),
                    .init(key: "expires", value: c.expires.map { .number($0) } ?? .null),
                    .init(key: "creation", value: .number(c.creation)), .init(key: "last_access", value: .number(c.lastAccess)),
                    .init(key: "host_only", value: .boolean(c.hostOnly)), .init(key: "secure", value: .boolean(c.secure)),
                    .init(key: "http_only", value: .boolean(c.httpOnly)),
                    .init(key: "same_site", value: c.sameSite.map { .text($0.rawValue) } ?? .null),
                    .init(key: "partitioned", value: .boolean(c.partitioned)),
                ]
                if let key = c.partitionKey { entries.append(.init(key: "partition_key", value: .text(key))) }
                // JSON holds text: a value that is not UTF-8 is also kept as its bytes, in base64.
                if let raw = c.rawValue { entries.append(.init(key: "value_base64", value: .text(Base64.encode(raw)))) }
                return .map(PekitMap(ordered: entries))
            }
            let document = PekitValue.map(PekitMap(ordered: [.init(key: "pekit_cookies", value: .integer(1)), .init(key: "cookies", value: .array(list))]))
            return JSONText.write(document) + [0x0A]
        }
    }

    /// Writes the jar to `path` atomically (temporary file, then rename, under a lock).
    /// - Parameter path: the file written.
    /// - Parameter format: the file's format; nil: the one its name says (`.json`), else netscape.
    /// - Parameter force: replace a file that is not a cookie jar (by default refused: see
    ///   `checkReplaceable`).
    /// - Parameter sessions: write session cookies too (the default, as curl's `-c` and the
    ///   command line do; false writes only cookies with an expiry, as a browser keeps on disk).
    public func save(to path: String, format: FileFormat? = nil, sessions: Bool = true, force: Bool = false) throws {
        lock.lock(); defer { lock.unlock() }
        if !force { try Self.checkReplaceable(path) }
        try Files.writeAtomically(serialized(format ?? .guess(path), sessions: sessions), to: path)
    }

    /// Saves the jar into a file other processes may be writing too: under the file's lock, the
    /// file is read again and this jar's own changes since it was made or last saved this way
    /// (stores, replacements, deletions) are applied to what is there, then it is written
    /// atomically, so that two writers both keep their cookies. A jar with no changes does
    /// not write (a script that only reads a jar cannot erase what others added meanwhile);
    /// nor does one whose file is missing and that holds nothing. The changes are forgotten
    /// once written.
    /// - Returns: whether the file was written.
    /// - Throws: `CookieError` for a file that cannot be read, locked or written, or (unless
    ///   `force`) one that is not a cookie jar.
    @discardableResult
    public func save(mergingInto path: String, format: FileFormat? = nil, sessions: Bool = true, force: Bool = false) throws -> Bool {
        lock.lock(); defer { lock.unlock() }
        return try Files.withLock(path) {
            if !force { try Self.checkReplaceable(path) }
            let exists = Files.size(path) != nil
            guard hasChanges || (!exists && count > 0) else { return false }
            let base = CookieJar(publicSuffixes: publicSuffixes, clock: clock)
            base.limits = limits
            if exists { _ = try base.load(from: path, format: format) }
            if exists && journalsStores {
                applyChanges(to: base)
            } else {
                // A jar that loaded no file: every cookie in it is its own (and its removals too).
                if exists { for (key, change) in changes where change == .removed { base.remove(key) } }
                base.changes = [:]
                applyAll(to: base)
            }
            try Files.writeAtomically(base.serialized(format ?? .guess(path), sessions: sessions), to: path)
            changes = [:]
            storedUnjournaled = false
            // From now on the file holds this jar's cookies: only what changes is written next time.
            journalsStores = true
            return true
        }
    }

    /// Every cookie of this jar into `base` (a file not written yet: all of them are new).
    private func applyAll(to base: CookieJar) {
        for list in byDomain.values { for cookie in list { try? base.set(cookie) } }
    }

    /// Refuses a path whose file exists and is not a cookie jar: nothing in it loads and something
    /// was skipped (someone's notes, reached by name or through a symbolic link). A missing or
    /// empty file, or a jar, may be replaced.
    /// - Throws: `CookieError.notAJar`.
    public static func checkReplaceable(_ path: String) throws {
        guard Files.size(path) != nil else { return }
        let scratch = CookieJar(publicSuffixes: nil, clock: { 0 })
        let (loaded, warnings) = (try? scratch.load(from: path)) ?? (0, ["not a cookie file"])
        guard loaded == 0, !warnings.isEmpty else { return }
        throw CookieError.notAJar(path: path, skipped: warnings.count)
    }

    /// Adds the cookies of a file; a malformed line or entry is skipped and reported
    /// (`path:LINE: reason`), the rest loads. Returns how many were loaded and the warnings.
    /// - Throws: `CookieError.file` when the file cannot be read or is not a cookie file at all.
    @discardableResult
    public func load(from path: String, format: FileFormat? = nil) throws -> (loaded: Int, warnings: [String]) {
        lock.lock(); defer { lock.unlock() }
        if let size = Files.size(path), size > limits.fileBytes {
            throw CookieError.file(path: path, reason: "the file is \(size) bytes, more than a cookie jar file may be (\(limits.fileBytes)); is it a cookie file?")
        }
        let bytes: [UInt8]
        switch Files.read(path, limit: limits.fileBytes) {
        case .bytes(let read): bytes = read
        case .notRegular: throw CookieError.file(path: path, reason: "not a regular file (a device, pipe or directory cannot be a cookie jar)")
        case .tooLarge: throw CookieError.file(path: path, reason: "more than \(limits.fileBytes) bytes, more than a cookie jar file may be; is it a cookie file?")
        case .failed(let why): throw CookieError.file(path: path, reason: "cannot read the file (\(why))")
        }
        let format = format ?? (bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D } == 0x7B ? .json : .netscape)
        return try load(bytes, format: format, name: path)
    }

    static let maxWarnings = 100

    /// Adds the cookies of file text (see `load(from:)`).
    public func load(_ bytes: [UInt8], format: FileFormat, name: String) throws -> (loaded: Int, warnings: [String]) {
        lock.lock(); defer { lock.unlock() }
        // What is loaded is no change; what the jar held before, and stores after, are.
        startJournalingStores()
        loadDepth += 1
        defer { loadDepth -= 1 }
        var warnings: [String] = []
        var unreported = 0
        // A file of garbage gives one warning a line: keep the first ones, count the rest.
        func warn(_ message: String) { if warnings.count < Self.maxWarnings { warnings.append(message) } else { unreported += 1 } }
        var loaded = 0
        try bulkSet {
            switch format {
            case .netscape:
                loaded = loadNetscape(bytes, name: name, warn: warn)
            case .json:
                let document: PekitValue
                do { document = try JSONText.parse(bytes) } catch { throw CookieError.file(path: name, reason: "\(error)") }
                guard case .map(let map) = document, case .array(let list)? = map["cookies"] else {
                    throw CookieError.file(path: name, reason: "not a pekit cookie file (expected {\"pekit_cookies\": 1, \"cookies\": [...]})")
                }
                for (i, item) in list.enumerated() {
                    guard case .map(let c) = item, case .string(let cookieName)? = c["name"], case .string(let value)? = c["value"],
                          case .string(let domain)? = c["domain"], case .string(let path)? = c["path"] else {
                        warn("\(name): cookies[\(i + 1)]: needs string name, value, domain and path; skipped")
                        continue
                    }
                    func number(_ key: ByteString) -> Double? { c[key]?.doubleValue }
                    func flag(_ key: ByteString) -> Bool { if case .boolean(let b)? = c[key] { return b }; return false }
                    var sameSite: Cookie.SameSite?
                    if case .string(let s)? = c["same_site"] { sameSite = Cookie.SameSite(rawValue: s.description) }
                    let creation = number("creation") ?? clock()
                    do {
                        var cookie = Cookie(name: cookieName.description, value: value.description, domain: domain.description.lowercased(), path: path.description,
                                       expires: number("expires"), creation: creation, lastAccess: number("last_access") ?? creation,
                                       hostOnly: c["host_only"] == nil ? true : flag("host_only"), secure: flag("secure"), httpOnly: flag("http_only"),
                                       sameSite: sameSite, partitioned: flag("partitioned"),
                                       partitionKey: { if case .string(let key)? = c["partition_key"] { return key.description }; return nil }())
                        if case .string(let encoded)? = c["value_base64"] {
                            cookie.setValue(bytes: try Base64.decode(encoded.bytes, alphabet: .standard))
                        }
                        try set(cookie)
                    } catch {
                        warn("\(name): cookies[\(i + 1)]: \(error); skipped")
                        continue
                    }
                    loaded += 1
                }
            }
        }
        if unreported > 0 { warnings.append("\(name): \(unreported) more lines or entries skipped") }
        return (loaded, warnings)
    }
}

