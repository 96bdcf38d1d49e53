import CCurl
import Synchronization

/// The libcurl whose reading pekit's own transfer copies: 7.88, Debian 12's, to which its reader,
/// its tests and curl's test suite in `scripts/test` are held. Another libcurl reads some
/// responses otherwise (a later one rejects what 7.88 takes, and the other way round), so pekit's
/// transfer sends only beside that one, and every request goes to libcurl otherwise: the two
/// senders never disagree on the same bytes.
///
/// Checked without loading libcurl (which a request pekit sends itself never needs): the libcurl
/// headers pekit was built with name their version (Debian ships libcurl4 and its -dev package
/// at one version), and when libcurl is loaded for another request, its own version line is
/// read too (a libcurl upgraded since the build).
enum HeldLibcurl {
    /// The version pekit's transfer reads as.
    static let major = 7, minor = 88

    /// The headers pekit was built with are of that version.
    static let built = isHeld(versionNumber: Int(LIBCURL_VERSION_NUM))

    private static let loadedOther = Atomic<Bool>(false)
    private static let checked = Atomic<Bool>(false)

    /// Whether `LIBCURL_VERSION_NUM`-style 0xXXYYZZ is the held major and minor version.
    static func isHeld(versionNumber: Int) -> Bool { versionNumber >> 16 == major && (versionNumber >> 8) & 0xFF == minor }

    /// Whether libcurl's version line ("libcurl/7.88.1 OpenSSL/3.0.19 …") is of the held version.
    static func isHeld(versionLine: String) -> Bool { versionLine.hasPrefix("libcurl/\(major).\(minor).") }

    /// Reads the loaded libcurl's version line, once.
    static func noteLoaded(_ versionLine: @autoclosure () -> String) {
        guard !checked.load(ordering: .acquiring) else { return }
        if !isHeld(versionLine: versionLine()) { loadedOther.store(true, ordering: .releasing) }
        checked.store(true, ordering: .releasing)
    }

    /// Why pekit's transfer must leave the request to libcurl, or nil.
    static var reason: String? {
        if !built { return "pekit was built with libcurl \(LIBCURL_VERSION), not the \(major).\(minor) its transfer reads as" }
        if loadedOther.load(ordering: .acquiring) { return "the libcurl loaded is not the \(major).\(minor) pekit's transfer reads as" }
        return nil
    }
}
