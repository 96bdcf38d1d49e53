/// Models configured by option name, under each server's own names (qs's `allowDots`, Python's
/// `keep_blank_values`), from the CLI's `--set` and Lua's option tables alike. Each option is one
/// row (`.flag("allowDots", \.allowDots)`) in its parser's file; `QueryServer.models` registers
/// the rows, and `--set`, Lua tables, `--help`, completion and the docs read them from there.
extension QueryServer {
    /// One option of a model: its name, what it takes, and how a value sets it.
    public struct Option: @unchecked Sendable {
        /// The option's name, as the server spells it (`allowDots`, `keep_blank_values`).
        public let name: String
        /// What the option takes, as errors and `--help` say it (`true or false`).
        public let takes: String
        let apply: (inout QueryServer, OptionValue) throws -> Void
    }

    /// The option row of a model whose parser is `Parser`: made with `.flag`, `.integer`,
    /// `.text`, `.choice` or `.custom`, erased to an `Option` by the model's registration.
    public struct OptionRow<Parser>: Sendable {
        let name: String
        let takes: String
        let apply: @Sendable (inout Parser, OptionValue) throws -> Void

        /// `true` or `false`.
        public static func flag(_ name: String, _ path: WritableKeyPath<Parser, Bool> & Sendable) -> OptionRow {
            OptionRow(name: name, takes: OptionValue.flagText) { parser, value in parser[keyPath: path] = try value.flag() }
        }

        /// A whole number in `range` (a float with an integral value too, as Lua and JSON give it).
        public static func integer(_ name: String, _ path: WritableKeyPath<Parser, Int> & Sendable, _ range: ClosedRange<Int64> = 0...Int64.max) -> OptionRow {
            OptionRow(name: name, takes: OptionValue.rangeText(range)) { parser, value in parser[keyPath: path] = try value.integer(range) }
        }

        /// A whole number from 0, where the parser's default is no limit.
        public static func integer(_ name: String, _ path: WritableKeyPath<Parser, Int?> & Sendable) -> OptionRow {
            OptionRow(name: name, takes: OptionValue.rangeText(0...Int64.max)) { parser, value in parser[keyPath: path] = try value.integer() }
        }

        /// A string (non-empty unless `nonEmpty` is false).
        public static func text(_ name: String, _ path: WritableKeyPath<Parser, ByteString> & Sendable, nonEmpty: Bool = true) -> OptionRow {
            OptionRow(name: name, takes: OptionValue.textText(nonEmpty)) { parser, value in parser[keyPath: path] = try value.text(nonEmpty: nonEmpty) }
        }

        /// A non-empty string, where the parser's default is its own.
        public static func text(_ name: String, _ path: WritableKeyPath<Parser, ByteString?> & Sendable) -> OptionRow {
            OptionRow(name: name, takes: OptionValue.textText(true)) { parser, value in parser[keyPath: path] = try value.text() }
        }

        /// One of a string enumeration's values.
        public static func choice<T: RawRepresentable & CaseIterable & Sendable>(_ name: String, _ path: WritableKeyPath<Parser, T> & Sendable) -> OptionRow where T.RawValue == String {
            OptionRow(name: name, takes: alternatives(T.allCases.map(\.rawValue))) { parser, value in parser[keyPath: path] = try value.choice(T.self) }
        }

        /// An option read its own way; `takes` says what it takes.
        public static func custom(_ name: String, takes: String, _ apply: @escaping @Sendable (inout Parser, OptionValue) throws -> Void) -> OptionRow {
            OptionRow(name: name, takes: takes, apply: apply)
        }

        /// An option only a Lua script can give (a function, a pattern): from elsewhere, an error.
        public static func lua(_ name: String, takes: String) -> OptionRow {
            OptionRow(name: name, takes: takes) { _, value in throw value.fail(takes + " (set from Lua)") }
        }
    }

    /// A value given for an option, and the readers the rows use: a wrong value is an
    /// `OptionError` naming the option and what it takes.
    public struct OptionValue {
        /// The option's name.
        public let option: String
        /// The value given.
        public let value: PekitValue

        static let flagText = "true or false"
        static func rangeText(_ range: ClosedRange<Int64>) -> String { wholeNumber(in: range) }
        static func textText(_ nonEmpty: Bool) -> String { nonEmpty ? "a non-empty string" : "a string" }

        /// `expected …, got …`, with the value as the user wrote it.
        public func fail(_ expected: String) -> OptionError {
            let got: String
            switch value {
            case .string(let s): got = "\"\(s)\""
            case .integer(let n): got = String(n)
            case .bigInteger(let digits): got = digits
            case .number(let x): got = "\(x)"
            case .boolean(let b): got = String(b)
            default: got = value.kindWithArticle
            }
            return OptionError(option: option, message: "expected \(expected), got \(got)")
        }

        /// The value as a boolean.
        /// - Throws: `OptionError` for any other value.
        public func flag() throws -> Bool {
            guard case .boolean(let b) = value else { throw fail(Self.flagText) }
            return b
        }

        /// The value as a whole number in `range` (a double with no fraction counts).
        /// - Throws: `OptionError` for any other value.
        public func integer(_ range: ClosedRange<Int64> = 0...Int64.max) throws -> Int {
            switch value {
            case .integer(let n) where range.contains(n): return Int(n)
            case .number(let x) where x == x.rounded() && x >= Double(range.lowerBound) && x <= Double(range.upperBound): return Int(x)
            default: throw fail(Self.rangeText(range))
            }
        }

        /// The value as a string, empty only when `nonEmpty` is false.
        /// - Throws: `OptionError` for any other value.
        public func text(nonEmpty: Bool = true) throws -> ByteString {
            guard case .string(let s) = value, !nonEmpty || !s.isEmpty else { throw fail(Self.textText(nonEmpty)) }
            return s
        }

        /// The value as one of `type`'s cases, by raw value.
        /// - Throws: `OptionError` listing the cases for any other value.
        public func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws -> T where T.RawValue == String {
            guard case .string(let s) = value, let v = T(rawValue: s.description) else {
                throw fail(alternatives(T.allCases.map(\.rawValue)))
            }
            return v
        }
    }

    /// The model called `name` with `options` applied (qs's `decoder` and a pattern `delimiter`
    /// are Lua functions and patterns, which the Lua host sets itself).
    /// - Throws: `QueryError` for an unknown server; `OptionError` naming an unknown option, or
    ///   the option and what it takes.
    public static func named(_ name: String, options: [(name: String, value: PekitValue)]) throws -> QueryServer {
        try named(name).setting(options)
    }

    /// `qs` reading what `policy` writes, with qs's options applied.
    /// - Throws: `OptionError`.
    public static func qs(policy: Policy, options: [(name: String, value: PekitValue)]) throws -> QueryServer {
        try QueryServer.qs(QSParser(policy: policy)).setting(options)
    }

    /// A bad option: which, and what is wrong (`expected true or false, got "yes"`).
    public struct OptionError: Error, Equatable, CustomStringConvertible {
        /// The option's name.
        public let option: String
        /// What is wrong with the value.
        public let message: String
        public var description: String { "option \"\(option)\": \(message)" }
    }

    /// This model with `options` applied, in order.
    /// - Throws: `OptionError` naming an unknown option, or the option and what it takes.
    public func setting(_ options: [(name: String, value: PekitValue)]) throws -> QueryServer {
        var server = self
        let model = self.model
        for (option, value) in options {
            guard let row = model.options.first(where: { $0.name == option }) else {
                let known = model.optionNames
                throw OptionError(option: option, message: "\(name) has no such option" + (known.isEmpty ? " (it has none)" : " (known: \(known.joined(separator: ", ")))"))
            }
            try row.apply(&server, OptionValue(option: option, value: value))
        }
        return server
    }
}
