import PekitCore
import PekitLua

let encodeCommand = Command(
    name: "encode",
    summary: "percent-encode strings (RFC 3986 by default)",
    help: """
    usage: pekit encode [--policy NAME] [--set NAME] [--allow CHARS] [--space plus|percent|+|%20] [--lower]
                        [--keep-escapes] [--binary] [--plugins DIR] [STRING...]

    Percent-encodes each STRING (its bytes, as the shell passed them), or each line of standard
    input when no STRING is given, and prints one result per line. A line's CR LF ending is
    removed whole (as Python's text mode reads it); --binary keeps the CR, to be encoded as %0D.

    options:
      --policy NAME     start from a named policy: a plugin in plugins/NAME.lua or a built-in one
                        (rfc3986, afnetworking, foundation-query, form, oauth1, aws-sigv4)
      --set NAME        the allowed set to use (default: the policy's, else unreserved):
                        \(AllowedSet.presetNames.joined(separator: ", "))
      --allow CHARS     also allow these ASCII characters: --allow '/?' is Python's quote(s, safe='/?')
      --space plus      write a space as '+' (then a literal '+' is always %2B); '+' too;
                        'percent' or '%20' gives %20 (the same words plugins use)
      --lower           lower-case hex digits (%2f)
      --keep-escapes    keep valid %XX escapes already in the input instead of encoding their '%'
      --binary          lines of standard input end at LF only (a CR before it is data)
      --plugins DIR     search DIR for plugins first
      -h, --help        show this help

    examples:
      pekit encode '汉字&ss'                     %E6%B1%89%E5%AD%97%26ss
      pekit encode --set afnetworking 'a b/?'   a%20b/?
      pekit encode --set form 'a b&c'           a+b%26c
    """,
    run: runEncode
)

private func runEncode(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try Arguments(args, command: "encode", options: [
        .init(name: "set", short: nil, takesValue: true),
        .init(name: "allow", short: nil, takesValue: true),
        .init(name: "space", short: nil, takesValue: true),
        .init(name: "lower", short: nil, takesValue: false),
        .init(name: "keep-escapes", short: nil, takesValue: false),
        .init(name: "policy", short: nil, takesValue: true),
        pluginsOption,
        .init(name: "binary", short: nil, takesValue: false),
        .init(name: "help", short: "h", takesValue: false),
    ])
    if parsed.has("help") { Output.stdout.line(encodeCommand.help); return 0 }
    let encoder = try makeEncoder(parsed)
    let newline: [UInt8] = [0x0A]
    if parsed.positionals.isEmpty {
        // Each line is encoded straight into the output buffer: nothing is allocated per line.
        try forEachInputLineBuffer(keepCR: parsed.has("binary")) { line, _ in
            var written = false
            _ = Output.stdout.write(reserving: PercentEncoder.maximumEncodedCount(line.count) + 1) { out in
                guard let n = encoder.encode(bytes: line, into: out) else { return 0 }
                out[n] = 0x0A
                written = true
                return n + 1
            }
            if !written { Output.stdout.write(encoder.encode(bytes: line)); Output.stdout.write(newline) }
        }
    } else {
        for bytes in parsed.rawPositionals {
            Output.stdout.write(encoder.encode(bytes: bytes)); Output.stdout.write(newline)
        }
    }
    return 0
}

private func makeEncoder(_ parsed: Arguments) throws -> PercentEncoder {
    var encoder = PercentEncoder()
    if let policy = parsed.value("policy") {
        let runtime = try makeRuntime(extraPluginDirectories: parsed.all("plugins"))
        do { encoder = try runtime.encoder(policy: policy) } catch {
            throw CommandFailure(message: "pekit encode: \(error)")
        }
    }
    if let name = parsed.value("set") {
        guard let set = AllowedSet.preset(named: name) else {
            throw UsageError(command: "encode", message: "unknown set '\(name)' (known: \(AllowedSet.presetNames.joined(separator: ", ")))")
        }
        encoder.allowed = set
        if name == "form" { encoder.space = .plus }
    }
    for extra in parsed.all("allow") {
        do { encoder.allowed = encoder.allowed + (try AllowedSet(characters: extra)) } catch {
            throw UsageError(command: "encode", message: "--allow: \(error)")
        }
    }
    if let space = parsed.value("space") {
        guard let value = PercentEncoder.Space(name: space) else {
            throw UsageError(command: "encode", message: "--space takes \(PercentEncoder.Space.names.dropLast().joined(separator: ", ")) or \(PercentEncoder.Space.names.last ?? ""), not '\(space)'")
        }
        encoder.space = value
    }
    if parsed.has("lower") { encoder.hexCase = .lower }
    if parsed.has("keep-escapes") { encoder.keepsValidEscapes = true }
    return encoder
}
