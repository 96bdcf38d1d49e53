import Foundation
import PekitCore

/// curl's rules for the file `-o` writes: `--create-dirs` makes its missing directories, and
/// `--no-clobber` (unless a later `--clobber`) keeps a file that is there, the answer going to
/// the first of FILE.1 … FILE.100 that is not (none free: exit 23, as curl's "Failed to open").
enum OutputFileRules {
    /// Why a file cannot be made at `path` (its directory missing or not writable, or a
    /// directory there), or nil: what -D and --etag-save check before anything is sent.
    static func uncreatable(_ path: String) -> String? {
        let directory = FilePaths.directory(of: FilePaths.absolute(path))
        if !FilePaths.isDirectory(directory) { return "its directory does not exist" }
        if FilePaths.isDirectory(path) { return "it is a directory" }
        if access(directory, W_OK) != 0 { return "its directory is not writable" }
        return nil
    }

    static func apply(_ path: String, _ parsed: Arguments) throws -> String {
        if parsed.has(RequestOptions.createDirs) {
            let directory = FilePaths.directory(of: path)
            if !FilePaths.exists(directory) {
                do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                    throw CommandFailure(message: "pekit request: --create-dirs: cannot make \(printable(directory)): \(error.localizedDescription) (as curl, exit 23)", status: 23)
                }
            }
        }
        guard parsed.last(of: [RequestOptions.noClobber, RequestOptions.clobber])?.name == RequestOptions.noClobber.name, FilePaths.exists(path) else { return path }
        for n in 1...100 where !FilePaths.exists("\(path).\(n)") { return "\(path).\(n)" }
        throw CommandFailure(message: "pekit request: --no-clobber: \(printable(path)) and \(printable(path)).1 to .100 are all there (as curl, exit 23)", status: 23)
    }
}
