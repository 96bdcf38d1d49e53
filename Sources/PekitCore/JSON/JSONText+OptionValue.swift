extension JSONText {
    /// An option's value as a command line writes it (`--set keep_blank_values=true`,
    /// `--filter 'x:strict=false,max=3'`): JSON where the text parses as JSON (`true`, `3`,
    /// `"quoted"`, `[1, 2]`), the text itself otherwise (`^_ga`, `203.0.113.7`). One reading for
    /// every option a command line hands to a model or a plugin, so `false` is never the string
    /// "false" (which Lua takes as true).
    package static func optionValue(_ text: String) -> PekitValue {
        (try? parse(Array(text.utf8), maxDepth: 64, duplicates: .last)) ?? .text(text)
    }
}
