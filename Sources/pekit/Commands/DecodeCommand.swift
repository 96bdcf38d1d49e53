import PekitCore

let decodeCommand = Command(
    name: "decode",
    summary: "decode percent-encoded strings",
    synopsis: """
    usage: pekit decode [--plus] [--strict] [--utf8] [--unicode-escapes] [--binary] [STRING...]

    Decodes each STRING, or each line of standard input when no STRING is given, and prints the
    decoded bytes, one result per line. By default a '%' that does not start a valid escape is
    kept as it is, as browsers do. A line's CR LF ending is removed whole; --binary keeps the CR.
    """,
    sections: { [HelpSection("options:", DecodeOptions.all)] },
    epilogue: """
    examples:
      pekit decode 'a%20b%E6%B1%89'          # a b汉
      pekit decode --plus 'q=a+b%26c'        # q=a b&c
      pekit decode --strict '100%zz'         # fails, naming byte 4

    exit status: 0 on success, 1 when a string cannot be decoded, 2 on a usage error.
    """,
    run: runDecode
)

/// `pekit decode`'s options, in the order its help shows them.
enum DecodeOptions {
    static let plus = Option("plus", "decode '+' as a space (HTML form data)")
    static let strict = Option("strict", "fail on '%' not followed by two hex digits, naming the byte")
    static let utf8 = Option("utf8", "fail when the decoded bytes are not valid UTF-8")
    static let unicodeEscapes = Option("unicode-escapes", "also decode the non-standard %uXXXX form of JavaScript's escape()")
    static let binary = Option("binary", "lines of standard input end at LF only (a CR before it is data)")
    static let all: [Option] = [plus, strict, utf8, unicodeEscapes, binary, .help]
}

private func runDecode(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try decodeCommand.parse(args)
    if parsed.has(.help) { Output.stdout.line(decodeCommand.help); return 0 }
    let decoder = PercentDecoder(mode: parsed.has(DecodeOptions.strict) ? .strict : .lenient, plusAsSpace: parsed.has(DecodeOptions.plus),
                                 requiresUTF8: parsed.has(DecodeOptions.utf8), decodesUnicodeEscapes: parsed.has(DecodeOptions.unicodeEscapes))
    let newline: [UInt8] = [0x0A]
    func decode(_ bytes: [UInt8], _ place: String) throws {
        do {
            Output.stdout.write(try decoder.decode(bytes: bytes)); Output.stdout.write(newline)
        } catch let error as PercentDecodingError {
            throw CommandFailure(message: "pekit decode: \(place): \(error)")
        }
    }
    if parsed.positionals.isEmpty {
        try forEachInputLine(keepCR: parsed.has(DecodeOptions.binary)) { line, number in try decode(line, "line \(number)") }
    } else {
        for (index, bytes) in parsed.rawPositionals.enumerated() { try decode(bytes, "argument \(index + 1)") }
    }
    return 0
}
