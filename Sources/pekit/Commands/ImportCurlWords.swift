import Foundation
import PekitCore
import PekitHTTP

/// A pasted curl command as `pekit request`'s arguments, and the flags left out as changing
/// nothing pekit sends (`pekit import curl`, and `expect(req):same_as_curl(cmd)` in tests).
/// - Throws: `CommandFailure` for a command that does not split, is not curl, or has a flag
///   pekit does not take.
/// A POSIX command is read with the shell around it (`ShellCommand`: `$NAME` from
/// `environment`, `<`, here-documents, `echo … |`); what its shell gives standard input is
/// returned in the `ShellCommand` read (its variables, their defaults, which were unquoted).
func curlArguments(_ text: String, environment: @escaping (String) -> String? = { ProcessInfo.processInfo.environment[$0] })
    throws -> (arguments: [[UInt8]], dropped: [String], shell: ShellCommand) {
    // As bytes: $'a\xffb' is three bytes, and they go on the wire as such.
    let shell: ShellCommand
    do { shell = try ShellCommand.pasted(text, environment: environment, readFile: { Files.read($0) }) } catch {
        throw CommandFailure(message: "pekit import: \(error)")
    }
    // What the shell feeds curl's standard input (`< file`, `<<EOF`, `echo … |`) is what -K -,
    // -d @- and -T - read.
    if let standardInput = shell.standardInput { StandardInput.replacement = standardInput }
    var words = shell.words
    let first = words.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
    guard ["curl", "curl.exe"].contains((first as NSString).lastPathComponent) else {
        throw CommandFailure(message: "pekit import: this is not a curl command (it starts with '\(printable(first))')")
    }
    words.removeFirst()
    // Flags pekit does not take are refused; everything else is pekit request's.
    var kept: [[UInt8]] = [], dropped: [String] = []
    let takesValue = RequestOptions.takesValue
    var follows = false
    // curl's --next: the words before it are one request's (its options and URLs), those after
    // it the next's; each is handed on with its own -A and -L, the groups separated by --next.
    var groups: [[[UInt8]]] = []
    func closeGroup() {
        if !follows { kept.append(Array("--no-follow".utf8)) }
        groups.append([Array("-A".utf8), Array(PekitClient.curlUserAgent.utf8)] + kept)
        kept = []; follows = false
    }
    // curl reads its .curlrc first, unless the command starts with -q (--disable).
    let firstWord = words.first.map { String(decoding: $0, as: UTF8.self) }
    if firstWord == "-q" || firstWord == "--disable" {
        words.removeFirst()  // done: no .curlrc
    } else if let path = CurlConfig.defaultFile(environment: { ProcessInfo.processInfo.environment[$0] }) {
        Output.stderr.line("pekit import: read \(printable(path)), as curl reads it without -q first")
        words = try curlConfigWords(path, takesValue: takesValue, depth: 0) + words
    }
    // curl 8's --variable and --expand-OPTION, across the whole command (its --next parts too).
    var variables = CurlVariables(command: "import")
    defer { for warning in variables.warnings { Output.stderr.line("pekit import: warning: \(printable(warning))") } }
    // A flag's value is the next word whatever it looks like (curl's --data-raw '------Webkit…').
    var valueNext = false
    var urlGiven = false
    var index = 0
    while index < words.count {
        var raw = words[index]
        index += 1
        if valueNext {
            kept.append(raw)
            valueNext = false
            continue
        }
        var word = String(decoding: raw, as: UTF8.self)
        if word.hasPrefix("-") && word != "-" {
            var name = word.hasPrefix("--") ? String(word.split(separator: "=", maxSplits: 1)[0]) : String(word.prefix(2))
            if word.hasPrefix("--"), let full = try curlLongName(name, takesValue: takesValue), full != name {
                word = full + word.dropFirst(name.count)
                raw = Array(word.utf8)
                name = full
            }
            if ignoredCurlFlags.contains(name) { dropped.append(word); continue }
            // --variable NAME=TEXT: set, and gone from the command.
            if name == "--variable" {
                let attached = word.contains("=") && word.hasPrefix("--variable=") ? Array(raw.dropFirst("--variable=".utf8.count)) : nil
                guard let value = attached ?? (index < words.count ? words[index] : nil) else {
                    throw CommandFailure(message: "pekit import: --variable needs NAME=TEXT", status: 2)
                }
                if attached == nil { index += 1 }
                try variables.set(value, environment: environment, readInput: readAllInput)
                continue
            }
            // --expand-OPTION VALUE: OPTION with VALUE's {{names}} replaced, read again as written so.
            if name.hasPrefix("--expand-") {
                let option = try curlLongName("--" + name.dropFirst("--expand-".count), takesValue: takesValue) ?? "--" + name.dropFirst("--expand-".count)
                guard takesValue[option] == true || curlOwnNames.contains(option) else {
                    throw CommandFailure(message: "pekit import: \(name): \(option) takes no value to expand (or is not something pekit takes)", status: 2)
                }
                let equals = raw.firstIndex(of: 0x3D)
                guard let value = equals.map({ Array(raw[($0 + 1)...]) }) ?? (index < words.count ? words[index] : nil) else {
                    throw CommandFailure(message: "pekit import: \(name) needs a value", status: 2)
                }
                let expanded = try variables.expand(value)
                if equals != nil {
                    words[index - 1] = Array((option + "=").utf8) + expanded
                    index -= 1
                } else {
                    words[index - 1] = Array(option.utf8)
                    words[index] = expanded
                    index -= 1
                }
                continue
            }
            // -K FILE: the file's options take the flag's place, as curl reads them.
            if name == "-K" || name == "--config" {
                let attached = word.hasPrefix("--") ? word.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init) : (word.count > 2 ? String(word.dropFirst(2)) : nil)
                guard let path = attached ?? (index < words.count ? String(decoding: words[index], as: UTF8.self) : nil) else {
                    throw CommandFailure(message: "pekit import: \(name) needs a file (curl's config file)")
                }
                if attached == nil { index += 1 }
                words.insert(contentsOf: try curlConfigWords(path, takesValue: takesValue, depth: 0), at: index)
                continue
            }
            // curl's --next before any URL starts nothing (a .curlrc may begin with it).
            if name == "--next" || name == "-:" {
                if urlGiven { closeGroup(); urlGiven = false } else { dropped.append(word) }
                continue
            }
            if name == "--url" { urlGiven = true }
            if name == "--request" { kept.append(Array("-X".utf8)); valueNext = true; continue }
            // curl's --raw (no decoding) is pekit's --raw-transfer; pekit's own --raw is a preview.
            if word == "--raw" { kept.append(Array("--raw-transfer".utf8)); continue }
            // curl's `--no-NAME` for a flag that takes no value (tool_getparam.c): NAME turned
            // off. One pekit takes is handed on (pekit request reads the same rule); another of
            // curl's is off already, so the word changes nothing pekit sends.
            if name.hasPrefix("--no-"), takesValue[name] == nil, CurlFlagTable.reason(for: name) == nil,
               let positive = try curlLongName("--" + name.dropFirst("--no-".count), takesValue: takesValue) {
                let isFlag = takesValue[positive].map { !$0 } ?? curlFlagList.contains { "--" + $0.long == positive && $0.argument.isEmpty }
                guard isFlag else {
                    throw CommandFailure(message: "pekit import: curl's \(name): \(positive) takes a value, so it has no --no- form (curl stops here too)", status: 2)
                }
                if positive == "--location" || positive == "--location-trusted" { follows = false }
                if takesValue[positive] != nil { kept.append(Array(("--no-" + positive.dropFirst(2)).utf8)) } else { dropped.append(word) }
                continue
            }
            guard let takes = takesValue[name] else {
                let why = CurlFlagTable.reason(for: name).map { " (\($0))" } ?? " (yet)"
                throw CommandFailure(message: "pekit import: curl's \(name) is not something pekit takes\(why); the command was not imported")
            }
            if word.hasPrefix("--") {
                valueNext = takes && !word.contains("=")
                if name == "--location" || name == "--location-trusted" { follows = true }  // curl: "like -L"
            } else {
                // Bundled short flags (-sSL, -XPOST): the first that takes a value takes the rest
                // of the word, or the next word when it ends the bundle.
                let letters = Array(word.dropFirst())
                let at = letters.firstIndex(where: { takesValue["-\($0)"] == true })
                if let at { valueNext = at == letters.count - 1 }
                if letters[..<(at ?? letters.count)].contains("L") { follows = true }
            }
        } else {
            urlGiven = true
        }
        kept.append(raw)
    }
    // curl follows redirects only with -L, and sends its own User-Agent unless told otherwise
    // (first, so that the command's own -A, read last, wins as in curl).
    closeGroup()
    // The environment variables curl 8's --variable %NAME read are the script's to read too.
    var read = shell
    for name in variables.environmentNames where !read.variables.contains(name) { read.variables.append(name) }
    for (name, value) in variables.environmentDefaults where read.defaults[name] == nil { read.defaults[name] = value }
    return (Array(groups.map { [curlNextMark] + $0 }.joined().dropFirst()), dropped, read)
}

/// What separates the requests of a command with curl's --next in `curlArguments`' words: a
/// word no shell word can be (it holds a NUL byte).
let curlNextMark: [UInt8] = [0] + Array("--next".utf8)

/// The requests of `curlArguments`' words: one list of arguments each.
func curlRequests(_ arguments: [[UInt8]]) -> [[[UInt8]]] {
    arguments.split(separator: curlNextMark, omittingEmptySubsequences: false).map(Array.init)
}
