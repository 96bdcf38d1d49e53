import PekitCore

/// Several servers' readings of one query side by side (`pekit query --decode --server A,B,…`,
/// `pekit request --read-by A,B,…`): each on its own line as compact JSON (bytes that are not
/// UTF-8 as \\xFF), labelled, `^` under each parameter that the first server reads otherwise or
/// not at all, the ones a server does not read named, and each server's error.
enum ServerReadings {
    /// The lines, without their line ends.
    static func lines(_ query: [UInt8], models: [QueryServer]) -> [String] {
        func json(_ value: PekitValue) -> String { String(decoding: (try? JSONText.encode(escapingBytes(value))) ?? [], as: UTF8.self) }
        let width = (models.map(\.name.count).max() ?? 0) + 2
        let indent = String(repeating: " ", count: width)
        var lines: [String] = []
        var reference: [(key: ByteString, value: PekitValue)]?
        for model in models {
            let label = model.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let value: PekitValue, error: QueryServerError?
            do {
                (value, error) = try model.reading(ByteString(bytes: query))
            } catch let refused as QueryServerError {
                lines.append(label + "error: \(refused)")
                continue
            } catch {
                lines.append(label + "error: \(error)")
                continue
            }
            guard case .map(let map) = value else { lines.append(label + json(value)); continue }
            let entries = map.entries.map { (key: $0.key, value: $0.value) }
            // Each parameter as its own piece of the line, so that marks fall under whole ones.
            let pieces = entries.map { json(.string($0.key)) + ":" + json($0.value) }
            lines.append(label + "{" + pieces.joined(separator: ",") + "}")
            if let reference {
                var marks = " "
                for (entry, piece) in zip(entries, pieces) {
                    let same = reference.contains { $0.key == entry.key && $0.value == entry.value }
                    marks += String(repeating: same ? " " : "^", count: piece.count) + " "
                }
                while marks.last == " " { marks.removeLast() }
                if !marks.isEmpty { lines.append(indent + marks) }
                let missing = reference.filter { old in !entries.contains { $0.key == old.key } }.map { json(.string($0.key)) }
                if !missing.isEmpty { lines.append(indent + "(no \(missing.joined(separator: ", ")))") }
            } else {
                reference = entries
            }
            if let error { lines.append(indent + "(\(model.name) also returns an error: \(error.message))") }
        }
        return lines
    }

    /// Each model's reading by `read` (a multipart body, a Cookie field), labelled, on its own
    /// line as compact JSON; where `read` gives nil, that the server has no such parser; its error.
    static func lines(of models: [QueryServer], _ read: (QueryServer) throws -> PekitValue?) -> [String] {
        let width = (models.map(\.name.count).max() ?? 0) + 2
        return models.map { model in
            let label = model.name.padding(toLength: width, withPad: " ", startingAt: 0)
            do {
                guard let value = try read(model) else { return label + "(no parser of its own for it)" }
                return label + String(decoding: (try? JSONText.encode(escapingBytes(value))) ?? [], as: UTF8.self)
            } catch {
                return label + "error: \(error)"
            }
        }
    }

    /// The models named in `list` (A,B,…), as `--server` and `--read-by` take them.
    /// - Throws: `UsageError` of `command` naming an unknown server.
    static func models(_ list: String, command: String) throws -> [QueryServer] {
        try list.split(separator: ",", omittingEmptySubsequences: false).map { name in
            do { return try QueryServer.named(String(name), options: []) } catch {
                throw UsageError(command: command, message: "\(error)")
            }
        }
    }
}
