/// JSON for people to read: indented (or on one line with a space after `:` and `,`), and
/// coloured as jq colours it when the reader is a terminal. What a program reads stays
/// `JSONText.write`'s bytes; this is only for display.
extension JSONText {
    /// How `display` writes a value.
    public struct DisplayStyle: Sendable {
        /// Spaces a level; nil writes one line.
        public var indent: Int?
        /// ANSI colours, or none.
        public var colors: Colors?

        /// Indented by `indent` spaces (nil: one line), coloured with `colors` (nil: none).
        public init(indent: Int? = 2, colors: Colors? = nil) {
            self.indent = indent
            self.colors = colors
        }

        /// SGR parameters (`"1;34"`) for each kind of token.
        public struct Colors: Sendable {
            /// The SGR parameters of each kind of token (`"1;34"` is bold blue).
            public var null, boolean, number, string, key, punctuation: String

            /// Colours for each kind of token.
            public init(null: String, boolean: String, number: String, string: String, key: String, punctuation: String) {
                self.null = null; self.boolean = boolean; self.number = number
                self.string = string; self.key = key; self.punctuation = punctuation
            }

            /// jq 1.7's defaults (`JQ_COLORS`): null grey, strings green, keys bold blue,
            /// brackets bold.
            public static let jq = Colors(null: "1;30", boolean: "0;39", number: "0;39", string: "0;32", key: "34;1", punctuation: "1;39")
        }
    }

    /// `value` as text for a person: see `DisplayStyle`. Bytes that are not UTF-8 are escaped
    /// as `JSONText.write` escapes them.
    public static func display(_ value: PekitValue, style: DisplayStyle = DisplayStyle()) -> [UInt8] {
        var out: [UInt8] = []
        display(value, style: style, depth: 0, into: &out)
        return out
    }

    private static func display(_ value: PekitValue, style: DisplayStyle, depth: Int, into out: inout [UInt8]) {
        func painted(_ code: String?, _ body: (inout [UInt8]) -> Void) {
            guard let code else { return body(&out) }
            out += Array("\u{1B}[\(code)m".utf8)
            body(&out)
            out += Array("\u{1B}[0m".utf8)
        }
        let colors = style.colors
        func punctuation(_ byte: UInt8) { painted(colors?.punctuation) { $0.append(byte) } }
        func separator(_ level: Int, first: Bool) {
            if !first { punctuation(0x2C) }
            if let indent = style.indent {
                out.append(0x0A)
                out += [UInt8](repeating: 0x20, count: indent * level)
            } else if !first {
                out.append(0x20)
            }
        }
        switch value {
        case .null: painted(colors?.null) { $0 += Array("null".utf8) }
        case .boolean: painted(colors?.boolean) { write(value, into: &$0) }
        case .integer, .number, .bigInteger: painted(colors?.number) { write(value, into: &$0) }
        case .string(let s): painted(colors?.string) { writeString(s.bytes, into: &$0) }
        case .array(let items), .set(let items):
            punctuation(0x5B)
            guard !items.isEmpty else { return punctuation(0x5D) }
            for (i, item) in items.enumerated() {
                separator(depth + 1, first: i == 0)
                display(item, style: style, depth: depth + 1, into: &out)
            }
            if style.indent != nil { separator(depth, first: true) }
            punctuation(0x5D)
        case .map(let map):
            punctuation(0x7B)
            guard !map.entries.isEmpty else { return punctuation(0x7D) }
            for (i, entry) in map.entries.enumerated() {
                separator(depth + 1, first: i == 0)
                painted(colors?.key) { writeString(entry.key.bytes, into: &$0) }
                punctuation(0x3A)
                out.append(0x20)
                display(entry.value, style: style, depth: depth + 1, into: &out)
            }
            if style.indent != nil { separator(depth, first: true) }
            punctuation(0x7D)
        }
    }
}
