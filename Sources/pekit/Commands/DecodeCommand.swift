import PekitCore

let decodeCommand = Command(
    name: "decode",
    summary: "decode percent-encoded strings",
    help: """
    usage: pekit decode [--plus] [--strict] [--utf8] [--unicode-escapes] [--binary] [STRING...]

    Decodes each STRING, or each line of standard input when no STRING is given, and prints the
    decoded bytes, one result per line. By default a '%' that does not start a valid escape is
    kept as it is, as browsers do. A line's CR LF ending is removed whole; --binary keeps the CR.

    options:
      --plus              decode '+' as a space (HTML form data)
      --strict            fail on '%' not followed by two hex digits, naming the byte
      --utf8              fail when the decoded bytes are not valid UTF-8
      --unicode-escapes   also decode the non-standard %uXXXX form of JavaScript's escape()
      --binary            lines of standard input end at LF only (a CR before it is data)
      -h, --help          show this help

    examples:
      pekit decode 'a%20b%E6%B1%89'          # a b汉
      pekit decode --plus 'q=a+b%26c'        # q=a b&c
      pekit decode --strict '100%zz'         # fails, naming byte 4

    exit status: 0 on success, 1 when a string cannot be decoded, 2 on a usage error.
    """,
    run: runDecode
)

private func runDecode(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try Arguments(args, command: "decode", options: [
        .init(name: "plus", short: nil, takesValue: false),
        .init(name: "strict", short: nil, takesValue: false),
        .init(name: "utf8", short: nil, takesValue: false),
        .init(name: "unicode-escapes", short: nil, takesValue: false),
        .init(name: "binary", short: nil, takesValue: false),
        .init(name: "help", short: "h", takesValue: false),
    ])
    if parsed.has("help") { Output.stdout.line(decodeCommand.help); return 0 }
    let decoder = PercentDecoder(mode: parsed.has("strict") ? .strict : .lenient, plusAsSpace: parsed.has("plus"),
                                 requiresUTF8: parsed.has("utf8"), decodesUnicodeEscapes: parsed.has("unicode-escapes"))
    let newline: [UInt8] = [0x0A]
    func decode(_ bytes: [UInt8], _ place: String) throws {
        do {
            Output.stdout.write(try decoder.decode(bytes: bytes)); Output.stdout.write(newline)
        } catch let error as PercentDecodingError {
            throw CommandFailure(message: "pekit decode: \(place): \(error)")
        }
    }
    if parsed.positionals.isEmpty {
        try forEachInputLine(keepCR: parsed.has("binary")) { line, number in try decode(line, "line \(number)") }
    } else {
        for (index, bytes) in parsed.rawPositionals.enumerated() { try decode(bytes, "argument \(index + 1)") }
    }
    return 0
}
