import PekitCore
import PekitTools

/// `pekit import http FILE.http`: the test file `pekit test FILE.http` runs, laid out to be read.
func importHTTPFile(_ parsed: Arguments) throws -> Int32 {
    guard parsed.positionals.count == 2 else { throw UsageError(command: "import", message: "give one .http file: pekit import http FILE.http") }
    let path = parsed.positionals[1]
    guard let bytes = path == "-" ? try readAllInput() : Files.read(path) else {
        throw CommandFailure(message: "pekit import: cannot read \(path) (\(FilePaths.exists(path) ? "permission denied or not a file" : "no such file"))")
    }
    let file: HTTPFile
    do { file = try HTTPFile.parse(String(decoding: bytes, as: UTF8.self), path: path) } catch let error as HTTPFile.ParseError {
        throw CommandFailure(message: "pekit import: \(error)")
    }
    for note in file.notes(path: path) { Output.stderr.line("pekit import: " + note) }
    Output.stdout.write(Array(file.lua(path: path, directory: FilePaths.directory(of: path), layout: .readable).utf8))
    return 0
}
