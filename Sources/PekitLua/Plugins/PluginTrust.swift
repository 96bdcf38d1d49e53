import Glibc
import PekitCore

/// Whether a plugin file may be loaded, judged by who can change it, as OpenSSH judges its
/// configuration files and git a repository it did not make: a plugin decides how requests are
/// encoded and which cookies go where, so a file that another user could have written (or
/// replaced, through a directory they can write) is refused, with the reason. The file, then
/// every directory from its own up to `/` (the real path, links resolved), must be owned by
/// root or by the user pekit runs as, and writable by nobody else: not by others, and by the
/// group only when it is the user's own group. A directory others may write into but not take
/// files out of (the sticky bit, as `/tmp`) is safe above the plugin's own directory, which
/// could otherwise receive a new plugin file. `PEKIT_UNSAFE_PLUGINS=1` trusts them all anyway.
enum PluginTrust {
    /// Why `file` may not be loaded, or nil when it may.
    static func refusal(of file: String) -> String? {
        guard let real = FilePaths.resolved(file) else { return nil }  // unreadable: the read says why
        let uid = geteuid(), gid = getegid()
        var path = real
        var isFile = true, isOwnDirectory = false
        while true {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            let what = isFile ? "the file" : (isOwnDirectory ? "its directory \(path)" : "the directory \(path)")
            if st.st_uid != 0 && st.st_uid != uid {
                return "\(what) is owned by another user (uid \(st.st_uid))"
            }
            let mode = st.st_mode
            let sticky = mode & S_ISVTX != 0 && !isFile && !isOwnDirectory
            if mode & S_IWOTH != 0 && !sticky {
                return "\(what) is writable by every user (mode \(String(mode & 0o7777, radix: 8)))"
            }
            if mode & S_IWGRP != 0 && st.st_gid != gid && !sticky {
                return "\(what) is writable by the group \(st.st_gid) (mode \(String(mode & 0o7777, radix: 8)))"
            }
            if path == "/" { return nil }
            isOwnDirectory = isFile
            isFile = false
            path = FilePaths.directory(of: path)
            if path.isEmpty { path = "/" }
        }
    }
}
