#if canImport(Glibc)
import Glibc
#endif
import PekitCore

/// How a `.netrc` file's credentials are used (curl's `CURLOPT_NETRC`).
public enum NetrcMode: String, Sendable, CaseIterable {
    /// The file's entry when the URL gives no password (curl's `--netrc-optional`).
    case optional
    /// The file's entry in place of the URL's user and password (curl's `--netrc`).
    case required
}

/// The credentials of one send as curl 7.88 (Debian's, with the CVE-2024-11053 backport) keeps
/// them across its hops when it reads a `.netrc`: its `state.aptr.user`, `aptr.passwd` and
/// `creds_from`, set from each hop's URL (url.c's `parseurlandfillconn`) and then from the file
/// for the hop's host (`override_login`). The answer for a hop is the Basic credentials it
/// carries, and whether the file gave them for this host, which lets them go to a host a
/// redirect led to (http.c: `conn->bits.netrc`).
struct NetrcCredentials {
    let mode: NetrcMode
    /// The file; its bytes are read at the first lookup.
    let path: String?
    private var text: [UInt8]?
    /// The caller gave credentials of its own (`-u`): the file is not read.
    let optionGiven: Bool
    private(set) var user: String?, password: String?
    enum Source { case none, option, url, netrc }
    private(set) var source = Source.none

    /// The state for `request` under `options`; nil when no `.netrc` is read.
    init?(_ request: PekitRequest, _ options: borrowing SendOptions) {
        guard let mode = options.netrc ?? (options.netrcFile != nil ? .required : nil) else { return nil }
        self.mode = mode
        path = options.netrcFile
        optionGiven = request.credentialsFromOption
        if optionGiven, let given = request.basicCredentials, given.count == 2 {
            user = given[0]; password = given[1]; source = .option
        }
    }

    /// The file's bytes (nil: no file, which finds nothing, as curl).
    private mutating func file() -> [UInt8]? {
        if let text { return text }
        let name: String
        if let path { name = path } else {
            guard let home = CLibrary.environment("HOME") else { return nil }
            name = home + "/.netrc"
        }
        guard let read = Files.read(name) else { return nil }
        text = read
        return read
    }

    /// The credentials for a hop to `host` whose URL names `url`, and whether the file gave them.
    /// - Throws: `HTTPError.transfer` with curl's exit 26 for a file whose syntax stops the reader.
    mutating func hop(host: String, url: PekitRequest.URLCredentials?, method: String, target: String) throws -> (user: String, password: String, fromFile: Bool)? {
        // The hop's URL (parseurlandfillconn): its user and password, unless -u gave them.
        var connUser: String?, connPassword: String?
        if password == nil || source != .option, let given = url?.password { connPassword = given; password = given; source = .url }
        if user == nil || source != .option, let given = url?.user { connUser = given; user = given; source = .url }
        // The file (override_login).
        if mode == .required { connUser = nil; connPassword = nil }
        var fromFile = false
        let userIsState = user != nil && source != .netrc
        if !optionGiven && connPassword == nil {
            switch Netrc.lookup(file() ?? [], host: host, login: userIsState ? user : connUser) {
            case .missing: break
            case .failed:
                throw HTTPError.transfer(method: method, url: target, code: 26, reason: ".netrc parser error", hint: nil)
            case .found(let login, let found):
                if !userIsState { connUser = login }
                connPassword = found
                fromFile = true
            }
            if !userIsState && connUser == nil && connPassword != nil { connUser = "" }
        }
        if !userIsState, let given = connUser { user = given; source = .netrc }
        if let given = connPassword { password = given; source = .netrc }
        guard let user else { return nil }
        return (user, password ?? "", fromFile)
    }
}
