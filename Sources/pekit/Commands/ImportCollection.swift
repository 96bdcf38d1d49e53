import PekitCore
import PekitTools

/// `pekit import http FILE.http`, `pekit import hurl FILE.hurl` and `pekit import postman
/// COLLECTION.json`: the test file `pekit test` runs for the file, laid out to be read.
func importCollection(_ parsed: Arguments) throws -> Int32 {
    let format = parsed.positionals[0]
    guard parsed.positionals.count == 2 else {
        throw UsageError(command: "import", message: format == "postman" ? "give one collection: pekit import postman COLLECTION.json"
                         : "give one .\(format) file: pekit import \(format) FILE.\(format)")
    }
    let path = parsed.positionals[1]
    guard let bytes = path == "-" ? try readAllInput() : Files.read(path) else {
        throw CommandFailure(message: "pekit import: cannot read \(path) (\(FilePaths.exists(path) ? "permission denied or not a file" : "no such file"))")
    }
    let translated: CollectionFile.Translation
    do { translated = try CollectionFile.translate(bytes, path: path, format: format, layout: .readable) } catch let error as CollectionFile.ParseError {
        throw CommandFailure(message: "pekit import: \(error.description)")
    }
    for note in translated.notes { Output.stderr.line("pekit import: " + note) }
    Output.stdout.write(Array(translated.lua.utf8))
    return 0
}
