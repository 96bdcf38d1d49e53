extension StringProtocol {
    /// Without the spaces and tabs at either end (HTTP's optional whitespace, RFC 9110 §5.6.3),
    /// as a slice of the text: what Foundation's trimming would do for a field value, without
    /// Foundation. The one trim of this kind in pekit (headers, cookie files, .env files, OAuth).
    package var trimmingOWS: SubSequence {
        var s = self[...]
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}
