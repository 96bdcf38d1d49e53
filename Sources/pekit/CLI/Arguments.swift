#if canImport(Glibc)
import Glibc
#endif
import PekitCore

/// A command's options, as `--list-options` lists them (one a line: `-X, --method VALUE`).
struct OptionTable: Error {
    let options: [Option]

    var lines: [String] {
        options.map { $0.forms.joined(separator: ", ") + ($0.takesValue ? " VALUE" : "") }
    }
}

/// A small argument parser: long options with or without values, `--opt=value`, `--` to end
/// options, repeated options kept in order, and short aliases.
struct Arguments {

    private(set) var values: [(name: String, value: String?)] = []
    /// Each option value as the bytes given, in the order of `values`.
    private(set) var rawValues: [(name: String, value: [UInt8]?)] = []
    private(set) var positionals: [String] = []
    /// The positionals as the bytes given (invalid UTF-8 kept).
    private(set) var rawPositionals: [[UInt8]] = []
    /// The names in the option table: asking for another one is a mistake in pekit (a typo would
    /// read as "not given"), caught by the debug builds the tests run.
    private let known: [String]

    /// Parses `raw` (the command line's bytes) for `command`. Option names are ASCII; values
    /// and positionals keep their bytes in `rawValues`/`rawPositionals`, and are text (invalid
    /// UTF-8 repaired) in `values`/`positionals`.
    /// - Parameter stopAtFirstPositional: everything after the first positional is positional (for `run`).
    /// - Parameter prefixes: a long option may be any unambiguous start of its name (`--sil` for
    ///   `--silent`), as curl reads its options (`pekit request`).
    /// - Throws: `UsageError` naming the unknown option, an ambiguous start, or the missing value.
    init(_ raw: [[UInt8]], command: String, options: [Option], stopAtFirstPositional: Bool = false, prefixes: Bool = false) throws {
        let args = raw.map { String(decoding: $0, as: UTF8.self) }
        known = options.map { $0.name }
        // `pekit COMMAND --list-options`: the option table itself (for shell completion, and
        // for the test that holds every command's help to it), thrown to the caller to print.
        if args == ["--list-options"] { throw OptionTable(options: options) }
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                positionals.append(arg)
                rawPositionals.append(raw[i - 1])
                if stopAtFirstPositional { onlyPositionals = true }
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            var name: String
            var inlineValue: String?
            if arg.hasPrefix("--") {
                name = String(arg.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
            } else {
                // Short flags as curl and getopt take them: bundled (-sSL, -ik) and with the
                // value attached (-XPOST, -H'X: 1', -ujohn:pw); a flag that takes a value ends
                // the bundle. The last flag of a bundle is handled below, as a lone one is.
                let flags = Array(arg.utf8.dropFirst())
                var last: Option?
                for k in flags.indices {
                    guard flags[k] < 0x80, let option = options.first(where: { $0.short == Character(Unicode.Scalar(flags[k])) }) else {
                        let shown = flags[k] < 0x80 ? "-" + String(Unicode.Scalar(flags[k])) : arg
                        throw UsageError(command: command, message: "unknown option '\(shown)'" + (flags.count > 1 && flags[k] < 0x80 ? " (in '\(arg)')" : ""))
                    }
                    if option.takesValue {
                        if k + 1 < flags.count {
                            let bytes = Array(raw[i - 1].dropFirst(k + 2))
                            values.append((option.name, String(decoding: bytes, as: UTF8.self)))
                            rawValues.append((option.name, bytes))
                        } else {
                            last = option
                        }
                        break
                    }
                    if k == flags.count - 1 { last = option } else {
                        if let negation = option.negation { remove(negation) }
                        values.append((option.name, nil))
                        rawValues.append((option.name, nil))
                    }
                }
                guard let last else { continue }
                name = last.name
            }
            if prefixes, arg.hasPrefix("--"), !options.contains(where: { $0.name == name }), name.hasPrefix("no-") {
                // curl's rule for its boolean options (tool_getparam.c): `--no-NAME` turns NAME
                // off, NAME found as any other long option is (a unique start will do).
                let positive = String(name.dropFirst(3))
                let starting = options.filter { $0.name.hasPrefix(positive) }
                if let option = options.first(where: { $0.name == positive }) ?? (starting.count == 1 ? starting.first : nil) {
                    guard !option.takesValue else {
                        throw UsageError(command: command, message: "option '\(arg)': --\(option.name) takes a value, so it has no --no- form (curl's rule)")
                    }
                    guard inlineValue == nil else { throw UsageError(command: command, message: "option '\(arg)' takes no value") }
                    turnOff(option)
                    continue
                }
            }
            if prefixes, arg.hasPrefix("--"), !options.contains(where: { $0.name == name }) {
                // curl's rule (tool_getparam.c): a start that only one long option has is that option.
                let starting = options.filter { $0.name.hasPrefix(name) }
                if starting.count > 1 {
                    throw UsageError(command: command, message: "option '--\(name)' is ambiguous: " + starting.map { "--" + $0.name }.joined(separator: ", "))
                }
                if let only = starting.first { name = only.name }
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError(command: command, message: Suggestion.message("unknown option '\(arg)'", for: "--" + name,
                                                                                among: options.map { "--" + $0.name }))
            }
            if option.takesValue {
                if let inlineValue {
                    values.append((name, inlineValue))
                    // The bytes after "=" (option names are ASCII, so "=" is found byte for byte).
                    let bytes = raw[i - 1]
                    rawValues.append((name, bytes.firstIndex(of: 0x3D).map { Array(bytes[($0 + 1)...]) } ?? []))
                } else {
                    guard i < args.count else { throw UsageError(command: command, message: "option '\(arg)' needs a value") }
                    values.append((name, args[i]))
                    rawValues.append((name, raw[i]))
                    i += 1
                }
            } else {
                guard inlineValue == nil else { throw UsageError(command: command, message: "option '--\(name)' takes no value") }
                // A flag after its `--no-` form given earlier: the last wins.
                if let negation = option.negation { remove(negation) }
                values.append((name, nil))
                rawValues.append((name, nil))
            }
        }

        /// `--no-NAME`: the flag given before is undone, and its negation (if it has one) given.
        func turnOff(_ option: Option) {
            remove(option.name)
            if let negation = option.negation {
                values.append((negation, nil))
                rawValues.append((negation, nil))
            }
        }
        func remove(_ name: String) {
            values.removeAll { $0.name == name }
            rawValues.removeAll { $0.name == name }
        }
    }

    /// Whether the option was given.
    func has(_ option: Option) -> Bool { has(named: option.name) }
    /// The last value given for the option.
    func value(_ option: Option) -> String? { value(named: option.name) }
    /// Every value given for the option, in order.
    func all(_ option: Option) -> [String] { all(named: option.name) }
    /// Every value given for any of `options`, with its option, in the order given (-F and
    /// --form-string parts interleave as written).
    func all(_ options: [Option]) -> [(option: Option, value: String)] {
        options.forEach { checked($0.name) }
        return values.compactMap { given in
            guard let value = given.value, let option = options.first(where: { $0.name == given.name }) else { return nil }
            return (option, value)
        }
    }
    /// Which of `options` was given last (curl's rule for a flag and its `--no-` twin), or nil.
    func last(of options: [Option]) -> Option? {
        options.forEach { checked($0.name) }
        return values.last { given in options.contains { $0.name == given.name } }.flatMap { given in options.first { $0.name == given.name } }
    }
    /// The options given, each once, in their rows' order among `options`.
    func given(_ options: [Option]) -> [Option] { options.filter(has) }

    /// By name, for the rows that come from elsewhere (a send option's flags, `SendOptions.fields`).
    func has(named name: String) -> Bool { checked(name); return values.contains { $0.name == name } }
    func value(named name: String) -> String? { checked(name); return values.last { $0.name == name }?.value ?? nil }
    func all(named name: String) -> [String] { checked(name); return values.compactMap { $0.name == name ? $0.value : nil } }

    private func checked(_ name: String) {
        assert(known.contains(name), "pekit: --\(name) is not in this command's option table")
    }

    /// Refuses file names that are not UTF-8 (in the values of `options` and the positionals at
    /// `positionals`): pekit opens files by their names as text, and a repaired name (U+FFFD)
    /// would be another file, so the command stops before touching any.
    /// - Throws: `CommandFailure` showing the name with its bytes escaped.
    func requireTextPaths(command: String, options: [Option] = [], positionals indices: [Int] = []) throws {
        let names = options.map { $0.name }
        let named = rawValues.filter { names.contains($0.name) }.compactMap { $0.value }
        let given = indices.filter { $0 < rawPositionals.count }.map { rawPositionals[$0] }
        for bytes in named + given where String(validating: bytes, as: UTF8.self) == nil {
            throw CommandFailure(message: "pekit \(command): the file name \"\(PercentDecodingError.printable(bytes))\" is not UTF-8, which pekit cannot open by name; rename the file")
        }
    }
}
