import XCTest

final class EncodeDecodeCommandTests: XCTestCase {
    func testEncodeArguments() throws {
        let r = try PekitProcess.run("encode", "汉字&ss", "a b", "")
        XCTAssertEqual(r.stdout, "%E6%B1%89%E5%AD%97%26ss\na%20b\n\n")
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.status, 0)
    }

    func testEncodeSetsAndOptions() throws {
        XCTAssertEqual(try PekitProcess.run("encode", "--set", "afnetworking", "~!@#$%^&*(){}", "/?", ":#[]@", "!$&'()*+,;=", " ").stdout,
                       "~%21%40%23%24%25%5E%26%2A%28%29%7B%7D\n/?\n%3A%23%5B%5D%40\n%21%24%26%27%28%29%2A%2B%2C%3B%3D\n%20\n")
        XCTAssertEqual(try PekitProcess.run("encode", "--set", "letters", "汉字&ss").stdout, "%E6%B1%89%E5%AD%97%26ss\n")
        XCTAssertEqual(try PekitProcess.run("encode", "--allow", "/?", "a/b?c d").stdout, "a/b?c%20d\n")
        XCTAssertEqual(try PekitProcess.run("encode", "--set=form", "a b+c").stdout, "a+b%2Bc\n")
        XCTAssertEqual(try PekitProcess.run("encode", "--space", "plus", "--lower", "a b/").stdout, "a+b%2f\n")
        XCTAssertEqual(try PekitProcess.run("encode", "--keep-escapes", "a%20b c").stdout, "a%20b%20c\n")
        XCTAssertEqual(try PekitProcess.run("encode", "--", "-x").stdout, "-x\n")
    }

    /// --explain: a row a character (why it is kept or escaped, RFC 3986's name for it, the URL
    /// Standard's sets that escape it), then how each server reads the result as a value, with
    /// the rule behind each change: '+' a space to every form decoder, Rack 2.2 splitting at
    /// ';', Go 1.17 dropping a pair with ';' (its release notes), qs leaving a value that is not
    /// UTF-8 undecoded, Python, the URL Standard and node writing U+FFFD for it.
    func testEncodeExplainSaysWhyAndHowEachServerReadsIt() throws {
        let r = try PekitProcess.run("encode", "--explain", "--allow", "+;", "a+;é")
        XCTAssertEqual(r.stdout, """
            input:   "a+;é"
            encoded: a+;%C3%A9

              char  bytes  written  why                                                                   RFC 3986               URL Standard sets that escape it
              a     61     a        kept: in the unreserved set                                           a letter (unreserved)  none
              +     2B     +        kept: not in the unreserved set, but allowed                          a sub-delimiter        component, form
              ;     3B     ;        kept: not in the unreserved set, but allowed                          a sub-delimiter        userinfo, component, form
              é     C3 A9  %C3%A9   escaped: not ASCII, each of its 2 UTF-8 bytes (RFC 3986 section 2.5)  not ASCII              all

            how each server reads it back as a value (explain=a+;%C3%A9):
              qs                "a ;é"                                           differs: '+' is a space to every form decoder (%2B is a '+')
              php               "a ;é"                                           differs: '+' is a space to every form decoder (%2B is a '+')
              rack              "a "                                             differs: ';' ends the value too: Rack 2.2 splits pairs at ';' as at '&'; '+' is a space to every form decoder (%2B is a '+')
              python            "a ;é"                                           differs: '+' is a space to every form decoder (%2B is a '+')
              go                no value (invalid semicolon separator in query)  differs: Go (1.17 on) drops a pair with a ';' in it and returns an error
              whatwg            "a ;é"                                           differs: '+' is a space to every form decoder (%2B is a '+')
              node-querystring  "a ;é"                                           differs: '+' is a space to every form decoder (%2B is a '+')

            """)
        XCTAssertEqual(r.status, 0)
        // Bytes that are not UTF-8, from standard input: each server's own reading.
        let bytes = try PekitProcess.run(["encode", "--explain"], stdin: [0x61, 0xFF, 0x0A]).stdout
        XCTAssert(bytes.contains("  \\xFF  FF     %FF      escaped: a byte that is not UTF-8, as it is"), bytes)
        XCTAssert(bytes.contains("  qs                \"a%FF\"   differs: qs leaves the value undecoded"), bytes)
        XCTAssert(bytes.contains("  php               \"a\\xFF\"  as sent"), bytes)
        XCTAssert(bytes.contains("  python            \"a\u{FFFD}\"     differs: bytes that are not UTF-8 become U+FFFD"), bytes)
    }

    func testEncodeStandardInputLinesAreBytes() throws {
        let r = try PekitProcess.run(["encode"], stdin: [0x61, 0x20, 0x0A, 0xFF, 0x00, 0x0A, 0x7A])
        XCTAssertEqual(r.stdout, "a%20\n%FF%00\nz\n")
        // CR LF lines (a file from Windows, a copy from a browser): the CR is part of the ending.
        let crlf: [UInt8] = Array("a b\r\nc\r\n".utf8)
        XCTAssertEqual(try PekitProcess.run(["encode"], stdin: crlf).stdout, "a%20b\nc\n")
        XCTAssertEqual(try PekitProcess.run(["encode", "--binary"], stdin: crlf).stdout, "a%20b%0D\nc%0D\n")
        XCTAssertEqual(try PekitProcess.run(["decode"], stdin: Array("a%20b\r\n".utf8)).stdout, "a b\n")
        XCTAssertEqual(try PekitProcess.run(["decode", "--binary"], stdin: Array("a%20b\r\n".utf8)).stdoutBytes, Array("a b\r\n".utf8))
    }

    func testDecode() throws {
        XCTAssertEqual(try PekitProcess.run("decode", "%E6%B1%89%E5%AD%97%26ss", "100%").stdout, "汉字&ss\n100%\n")
        XCTAssertEqual(try PekitProcess.run("decode", "--plus", "a+b%2B").stdout, "a b+\n")
        XCTAssertEqual(try PekitProcess.run("decode", "--unicode-escapes", "%u6C49").stdout, "汉\n")
        XCTAssertEqual(try PekitProcess.run(["decode", "%FF%00"]).stdoutBytes, [0xFF, 0x00, 0x0A])
    }

    func testDecodeErrorsNamePlaceAndExitOne() throws {
        let r = try PekitProcess.run("decode", "--strict", "ok", "abc%zz")
        XCTAssertEqual(r.stdout, "ok\n")
        XCTAssertEqual(r.stderr, "pekit decode: argument 2: invalid escape \"%zz\" at byte 4 (a % needs two hex digits; write %25 for a literal %)\n")
        XCTAssertEqual(r.status, 1)
        let s = try PekitProcess.run("decode", "--strict", stdin: "a\nb%2")
        XCTAssertEqual(s.stdout, "a\n")
        XCTAssertEqual(s.stderr, "pekit decode: line 2: incomplete escape \"%2\" at byte 2 (a % needs two hex digits; write %25 for a literal %)\n")
        XCTAssertEqual(s.status, 1)
        let u = try PekitProcess.run("decode", "--utf8", "%C3%28")
        XCTAssertEqual(u.stderr, "pekit decode: argument 1: decoded bytes are not valid UTF-8: \"%C3\" at byte 1\n")
        XCTAssertEqual(u.status, 1)
    }

    func testUsageErrorsExitTwo() throws {
        let cases: [([String], String)] = [
            (["encode", "--bogus"], "pekit encode: unknown option '--bogus' (see 'pekit encode --help')\n"),
            (["encode", "--set"], "pekit encode: option '--set' needs a value (see 'pekit encode --help')\n"),
            (["encode", "--set", "nope"], "pekit encode: unknown set 'nope' (known: unreserved, query, path, fragment, host, user, password, letters, alphanumerics, afnetworking, form) (see 'pekit encode --help')\n"),
            (["encode", "--allow", "é"], "pekit encode: --allow: character \"é\" at position 1 is not ASCII; non-ASCII text is always UTF-8 percent-encoded (see 'pekit encode --help')\n"),
            (["encode", "--space", "tab"], "pekit encode: --space takes %20, percent, + or plus, not 'tab' (see 'pekit encode --help')\n"),
            (["decode", "--lower"], "pekit decode: unknown option '--lower' (see 'pekit decode --help')\n"),
            (["frobnicate"], "pekit: unknown command 'frobnicate' (see 'pekit help')\n"),
            (["--frob"], "pekit: unknown option '--frob' (see 'pekit help')\n"),
        ]
        for (args, message) in cases {
            let r = try PekitProcess.run(args)
            XCTAssertEqual(r.stderr, message, "\(args)")
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertEqual(r.stdout, "", "\(args)")
        }
    }

    func testHelpAndVersion() throws {
        let version = try PekitProcess.run("--version")
        XCTAssertEqual(version.stdout, "pekit 0.1.0\n")
        let help = try PekitProcess.run("help")
        XCTAssertTrue(help.stdout.hasPrefix("usage: pekit <command> [options] [arguments]\n"))
        XCTAssertTrue(help.stdout.contains("\n  encode     percent-encode strings (RFC 3986 by default)\n"))
        let encodeHelp = try PekitProcess.run("encode", "--help")
        XCTAssertTrue(encodeHelp.stdout.hasPrefix("usage: pekit encode [--policy NAME] [--set NAME]"))
        XCTAssertEqual(try PekitProcess.run("help", "encode").stdout, encodeHelp.stdout)
        XCTAssertEqual(encodeHelp.status, 0)
        for flag in ["--help", "-h"] {
            let helpHelp = try PekitProcess.run("help", flag)
            XCTAssertEqual(helpHelp.stdout, help.stdout, "pekit help \(flag)")
            XCTAssertEqual(helpHelp.status, 0)
        }
    }

    /// Arguments are bytes: a byte that is not UTF-8 is that byte, not U+FFFD (the shell is
    /// used to pass it, since Foundation's Process takes arguments as Swift strings).
    func testArgumentsAreBytes() throws {
        func shell(_ script: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script, "sh", PekitProcess.binary.path]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        XCTAssertEqual(try shell(#""$1" encode "$(printf 'a\377b')""#), "a%FFb\n")
        XCTAssertEqual(try shell(#""$1" encode --policy form "$(printf '\377 ')""#), "%FF+\n")
        XCTAssertEqual(try shell(#""$1" run -e "$(printf 'print(#"\377")')""#), "1\n")
        XCTAssertEqual(try shell(#"printf 'print(#arg[1], arg[1]:byte())' > /tmp/pekit-argv-$$.lua; "$1" run /tmp/pekit-argv-$$.lua "$(printf '\376')"; rm -f /tmp/pekit-argv-$$.lua"#), "1\t254\n")
        // A file name that is not UTF-8 is refused, not repaired into another file's name.
        XCTAssertEqual(try shell(#"d=$(mktemp -d); cd "$d"; "$1" cookies receive "$(printf 'j\377.txt')" http://x.example/ a=1 2>&1; echo "exit $?"; ls -A; rm -rf "$d""#),
                       "pekit cookies: the file name \"j\\xFF.txt\" is not UTF-8, which pekit cannot open by name; rename the file\nexit 1\n")
    }

    /// Line mode in one pass a buffer: lines, CRs before LFs and escapes cut by the 256 KB reads
    /// come out as line-by-line encoding gives them (a reference encoder here, RFC 3986's set).
    func testLineModeAcrossReadBoundaries() throws {
        var rng = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [Array("a".utf8), Array(" ".utf8), [0x0D, 0x0A], [0x0A], [0x0D], Array("%4".utf8), Array("1".utf8),
                                 Array("%zz".utf8), Array("汉".utf8), Array("~-._".utf8), Array("%41".utf8)]
        var input: [UInt8] = []
        while input.count < 700_000 { input += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
        func unreserved(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || "-._~".utf8.contains(b) }
        func hex(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || (0x41...0x46).contains(b) || (0x61...0x66).contains(b) }
        func reference(keepEscapes: Bool, binary: Bool) -> [UInt8] {
            var out: [UInt8] = []
            var lines = input.split(separator: 0x0A, omittingEmptySubsequences: false)
            if lines.last?.isEmpty == true { lines.removeLast() }
            for var line in lines {
                if !binary, line.last == 0x0D { line = line.dropLast() }
                let bytes = Array(line)
                for (i, b) in bytes.enumerated() {
                    if unreserved(b) || (keepEscapes && b == 0x25 && i + 2 < bytes.count && hex(bytes[i + 1]) && hex(bytes[i + 2])) { out.append(b) }
                    else { out += Array(String(format: "%%%02X", b).utf8) }
                }
                out.append(0x0A)
            }
            return out
        }
        for (args, keep, binary) in [(["encode"], false, false), (["encode", "--keep-escapes"], true, false), (["encode", "--binary"], false, true)] {
            let r = try PekitProcess.run(args, stdin: input)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdoutBytes == reference(keepEscapes: keep, binary: binary), "\(args): \(r.stdoutBytes.count) bytes, want \(reference(keepEscapes: keep, binary: binary).count)")
        }
    }
}
