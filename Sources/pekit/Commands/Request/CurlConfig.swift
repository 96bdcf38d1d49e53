import Foundation
import PekitCore

/// curl's config file, as curl 7.88 reads it (`tool_parsecfg.c`): the file of `-K FILE` and the
/// `.curlrc` curl reads before its command line unless `-q`/`--disable` comes first.
///
/// A line is an option, then its value: `--header "a: b"`, `header = "a: b"`, `url: x`, `-s`.
/// A name without dashes is a long option, and only then may `=` or `:` part it from the value;
/// `#`, `/`, `*` or nothing in the first column that is not blank make a comment. A value in
/// double quotes takes `\t`, `\n`, `\r`, `\v` and `\X` (X itself) and ends at the next
/// unescaped quote; one without ends at the first blank. The file is a stranger's: its options
/// go through the same reading as the command line's, and pekit refuses what it refuses there.
enum CurlConfig {
    /// One line's option and its value, as curl hands them to its option reader.
    struct Entry: Equatable {
        /// The option as a command-line word: `--header`, `-H`.
        var option: String
        /// The value, nil when the line has none.
        var value: [UInt8]?
        /// The line, from 1, for messages.
        var line: Int
    }

    /// The entries of a config file's bytes, and curl's warnings for lines whose unquoted value
    /// is followed by more text (curl reads only the first word of it).
    ///
    /// - Throws: `CurlConfig.LineTooLong` for a line past curl 7.88's limit.
    /// Complexity: O(n) in the file's length.
    static func entries(_ bytes: [UInt8], file: String) throws -> (entries: [Entry], warnings: [String]) {
        var entries: [Entry] = [], warnings: [String] = []
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || (0x09...0x0D).contains(c) }
        var number = 0
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            number += 1
            // curl reads a line (its LF included) into a buffer of 100 KiB with its NUL.
            if raw.count + (index < lines.count - 1 ? 1 : 0) >= maxLine {
                throw LineTooLong(file: file, line: number)
            }
            var line = Array(raw)[...]
            while let c = line.first, isSpace(c) { line = line.dropFirst() }
            guard let first = line.first, ![0x23, 0x2F, 0x2A].contains(first) else { continue }
            let dashed = first == 0x2D
            func isSeparator(_ c: UInt8) -> Bool { !dashed && (c == 0x3D || c == 0x3A) }
            var end = line.startIndex
            while end < line.endIndex, !isSpace(line[end]), !isSeparator(line[end]) { end += 1 }
            let name = String(decoding: line[line.startIndex..<end], as: UTF8.self)
            var rest = line[end...]
            while let c = rest.first, isSpace(c) || isSeparator(c) { rest = rest.dropFirst() }
            var value: [UInt8]? = nil
            if rest.first == 0x22 {
                value = unquoted(rest.dropFirst())
            } else {
                let word = rest.prefix { !isSpace($0) }
                let after = rest.dropFirst(word.count).drop { isSpace($0) }
                if let next = after.first, next != 0x23 {
                    warnings.append("\(file):\(number): '\(name)' has blanks in its value that are not in quotes: curl reads only '\(String(decoding: word, as: UTF8.self))'")
                }
                value = word.isEmpty ? nil : Array(word)
            }
            entries.append(Entry(option: dashed ? name : "--" + name, value: value, line: number))
        }
        return (entries, warnings)
    }

    /// curl 7.88's MAX_CONFIG_LINE_LENGTH.
    static let maxLine = 100 * 1024

    /// A line longer than curl reads: curl stops reading the file (its test 3228, exit 26).
    struct LineTooLong: Error, CustomStringConvertible {
        let file: String, line: Int
        var description: String { "\(file):\(line): the line is longer than curl reads (\(CurlConfig.maxLine / 1024) KiB): curl cannot read the config file" }
    }

    /// curl's `unslashquote`: the bytes up to the first unescaped double quote.
    private static func unquoted(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = [], i = text.startIndex
        while i < text.endIndex, text[i] != 0x22 {
            if text[i] == 0x5C {
                i += 1
                guard i < text.endIndex else { break }
                switch text[i] {
                case 0x74: out.append(0x09)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x76: out.append(0x0B)
                default: out.append(text[i])
                }
            } else {
                out.append(text[i])
            }
            i += 1
        }
        return out
    }

    /// The `.curlrc` curl 7.88 reads (`tool_findfile.c`): `.curlrc` in `$CURL_HOME`, then
    /// `$XDG_CONFIG_HOME`, then `$HOME` (an empty variable is passed over); when
    /// `XDG_CONFIG_HOME` is not set, `curlrc` in `$CURL_HOME/.config` and `$HOME/.config`; then
    /// `.curlrc` in the user's home directory from the password database. nil when there is none.
    static func defaultFile(environment: (String) -> String?) -> String? {
        let readable = { (path: String) in access(path, R_OK) == 0 && !FilePaths.isDirectory(path) }
        for name in ["CURL_HOME", "XDG_CONFIG_HOME", "HOME"] {
            if let home = environment(name), !home.isEmpty, readable(home + "/.curlrc") { return home + "/.curlrc" }
        }
        if environment("XDG_CONFIG_HOME") == nil {
            for name in ["CURL_HOME", "HOME"] {
                if let home = environment(name), !home.isEmpty, readable(home + "/.config/curlrc") { return home + "/.config/curlrc" }
            }
        }
        if let entry = getpwuid(geteuid()), let dir = entry.pointee.pw_dir {
            let home = String(decoding: UnsafeRawBufferPointer(start: dir, count: strlen(dir)), as: UTF8.self)
            if !home.isEmpty, readable(home + "/.curlrc") { return home + "/.curlrc" }
        }
        return nil
    }
}

/// A curl config file's options as command-line words (`CurlConfig`): each option, then its
/// value where the option takes one. A value given to an option that takes none is left out
/// with curl's warning; a `-K` inside is read in its place (at most 8 deep: curl would loop).
/// - Parameter command: the command whose messages these are (`import`, `request`).
func curlConfigWords(_ path: String, takesValue: [String: Bool], depth: Int, command: String = "import") throws -> [[UInt8]] {
    guard depth < 8 else { throw CommandFailure(message: "pekit \(command): -K \(printable(path)): config files include each other more than 8 deep") }
    let bytes: [UInt8]
    if path == "-" { bytes = try readAllInput() } else {
        guard let read = Files.read(path) else {
            throw CommandFailure(message: "pekit \(command): -K \(printable(path)): cannot read the config file", status: 26)
        }
        bytes = read
    }
    let shown = path == "-" ? "<stdin>" : path
    let entries: [CurlConfig.Entry], warnings: [String]
    do { (entries, warnings) = try CurlConfig.entries(bytes, file: shown) } catch {
        throw CommandFailure(message: "pekit \(command): -K: \(printable(String(describing: error)))", status: 26)
    }
    for warning in warnings { Output.stderr.line("pekit \(command): warning: " + printable(warning)) }
    var words: [[UInt8]] = []
    for entry in entries {
        if entry.option == "-K" || entry.option == "--config" {
            guard let value = entry.value else { throw CommandFailure(message: "pekit \(command): \(printable(shown)):\(entry.line): \(entry.option) needs a file") }
            words += try curlConfigWords(String(decoding: value, as: UTF8.self), takesValue: takesValue, depth: depth + 1, command: command)
            continue
        }
        words.append(Array(entry.option.utf8))
        guard let value = entry.value else { continue }
        if takesValue[entry.option] == false {
            Output.stderr.line("pekit \(command): warning: \(printable(shown)):\(entry.line): '\(printable(entry.option))' takes no value: '\(PercentDecodingError.printable(value))' is left out, as curl leaves it")
        } else {
            words.append(value)
        }
    }
    return words
}
