extension StringProtocol {
    /// Without the spaces and tabs at either end (HTTP's optional whitespace, RFC 9110 §5.6.3):
    /// what Foundation's trimming would do for a field value, without Foundation.
    package var trimmingOWS: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return String(s)
    }
}
