#if canImport(Glibc)
import Glibc
#endif
import PekitCore
import PekitLua

let encodeCommand = Command(
    name: "encode",
    summary: "percent-encode strings (RFC 3986 by default)",
    synopsis: """
    usage: pekit encode [--policy NAME] [--set NAME] [--allow CHARS] [--disallow CHARS] [--space plus|percent|+|%20] [--lower]
                        [--keep-escapes] [--binary] [--explain] [--plugins DIR] [STRING...]

    Percent-encodes each STRING (its bytes, as the shell passed them), or each line of standard
    input when no STRING is given, and prints one result per line. A line's CR LF ending is
    removed whole (as Python's text mode reads it); --binary keeps the CR, to be encoded as %0D.
    With --explain, says for each character why it was kept or escaped (the set, the option
    that changed it, RFC 3986's name for it, the URL Standard's sets that escape it), then how
    each server reads the result back as a value, and the rule behind every change.
    """,
    sections: { [HelpSection("options:", EncodeOptions.all)] },
    epilogue: """
    examples:
      pekit encode '汉字&ss'                     %E6%B1%89%E5%AD%97%26ss
      pekit encode --set afnetworking 'a b/?'   a%20b/?
      pekit encode --set form 'a b&c'           a+b%26c
      pekit encode --explain --allow '+;' 'a+b;c'
    """,
    run: runEncode
)

/// `pekit encode`'s options.
private enum EncodeOptions {
    static let policy = Option("policy", value: "NAME", """
        start from a named policy: a plugin in plugins/NAME.lua or a built-in one
        (rfc3986, afnetworking, foundation-query, form, oauth1, aws-sigv4)
        """)
    static let set = Option("set", value: "NAME", """
        the allowed set to use (default: the policy's, else unreserved):
        \(AllowedSet.presetNames.joined(separator: ", "))
        """)
    static let allow = Option("allow", value: "CHARS", "also allow these ASCII characters: --allow '/?' is Python's quote(s, safe='/?')")
    static let disallow = Option("disallow", value: "CHARS", """
        encode these ASCII characters too, as charset - "&" does in Lua:
        --policy afnetworking --disallow '/?' encodes the two it leaves
        """)
    static let space = Option("space", value: "HOW", """
        plus or +: write a space as '+' (then a literal '+' is always %2B);
        percent or %20: as %20 (the same words plugins use)
        """)
    static let lower = Option("lower", "lower-case hex digits (%2f)")
    static let keepEscapes = Option("keep-escapes", "keep valid %XX escapes already in the input instead of encoding their '%'")
    static let binary = Option("binary", "lines of standard input end at LF only (a CR before it is data)")
    static let explain = Option("explain", "say why each character is kept or escaped, and how each server reads the result")
    static let all = [policy, set, allow, disallow, space, lower, keepEscapes, binary, explain, .plugins, .help]
}

private func runEncode(_ args: [[UInt8]]) throws -> Int32 {
    let parsed = try encodeCommand.parse(args)
    if parsed.has(.help) { Output.stdout.line(encodeCommand.help); return 0 }
    let (encoder, origin) = try makeEncoder(parsed)
    let newline: [UInt8] = [0x0A]
    if parsed.has(EncodeOptions.explain) {
        var inputs = parsed.rawPositionals
        if inputs.isEmpty {
            let dropCR = !parsed.has(EncodeOptions.binary)
            inputs = try readAllInput().split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
                Array(dropCR && line.last == 0x0D ? line.dropLast() : line)
            }
            if inputs.last?.isEmpty == true { inputs.removeLast() }
        }
        for (n, input) in inputs.enumerated() {
            if n > 0 { Output.stdout.line("") }
            Output.stdout.write(EncodingExplanationText.render(input, encoder: encoder, origin: origin))
        }
        return 0
    }
    if parsed.positionals.isEmpty {
        try encodeLines(encoder, dropCR: !parsed.has(EncodeOptions.binary))
    } else {
        for bytes in parsed.rawPositionals {
            Output.stdout.write(encoder.encode(bytes: bytes)); Output.stdout.write(newline)
        }
    }
    return 0
}

/// The encoder the options make, and the set it started from before --allow and --disallow
/// (what --explain names).
private func makeEncoder(_ parsed: Arguments) throws -> (PercentEncoder, AllowedSetOrigin) {
    var encoder = PercentEncoder()
    var origin = AllowedSetOrigin(base: .unreserved, name: "unreserved")
    if let policy = parsed.value(EncodeOptions.policy) {
        let runtime = try commandHost(extraPluginDirectories: parsed.all(.plugins))
        do { encoder = try runtime.encoder(policy: policy) } catch {
            throw CommandFailure(message: "pekit encode: \(error)")
        }
        origin = AllowedSetOrigin(base: encoder.allowed, name: "policy \(policy)'s")
    }
    if let name = parsed.value(EncodeOptions.set) {
        guard let set = AllowedSet.preset(named: name) else {
            throw UsageError(command: "encode", message: "unknown set '\(name)' (known: \(AllowedSet.presetNames.joined(separator: ", ")))")
        }
        encoder.allowed = set
        origin = AllowedSetOrigin(base: set, name: name)
        if name == "form" { encoder.space = .plus }
    }
    // In the order given: --allow '/' --disallow '/' leaves '/' encoded.
    for (name, value) in parsed.values where (name == EncodeOptions.allow.name || name == EncodeOptions.disallow.name) {
        do {
            let set = try AllowedSet(characters: value ?? "")
            encoder.allowed = name == EncodeOptions.allow.name ? encoder.allowed + set : encoder.allowed - set
        } catch {
            throw UsageError(command: "encode", message: "--\(name): \(error)")
        }
    }
    if let space = parsed.value(EncodeOptions.space) {
        guard let value = PercentEncoder.Space(name: space) else {
            throw UsageError(command: "encode", message: "--space takes \(PercentEncoder.Space.names.dropLast().joined(separator: ", ")) or \(PercentEncoder.Space.names.last ?? ""), not '\(space)'")
        }
        encoder.space = value
    }
    if parsed.has(EncodeOptions.lower) { encoder.hexCase = .lower }
    if parsed.has(EncodeOptions.keepEscapes) { encoder.keepsValidEscapes = true }
    return (encoder, origin)
}

/// Line mode: standard input read 256 KB at a time and encoded in one pass a buffer
/// (`PercentEncoder.encodeLines`: each line on its own, LF kept, a CR before it dropped unless
/// --binary), so nothing is done, or allocated, per line. A last line without an LF gets one.
private func encodeLines(_ encoder: PercentEncoder, dropCR: Bool) throws {
    let chunkSize = 1 << 18
    let input = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize + 2)
    let outputCount = PercentEncoder.maximumEncodedCount(chunkSize + 2)
    let output = UnsafeMutablePointer<UInt8>.allocate(capacity: outputCount)
    defer { input.deallocate(); output.deallocate() }
    var held = 0, sawInput = false, endsWithLF = true
    while true {
        let n = read(0, input + held, chunkSize)
        if n < 0 {
            if errno == EINTR { continue }
            throw CommandFailure(message: "cannot read standard input: \(cText(strerror(errno)))")
        }
        if n == 0 { break }
        sawInput = true
        let total = held + n
        // A CR or an escape's start that this buffer cuts waits for the next one.
        let keep = encoder.heldBack(UnsafeBufferPointer(start: input, count: total), dropCR: dropCR)
        let ready = total - keep
        let written = encoder.encodeLines(UnsafeBufferPointer(start: input, count: ready), into: output, dropCR: dropCR)
        Output.stdout.write(buffer: UnsafeBufferPointer(start: output, count: written))
        if ready > 0 { endsWithLF = input[ready - 1] == 0x0A }
        if keep > 0 { (input).update(from: input + ready, count: keep) }
        held = keep
    }
    if held > 0 {
        // The end of the last line, with nothing after it: a CR there is a line ending too.
        let count = dropCR && input[held - 1] == 0x0D ? held - 1 : held
        let written = encoder.encodeLines(UnsafeBufferPointer(start: input, count: count), into: output, dropCR: dropCR)
        Output.stdout.write(buffer: UnsafeBufferPointer(start: output, count: written))
        endsWithLF = false
    }
    if sawInput && !endsWithLF { Output.stdout.write(CollectionOfOne(0x0A)) }
}
