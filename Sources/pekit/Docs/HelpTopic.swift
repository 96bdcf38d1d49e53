/// A guide under docs/, as `pekit help TOPIC` prints it at the terminal: its summary, which the
/// guide itself starts with (between `<!-- summary: pekit help NAME -->` and
/// `<!-- end of summary -->`; DocumentationTests holds the two to each other), and where to read
/// the rest. The man page's TOPICS section is made of the same summaries.
struct HelpTopic {
    let name: String
    /// Other words for it (`pekit help policies` is the encoding guide).
    let aliases: [String]
    let title: String
    /// The guide, from the repository's root.
    let guide: String
    let summary: String

    /// What `pekit help NAME` prints: the title, the summary, and where the guide is.
    var text: String {
        "\(title)\n\n\(summary)\n\nThe whole guide: \(guide) (in the repository; online beside README.md), and 'man pekit'."
    }

    /// The topic named `name` or one of its aliases.
    static func named(_ name: String) -> HelpTopic? {
        all.first { $0.name == name || $0.aliases.contains(name) }
    }

    static let all: [HelpTopic] = [
        HelpTopic(name: "getting-started", aliases: ["start", "install"], title: "Getting started", guide: "docs/getting-started.md", summary: """
            Install with scripts/install (a release build into PREFIX/bin, plugins into
            PREFIX/share/pekit/plugins, this man page into PREFIX/share/man/man1). Then:
              pekit encode '汉字&ss'                       percent-encode (RFC 3986)
              pekit query --as php,qs '{"a": [1, 2]}'      one document as each backend writes it
              pekit cookies explain jar.txt URL           why each cookie is sent or not
              pekit request --curl -X POST --param q=1 URL the request, as a curl command
              pekit run script.lua / pekit repl           the same from Lua
            Arguments are bytes; every error names the argument, the byte and the rule.
            Exit status: 0 success, 1 failure, 2 usage error.
            """),
        HelpTopic(name: "encoding", aliases: ["policies", "policy"], title: "Encoding and policies", guide: "docs/encoding-and-policies.md", summary: """
            A policy is a backend's encoding rules: which bytes go unescaped, how arrays and nested
            keys are written, how null and booleans look, key order. Built in: rfc3986, afnetworking,
            alamofire, foundation-query, form, qs and its variants, php, rack, jquery, aws-sigv4,
            oauth1 ('pekit plugins' lists them). A different backend is a Lua file in plugins/,
            loaded at run time, never a rebuild:
              return { kind = "policy", extends = "afnetworking", allowed = "[]" }
            pekit encode --policy NAME, --set NAME, --allow CHARS and --space choose the rules on the
            command line; pekit.encode(s, policy) and pekit.policy.define do it from Lua. Decoding
            is strict or lenient, and a bad escape is an error naming its byte.
            """),
        HelpTopic(name: "servers", aliases: ["models", "check"], title: "How servers read a query", guide: "docs/servers.md", summary: """
            pekit models how real servers read a query string or form body: qs (Express), PHP,
            Rack (Rails, Sinatra), Python (parse_qs), Go (net/url), WHATWG (URLSearchParams), node's
            querystring, each tested against the server itself. Read one as a server does:
              pekit query --decode --server php 'a[]=1&b.c=3'
            and check that what you send arrives as you meant it:
              pekit query --policy qs-comma --check qs '{"tags": ["a,b"]}'
            A model's options are the server's own (qs's depth, PHP's max_input_vars).
            """),
        HelpTopic(name: "cookies", aliases: ["jar", "cookie"], title: "Cookies", guide: "docs/cookies.md", summary: """
            A cookie jar as RFC 6265bis and browsers keep one: Domain and Path matching, the public
            suffix list, Secure, HttpOnly, SameSite, prefixes, expiry, limits. A jar is a file
            (cookies.txt as curl writes it, or JSON), locked while in use:
              pekit cookies receive jar.txt URL 'sid=1; Domain=example.com'   store, or say why not
              pekit cookies header jar.txt URL                               the Cookie header
              pekit cookies explain jar.txt URL                              the verdict on each cookie
            Filters are Lua plugins (httpdns: send a name's cookies to an IP address), and the same
            jar serves pekit request --jar, pekit.cookies.jar() in scripts and Swift's CookieJar.
            """),
        HelpTopic(name: "requests", aliases: ["sending", "send", "curl"], title: "Requests and sending", guide: "docs/requests-and-sending.md", summary: """
            pekit request builds a request as AFNetworking's serializer does, done right: parameters
            in the query for GET, HEAD and DELETE and in a form body otherwise, encoded by a policy.
            It prints the exact HTTP/1.1 message (--raw), a curl command that sends the same bytes
            (--curl), or JSON (--describe); --send, or any option only sending has (-i, -o, -L,
            -v…), sends it, as curl would with the same flags. pekit import turns a copied
            "Copy as cURL" command into a Lua script; pekit har lists and replays a HAR file.
            """),
        HelpTopic(name: "scripting", aliases: ["lua", "tests", "concurrency"], title: "Scripting", guide: "docs/scripting.md", summary: """
            pekit run script.lua runs Lua 5.4 with the global 'pekit' (encoding, queries, cookies,
            requests, sending, signing, JSON); pekit repl is the same, interactive, with help on
            every function (help(pekit.encode)). pekit.http.all and pekit.spawn send many requests
            at once on one engine. pekit test runs API tests written in Lua:
              test("login", function(t) expect(pekit.http.get(url)):status(200) end)
            with TAP, JUnit, GitHub and JSON reports, secrets kept out of every output.
            The Lua API reference: docs/reference/lua-api.md, or 'pekit help --lua-api'.
            """),
        HelpTopic(name: "collections", aliases: ["hurl", "http-files", "postman"], title: "Collections: .http files, Hurl files and Postman collections", guide: "docs/collections.md", summary: """
            pekit test runs the requests teams already keep: a .http file (JetBrains' HTTP Client,
            VS Code's REST Client) runs each request as a test, a .hurl file each entry as Hurl runs
            it (captures, asserts, options, retry, cookies across entries), a Postman collection
            (v2.0, v2.1) each request as Postman's curl code generator sends it, with pekit's reports:
              pekit test --var base=http://127.0.0.1:8080 api.http api.hurl
              pekit test --environment local.postman_environment.json api.postman_collection.json
            Hurl's --variable is --var, its --variables-file the same, its per-request options
            --hurl-option NAME[=VALUE]. pekit import http|hurl|postman FILE prints the tests as a Lua
            test file; pekit export curl|http|hurl|postman FILE.har writes recorded requests back,
            byte for byte.
            """),
        HelpTopic(name: "plugins", aliases: ["trust", "sandbox"], title: "Plugins and trust", guide: "docs/plugins-and-trust.md", summary: """
            A plugin is a Lua file that returns a table, a policy or a cookie filter; its file name
            is its name. pekit looks in --plugins DIR, $PEKIT_PLUGIN_PATH, a script's own plugins/
            directory, ./plugins only when trusted (PEKIT_TRUST_LOCAL_PLUGINS=1), ~/.config/pekit/plugins
            and the plugins installed beside the binary; 'pekit plugins' lists what it finds and
            where. Every plugin runs in a sandbox (no files, no network, no os.execute; a budget of
            instructions and memory), so a plugin written by a stranger can be wrong but cannot do
            harm.
            """),
        HelpTopic(name: "swift", aliases: ["library", "pekitcore"], title: "PekitCore as a Swift library", guide: "docs/swift.md", summary: """
            Everything pekit does is a Swift library first: import PekitCore (no Lua, no I/O) for
            the encoder, policies, the query flattener and server models, URLs, IDNA and the cookie
            jar; PekitHTTP to send; PekitCrypto for SigV4, OAuth 1.0a and JWT; PekitFoundation for
            URL, URLRequest and HTTPCookie. They build in Swift 6 language mode with every warning an
            error, and their DocC archive documents every public declaration.
            """),
    ]
}
