#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths as strings, with the few C library calls they need: what finding plugins and a script's
/// directory take at every start. Foundation's URL and FileManager did this, and loading them cost
/// `pekit run` a tenth of its start-up (issue 47); these are POSIX calls and byte operations.
package enum FilePaths {
    /// The directory part of `path`, as dirname(3) gives it: `a/b.lua` → `a`, `b.lua` → `.`,
    /// `/b` → `/`; trailing slashes are not a component.
    package static func directory(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1 && bytes.last == 0x2F { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: 0x2F) else { return "." }
        var end = slash
        while end > 0 && bytes[end - 1] == 0x2F { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// `component` under `directory`, with one slash between them (`component` alone when
    /// `directory` is empty).
    package static func joined(_ directory: String, _ component: String) -> String {
        directory.isEmpty || directory.hasSuffix("/") ? directory + component : directory + "/" + component
    }

    /// `path` made absolute against the working directory (unchanged when it already is).
    package static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        guard let cwd = workingDirectory() else { return path }
        return path == "." ? cwd : joined(cwd, path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }

    /// The working directory, or nil when it cannot be read.
    package static func workingDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path` with every symbolic link and `.`/`..` resolved (realpath(3)), or nil when it does not exist.
    package static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return cText(real)
    }

    /// What the symbolic link at `path` points to (readlink(2)), or nil when it is none.
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether this process may read the file at `path`.
    package static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }

    /// Whether something exists at `path` (following links).
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The size in bytes of the regular file at `path` (following links), or nil.
    package static func size(of path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Whether `path` is a directory (following links).
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
