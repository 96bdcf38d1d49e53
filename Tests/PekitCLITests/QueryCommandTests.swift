import Foundation
import PekitTestSupport
import XCTest

final class QueryCommandTests: XCTestCase {
    func testFlattenWithPolicies() throws {
        let af = try PekitProcess.run("query", "--policy", "afnetworking", #"{"name": "小A", "phone": {"mobile": "xx", "home": "xx"}, "families": ["father", "mother"], "does_not_include": "/?", "space": " "}"#)
        XCTAssertEqual(af.stdout, "does_not_include=/?&families%5B%5D=father&families%5B%5D=mother&name=%E5%B0%8FA&phone%5Bhome%5D=xx&phone%5Bmobile%5D=xx&space=%20\n")
        XCTAssertEqual(af.status, 0)
        XCTAssertEqual(try PekitProcess.run(["query", "--policy", "qs", "-"], stdin: Array(#"{"b": [1, {"c": true}], "a": null}"#.utf8)).stdout,
                       "b%5B0%5D=1&b%5B1%5D%5Bc%5D=true&a=\n", "JSON key order is kept under order = given")
    }

    func testSideBySideMarksDifferences() throws {
        let r = try PekitProcess.run("query", "--as", "afnetworking,php,qs", #"{"list": [1, 2], "s": "a b"}"#)
        XCTAssertEqual(r.stdout, """
            afnetworking  list%5B%5D=1&list%5B%5D=2&s=a%20b
            php           list%5B0%5D=1&list%5B1%5D=2&s=a+b
                          ^^^^^^^^^^^^^ ^^^^^^^^^^^^^ ^^^^^
            qs            list%5B0%5D=1&list%5B1%5D=2&s=a%20b
                          ^^^^^^^^^^^^^ ^^^^^^^^^^^^^

            """)
        let dropped = try PekitProcess.run("query", "--as", "alamofire,alamofire-form", #"{"b": [2, 10], "n": null}"#)
        XCTAssertEqual(dropped.stdout, """
            alamofire       b%5B%5D=2&b%5B%5D=10&n=%3Cnull%3E
            alamofire-form  b%5B%5D=10&b%5B%5D=2
                            (not sent: n=%3Cnull%3E)

            """)
    }

    func testCheckReportsEveryValue() throws {
        let bad = try PekitProcess.run("query", "--policy", "qs-comma", "--check", "qs", #"{"tags": ["a,b", "c"]}"#)
        XCTAssertEqual(bad.stdout, """
            tags=a%2Cb%2Cc
              changed      params.tags: sent as a list of 2, arrives as "a,b,c": qs does not split on commas
              lost         params.tags[0]: "a,b": the list arrives as one value
              lost         params.tags[1]: "c": the list arrives as one value
            not ok: 3 of 3 values do not arrive exactly as sent

            """)
        XCTAssertEqual(bad.status, 1)
        // Numbers arrive as strings: not "ok", and not a failure either: exit 3, which a script
        // can accept (every flat server reads text).
        let numbers = try PekitProcess.run("query", "--policy", "php", "--check", "php", #"{"a": [1, 2], "b": {"c": "x y"}}"#)
        XCTAssertEqual(numbers.stdout, """
            a%5B0%5D=1&a%5B1%5D=2&b%5Bc%5D=x+y
              changed-type params.a[0]: the number 1 arrives as the string "1"
              changed-type params.a[1]: the number 2 arrives as the string "2"
              exact        params.b.c: "x y"
            ok but types: 2 of 3 values arrive as strings (as php reads all text); nothing is lost or changed

            """)
        XCTAssertEqual(numbers.status, 3)
        let good = try PekitProcess.run("query", "--policy", "php", "--check", "php", #"{"a": ["1", "2"], "b": {"c": "x y"}}"#)
        XCTAssertEqual(good.stdout, """
            a%5B0%5D=1&a%5B1%5D=2&b%5Bc%5D=x+y
              exact        params.a[0]: "1"
              exact        params.a[1]: "2"
              exact        params.b.c: "x y"
            ok: PHP 8.2 parse_str reads back exactly what was sent

            """)
        XCTAssertEqual(good.status, 0)
        let python = try PekitProcess.run("query", "--policy", "form", "--check", "python", "--set", "keep_blank_values=true", #"{"a": "", "b": [], "c": null}"#)
        XCTAssertEqual(python.stdout, """
            a=&c=
              exact        params.a: ""
              lost         params.b: an empty list is not sent (the policy skips empty lists and maps)
              changed-type params.c: null arrives as an empty string
            not ok: 2 of 3 values do not arrive exactly as sent

            """)
    }

    func testDecode() throws {
        XCTAssertEqual(try PekitProcess.run("query", "--decode", "--server", "php", "a[]=1&a[]=2&b.c=3").stdout, #"{"a":["1","2"],"b_c":"3"}"# + "\n")
        XCTAssertEqual(try PekitProcess.run("query", "--decode", "a[b][c]=x+y&n").stdout, #"{"a":{"b":{"c":"x y"}},"n":""}"# + "\n")
        let url = try PekitProcess.run("query", "--decode", "--server", "python", "--set", "keep_blank_values=true", "https://h/p?a=&b=1&b=2#top")
        XCTAssertEqual(url.stdout, #"{"a":[""],"b":["1","2"]}"# + "\n")
        XCTAssertEqual(url.stderr, "pekit query: reading the query part of the URL: a=&b=1&b=2\n")
        let rack = try PekitProcess.run("query", "--decode", "--server", "rack", "a[]=1&a[b]=2")
        XCTAssertEqual(rack.stderr, "pekit query: Rack ParameterTypeError: expected Hash (got Array) for param `a' (parameter \"a[b]=2\" at byte 6)\n")
        XCTAssertEqual(rack.status, 1)
        let go = try PekitProcess.run("query", "--decode", "--server", "go", "a=1;b=2&c=%zz&d=4")
        XCTAssertEqual(go.stdout, #"{"d":["4"]}"# + "\n")
        XCTAssertEqual(go.stderr, "pekit query: go also returns an error: invalid semicolon separator in query\n")
        let bytes = try PekitProcess.run("query", "--decode", "--server", "rack", "a=%FF&b=ok")
        XCTAssertEqual(bytes.stderr, "pekit query: query.a: byte 0xFF at 1 is not UTF-8, which JSON cannot hold; --escape-bytes writes such bytes as \\xFF\n")
        XCTAssertEqual(bytes.status, 1)
        XCTAssertEqual(try PekitProcess.run("query", "--decode", "--server", "rack", "--escape-bytes", "a=%FF&b=ok").stdout, #"{"a":"\\xFF","b":"ok"}"# + "\n")
        let option = try PekitProcess.run("query", "--decode", "--server", "php", "--set", "depth=1", "a=1")
        XCTAssertEqual(option.stderr, "pekit query: --set depth: php has no such option (known: max_input_vars, max_input_nesting_level, arg_separator.input) (see 'pekit query --help')\n")
        XCTAssertEqual(option.status, 2)
        XCTAssertEqual(try PekitProcess.run("query", "--decode", "--server", "qs", "--set", "depth=0", "a[b]=1").stdout, #"{"a[b]":"1"}"# + "\n")
        // Several servers side by side: PHP's '.' in a name read as '_', Rack 2.2's split at ';',
        // Python's flat names, Go 1.17's error for ';' (each as its own documentation says);
        // marks under the parameters read otherwise than by the first, the ones not read named.
        let side = try PekitProcess.run("query", "--decode", "--server", "qs,php,rack,python,go", "a[]=1&b.c=2;3")
        XCTAssertEqual(side.stdout, #"""
            qs      {"a":["1"],"b.c":"2;3"}
            php     {"a":["1"],"b_c":"2;3"}
                               ^^^^^^^^^^^
                    (no "b.c")
            rack    {"a":["1"],"b.c":"2","3":null}
                               ^^^^^^^^^ ^^^^^^^^
            python  {"a[]":["1"],"b.c":["2;3"]}
                     ^^^^^^^^^^^ ^^^^^^^^^^^^^
                    (no "a")
            go      {"a[]":["1"]}
                     ^^^^^^^^^^^
                    (no "a", "b.c")
                    (go also returns an error: invalid semicolon separator in query)

            """#)
        XCTAssertEqual(side.status, 0)
        // --explain: the policy's rules, each pair as flattened and as written with the characters
        // it escaped, then the servers' readings (Rack's tags[] a list, as build_nested_query
        // writes it; the flat servers keep "tags[]" as the name).
        let explained = try PekitProcess.run("query", "--explain", "--policy", "rack", #"{"tags": ["a b", true]}"#)
        XCTAssertEqual(explained.stdout, #"""
            policy rack:
              an array's items as a[]=1&a[]=2 (brackets)
              a map's members as a[b]=1 (brackets)
              null as the key alone (a)
              booleans as true and false
              numbers in their shortest form
              keys in the order given
              keys encoded segment by segment, their [ ] . kept
              values percent-encoded with the policy's set
              a space written '+'
              empty arrays and maps left out

            query: tags[]=a+b&tags[]=true

              1. tags[] = a b  →  tags[]=a+b
                   value: ' ' → +: written '+': space as plus, the form encoding's rule (a '+' itself is then %2B)
              2. tags[] = true  →  tags[]=true

            how each server reads it:
              qs                {"tags":["a b","true"]}
              php               {"tags":["a b","true"]}
              rack              {"tags":["a b","true"]}
              python            {"tags[]":["a b","true"]}
                                 ^^^^^^^^^^^^^^^^^^^^^^^
                                (no "tags")
              go                {"tags[]":["a b","true"]}
                                 ^^^^^^^^^^^^^^^^^^^^^^^
                                (no "tags")
              whatwg            {"tags[]":["a b","true"]}
                                 ^^^^^^^^^^^^^^^^^^^^^^^
                                (no "tags")
              node-querystring  {"tags[]":["a b","true"]}
                                 ^^^^^^^^^^^^^^^^^^^^^^^
                                (no "tags")

            """#)
        XCTAssertEqual(try PekitProcess.run("query", "--explain", "--check", "qs", "{}").status, 2)
        let refused = try PekitProcess.run("query", "--decode", "--server", "qs,rack", "a=%zz")
        XCTAssertEqual(refused.stdout, #"""
            qs    {"a":"%zz"}
            rack  error: Rack InvalidParameterError: invalid %-encoding (%zz) (parameter "a=%zz" at byte 0)

            """#)
    }

    /// Issue 71: a framework's name reads as the parser it runs (Rails and Sinatra: Rack's
    /// parse_nested_query; Laravel and Symfony: PHP's; Express 4: qs), and Django, Flask and
    /// FastAPI as Python's parse_qs keeping blank values, held to Python itself.
    func testFrameworksReadAsTheParserTheyRun() throws {
        for (framework, model, query) in [("rails", "rack", "a[b]=1&a[c][]=2&d="), ("sinatra", "rack", "x[]=1&x[]=2"), ("laravel", "php", "a[]=1&b.c=2"),
                                          ("symfony", "php", "a[x]=1"), ("express", "qs", "a[b]=1&c=2&c=3")] {
            let got = try PekitProcess.run("query", "--decode", "--server", framework, query)
            let want = try PekitProcess.run("query", "--decode", "--server", model, query)
            XCTAssertEqual(got.stdout, want.stdout, framework)
            XCTAssertEqual(got.status, 0, got.stderr)
        }
        let query = "a=&b=1&a=2&c"
        let python = String(decoding: try runPython("import json, sys, urllib.parse; print(json.dumps(urllib.parse.parse_qs(sys.stdin.read(), keep_blank_values=True), separators=(',', ':')))",
                                                     input: Data(query.utf8)), as: UTF8.self)
        for framework in ["django", "flask", "fastapi", "Django"] {
            XCTAssertEqual(try PekitProcess.run("query", "--decode", "--server", framework, query).stdout, python, framework)
        }
        // A framework's options under the user's: --set wins.
        XCTAssertEqual(try PekitProcess.run("query", "--decode", "--server", "django", "--set", "keep_blank_values=false", query).stdout, #"{"b":["1"],"a":["2"]}"# + "\n")
        // And from Lua, by name and in an options table.
        let lua = try PekitProcess.run(["run", "-e", #"print(pekit.json.encode(pekit.query.decode("a[b]=1", "rails")), pekit.json.encode(pekit.query.decode("a=", { server = "flask" })))"#])
        XCTAssertEqual(lua.stdout, #"{"a":{"b":"1"}}\#t{"a":[""]}"# + "\n", lua.stderr)
    }

    func testErrors() throws {
        let json = try PekitProcess.run(["query"], stdin: Array("{\"x\": [1,".utf8))
        XCTAssertEqual(json.stderr, "pekit query: standard input: invalid JSON at byte 10: unexpected end of input\n")
        XCTAssertEqual(json.status, 1)
        let top = try PekitProcess.run("query", "[1, 2]")
        XCTAssertEqual(top.stderr, "pekit query: parameters[1]: parameters must be a map or a list of {key, value} pairs\n")
        let server = try PekitProcess.run("query", "--check", "pyramid", "{}")
        XCTAssertEqual(server.stderr, "pekit query: unknown server 'pyramid' (known: qs, php, rack, python, go, whatwg, node-querystring; "
                       + "frameworks: rails (rack), sinatra (rack), laravel (php), symfony (php), express (qs), django (python), flask (python), fastapi (python)) (see 'pekit query --help')\n")
        XCTAssertEqual(server.status, 2)
        let policy = try PekitProcess.run("query", "--policy", "nope", "{}")
        XCTAssertTrue(policy.stderr.hasPrefix("pekit query: unknown policy \"nope\""), policy.stderr)
    }
}
