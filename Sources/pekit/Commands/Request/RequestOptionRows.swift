import PekitCore
import PekitHTTP

/// `pekit request`'s options (also what `pekit import curl` reads a command with): one row an
/// option, its help beside it. A row with `sendOnly` is an option only sending has: with it, the
/// command sends, as the same curl command would. The send options' flags (`--timeout`, `-k`…)
/// are `SendOptions.fields`' own: their rows here are made from those declarations (`sendFlag`).
enum RequestOptions {
    // What the request is.
    static let method = Option("method", short: "X", value: "M", "the method (default GET; POST when a body is given)")
    static let policy = Option("policy", value: "P", "the encoding policy for the query and form body (default rfc3986)")
    static let param = Option("param", value: "k=v", """
        a parameter (repeat); keys nest as a Lua table's would (u[name]=x,
        tags[]=a, m[0][k]=v; u.name=x under a policy with dotted objects), and
        the policy writes them its own way (rack: u[name]=x, php: tags[0]=a),
        in its key order; a key given twice is a list (roles=a roles=b is
        roles[]=a&roles[]=b, or roles=a&roles=b under qs-repeat)
        """)
    static let paramJson = Option("param-json", value: "k=J", """
        a parameter with a typed JSON value (n=1, flag=true, u={"name":"x"});
        or a JSON object, each member a parameter
        """)
    static let paramsIn = Option("params-in", value: "W", "query or body, to override the method's default")
    static let form = Option("form", short: "F", value: "SPEC", """
        a multipart/form-data part, as curl's -F: name=value, name=@file (a
        file part; its type guessed from the name as curl does), name=<file (a
        text part from the file), each with ;type=… and ;filename=… (repeat)
        """)
    static let formString = Option("form-string", value: "NAME=TEXT", """
        a multipart/form-data text part whose value is TEXT as written (curl's
        --form-string: @, < and ;type= mean nothing in it); with -F, in the order given
        """)
    static let json = Option("json", value: "DATA", """
        a JSON body, as curl's --json: DATA as written, or @FILE (@- for
        standard input); Content-Type and Accept application/json
        """)
    static let file = Option("file", value: "f=@path", "a multipart file part (repeat; -F f=@path says the same)")
    static let bodyFile = Option("body-file", value: "PATH", "a raw body streamed from PATH (any size, bounded memory)")
    static let uploadFile = Option("upload-file", short: "T", value: "FILE", """
        upload FILE as curl -T does: PUT (unless -X), the body streamed, no
        Content-Type, Expect: 100-continue; a URL ending in / gets the file's
        name; - reads standard input and sends it chunked
        """)
    static let header = Option("header", short: "H", value: "'K: V'", """
        a header (repeat, repeats kept; as curl: 'K:' removes a default one,
        'K;' sends it empty, the line goes as written, 'X-A:1' as X-A:1; @FILE
        reads one a line). pekit's fields are curl's, in curl's order: Host,
        User-Agent: pekit/VERSION, Accept: */*; a policy adds its backend's
        (afnetworking: Accept-Language from LANGUAGE/LANG, en;q=1 under C):
        -H 'Accept-Language: en' fixes it in any locale
        """)
    static let jar = Option("jar", value: "FILE", """
        add the Cookie header from this cookie jar file; with --send, cookies
        that come back are saved to it too (created when missing; locked from
        loading to saving; a file that is not a jar is not replaced without
        --force)
        """)
    static let filter = Option("filter", value: "NAME[:OPTIONS]", """
        a cookie-filter plugin on the jar (--jar's, -b's, or one in
        memory), as pekit cookies --filter takes it (repeat; in order):
        --filter 'httpdns:hosts=203.0.113.7=api.example.com'
        """)
    static let connect = Option("connect", value: "N:P=A:Q", """
        send requests for host N port P to address A port Q, keeping the name
        for Host, TLS and cookies (curl's --connect-to; repeat)
        """)
    static let base = Option("base", value: "URL", "resolve a relative URL against this base")
    static let url = Option("url", value: "URL", "the URL, as curl's --url (instead of giving it alone)")
    static let globoff = Option("globoff", short: "g", """
        send the URL as written: without it, as curl, \\[ \\] \\{ \\} are brackets
        and braces (the backslash goes), and a glob curl would expand into
        several URLs ({a,b}, [1-5]) is refused
        """)
    static let pathAsIs = Option("path-as-is", """
        keep . and .. segments of the URL's path, and of redirects' (as curl's
        flag; without it they are removed, as curl removes them)
        """)
    static let requestTarget = Option("request-target", value: "T", """
        send T as the request target exactly as given ('/a b', '*', an
        absolute URL) instead of the URL's path and query, to test how a server
        reads it (curl's flag; CR, LF and NUL are refused; not kept on redirects)
        """)
    static let user = Option("user", short: "u", value: "U:P", "Basic authentication")
    static let force = Option("force", "with --jar: save even over a file that did not load as a jar")
    // What is done with it.
    static let raw = Option("raw", "print the exact HTTP/1.1 message (the default)")
    static let curl = Option("curl", "print one shell-safe curl command that sends the same bytes")
    static let describe = Option("describe", "print the request as JSON")
    static let readBy = Option("read-by", value: "A,B,...", """
        print how each server reads the request's query, its form body
        (application/x-www-form-urlencoded, or multipart/form-data by each
        server's multipart parser) and its Cookie field, side by side, ^ under
        what differs from the first's reading: qs, php, rack, python, go, whatwg,
        node-querystring, or a framework's name (rails, django, express, …)
        """)
    static let send = Option("send", "send it (any option below that only sending has sends too)")

    // curl's flags.
    static let data = Option("data", short: "d", value: "D", """
        a body of D (@FILE: the file with its CR and LF left out; several -d are
        joined with &), application/x-www-form-urlencoded, POST unless -X or -G
        """)
    static let dataAscii = Option("data-ascii", value: "D", "the same as -d")
    static let dataRaw = Option("data-raw", value: "D", "D as written (no @FILE)")
    static let dataBinary = Option("data-binary", value: "D", "D, or @FILE exactly as it is")
    static let dataUrlencode = Option("data-urlencode", value: "D", """
        curl's five forms: content, =content, name=content, @file, name@file;
        the content encoded (a space as +)
        """)
    static let get = Option("get", short: "G", "put the -d data into the query instead (GET)")
    static let urlQuery = Option("url-query", value: "D", """
        add to the URL's query, as --data-urlencode writes D (+D: D as it is);
        repeat for more, joined with &
        """)
    static let oauth2Bearer = Option("oauth2-bearer", value: "TOKEN", "send Authorization: Bearer TOKEN (in -u's place; wins over -u)")
    static let compressed = sendFlag("compressed")
    static let variable = Option("variable", value: "NAME=TEXT", """
        curl 8's variables: NAME=TEXT, NAME@FILE (@-: standard input), %ENV (an
        error when not set), %ENV=DEFAULT, NAME[N-M]… for bytes N to M; then
        --expand-OPTION VALUE is --OPTION with each {{NAME}} in VALUE replaced
        ({{NAME:trim}}, :json, :url, :b64, :64dec, left to right; \\{{ as written)
        """)
    // Read before the options are (`requestGroups`): their rows give help, completion and
    // the parser's names.
    static let config = Option("config", short: "K", value: "FILE", """
        read options from FILE in this place, as curl's -K reads its config files
        (- : standard input)
        """)
    static let next = Option("next", short: ":", "end one request's options and URLs: what follows is the next request's, as curl's --next")
    static let trEncoding = sendFlag("tr-encoding")
    static let ignoreContentLength = sendFlag("ignore-content-length")
    static let userAgent = Option("user-agent", short: "A", value: "A", "the User-Agent ('' removes it)")
    static let referer = Option("referer", short: "e", value: "URL", "the Referer")
    static let etagCompare = Option("etag-compare", value: "FILE", "send FILE's ETag as If-None-Match, as curl --etag-compare")
    static let etagSave = Option("etag-save", value: "FILE", "write the answer's ETag to FILE (- for standard output), as curl --etag-save", sendOnly: true)
    static let timeCond = Option("time-cond", short: "z", value: "DATE|FILE", """
        only if modified since DATE (or FILE's time; -DATE: if not modified since),
        as curl -z: an answer that does not meet it is a 304, its body not written
        """)
    static let removeOnError = Option("remove-on-error", "a transfer that fails leaves no -o file, not even one there before (as curl)", sendOnly: true)
    static let continueAt = Option("continue-at", short: "C", value: "N|-", """
        resume: a download asks for the bytes from N (-: the -o file's size) and
        adds them to the file; an upload sends its body from N, as curl -C
        """)
    static let range = Option("range", short: "r", value: "RANGE", """
        ask for these bytes: Range: bytes=RANGE (100-200, -101, 0-10,12-15; a lone
        number N is N-, as curl makes it)
        """)
    static let connectTo = Option("connect-to", value: "H1:P1:H2:P2", "connect to H2:P2 for H1:P1 (either port may be empty)")
    static let resolve = Option("resolve", value: "H:P:ADDR", "connect to ADDR for H:P")
    static let cookie = Option("cookie", short: "b", value: "C", "a Cookie header (C has '='), or a cookie file to read (Netscape format)")
    static let cookieJar = Option("cookie-jar", short: "c", value: "FILE", "write every cookie, session ones too, to FILE after sending", sendOnly: true)
    static let awsSigv4 = Option("aws-sigv4", value: "aws:amz:REGION:SERVICE", """
        sign with AWS Signature V4 (curl's flag) as botocore
        signs, with -u ACCESS_KEY:SECRET_KEY; a session token goes in
        -H 'X-Amz-Security-Token: …'; REGION and SERVICE may be left out for
        SERVICE.REGION.amazonaws.com hosts
        """)
    static let color = Option.color("""
        auto (the default): on a terminal, a JSON body is indented and coloured
        as jq shows it, and -i's and -v's status lines and header names are
        coloured (not when NO_COLOR is set); in a pipe or a file, the bytes as
        they came. always: styled anywhere (for less -R); never: no colours
        """)

    // Only sending has these.
    static let include = Option("include", short: "i", "print the status line and header fields first (into -o's file too)", sendOnly: true)
    static let noInclude = Option("no-include", "undo an earlier -i, as curl's --no-include (the last of the two wins)", sendOnly: true)
    static let head = Option("head", short: "I", "send HEAD and print the head", sendOnly: true)
    static let fail = Option("fail", short: "f", "exit 22 when the status is 400 or more, printing no body (curl's -f)", sendOnly: true)
    static let failWithBody = Option("fail-with-body", "the same, with the body printed", sendOnly: true)
    static let output = Option("output", short: "o", value: "FILE", """
        write the body to FILE (complete or not at all; '-': standard output,
        which a binary body otherwise does not go to when it is a terminal)
        """, sendOnly: true)
    static let progress = Option("progress", """
        show the transfer's progress on standard error (the default for -o to a
        file when standard error is a terminal)
        """, sendOnly: true)
    static let noProgress = Option("no-progress", "never show it", sendOnly: true)
    static let noProgressMeter = Option("no-progress-meter", "the same, by curl's name", sendOnly: true)
    /// Whether the progress is never to be shown: --no-progress, or curl's name for it.
    static func hidesProgress(_ parsed: Arguments) -> Bool { parsed.has(noProgress) || parsed.has(noProgressMeter) }
    static let noBuffer = Option("no-buffer", short: "N", """
        write the body to standard output as each piece arrives (a stream, server-sent
        events), a terminal too, as curl's -N; with -i, -w or --json the response is still
        written when it is complete
        """, sendOnly: true)
    static let remoteName = Option("remote-name", short: "O", "write it to the file the URL names, in the current directory", sendOnly: true)
    static let remoteNameAll = Option("remote-name-all", "-O for every URL that has no -o or -O of its own, as curl", sendOnly: true)
    static let noRemoteName = Option("no-remote-name", "undo an earlier --remote-name-all (curl's; -O itself pairs with a URL)", sendOnly: true)
    static let remoteTime = Option("remote-time", short: "R", "give the -o/-O file the answer's Last-Modified time, as curl", sendOnly: true)
    static let failEarly = Option("fail-early", "with several URLs, stop at the first that fails (its exit status), as curl", sendOnly: true)
    static let remoteHeaderName = Option("remote-header-name", short: "J", """
        with -O, the file name the answer's Content-Disposition gives (curl's
        -J: the name only, never a path; a file already there is not replaced)
        """, sendOnly: true)
    static let noClobber = Option("no-clobber", "an -o file that is there already is kept: the answer goes to FILE.1 … FILE.100 (as curl)", sendOnly: true)
    static let clobber = Option("clobber", "an -o file that is there already is replaced (the default; undoes --no-clobber)", sendOnly: true)
    static let createDirs = Option("create-dirs", "make the -o file's missing directories, as curl", sendOnly: true)
    static let stderrFile = Option("stderr", value: "FILE", "write what goes to standard error to FILE instead (- for standard output), as curl", sendOnly: true)
    static let outputDir = Option("output-dir", value: "DIR", "write -o's and -O's file in DIR (curl's; DIR/FILE, the directory made by no one)", sendOnly: true)
    static let dumpHeader = Option("dump-header", short: "D", value: "FILE", """
        write the response's status line and header fields to FILE ('-':
        standard output; the final response's, after redirects)
        """, sendOnly: true)
    static let writeOut = Option("write-out", short: "w", value: "F", """
        after the body, F with %{http_code}, %{num_redirects}, %{size_download},
        %{url_effective}, %{content_type}, %{method}, %{http_version}, %{remote_ip},
        %{remote_port}, %{size_header}, %{time_namelookup}, %{time_connect},
        %{time_appconnect}, %{time_starttransfer}, %{time_total}, %{urlnum},
        %{scheme}, %{num_headers}, %{redirect_url}, %{speed_download},
        %{json} (all of these), %{header_json} (the fields), %header{NAME};
        \\n \\t \\\\ %% (an unknown variable is an error, before anything is sent)
        """, sendOnly: true)
    static let verbose = Option("verbose", short: "v", """
        as curl -v, on standard error: '* ' notes, '> ' the request's head, '< '
        the response's, for every request of a redirect chain; each hop's
        cookies (sent, or held back and why; each Set-Cookie stored, or refused
        and by which rule); then each redirect and the timings
        """, sendOnly: true)
    static let traceAscii = Option("trace-ascii", value: "F", """
        every byte sent and received, in curl's --trace-ascii format, to F
        ('-': standard output)
        """, sendOnly: true)
    static let parallel = Option("parallel", short: "Z", """
        send the URLs at once, up to --parallel-max N (1 to 300, default 50),
        on one thread and shared connections; answers shown in the order given,
        done/failed/in flight on standard error meanwhile when it is a terminal
        (not with -s; --progress: always, --no-progress: never)
        """, sendOnly: true)
    static let rate = Option("rate", value: "R", """
        start at most R transfers, whatever their hosts: N/s, N/m or N/h
        (curl's --rate)
        """, sendOnly: true)
    static let parallelMax = Option("parallel-max", value: "N", "at most N transfers at once with -Z (1 to 300, default 50)", sendOnly: true)
    static let retry = Option("retry", value: "N", """
        send again up to N times after a timeout or a 408, 429, 500, 502, 503
        or 504 (curl's --retry: waiting 1 s, doubling, or as Retry-After says;
        GET, HEAD, PUT, DELETE, OPTIONS only)
        """, sendOnly: true)
    static let retryDelay = Option("retry-delay", value: "S", "wait S seconds (a whole number) before each retry instead of doubling waits, as curl", sendOnly: true)
    static let retryMaxTime = Option("retry-max-time", value: "S", "start no retry after S seconds", sendOnly: true)
    static let retryAllErrors = Option("retry-all-errors", "retry after any transfer error too", sendOnly: true)
    static let har = Option("har", value: "FILE", """
        write every exchange (each request of a redirect chain: headers,
        cookies, bodies, timings) to FILE as HAR 1.2, which browsers' developer
        tools open; mode 0600, sanitized as Chrome exports it (no Authorization,
        Proxy-Authorization, Cookie or Set-Cookie values, no cookie lists)
        """, sendOnly: true)
    static let harWithSecrets = Option("har-with-secrets", "keep those values in the HAR", sendOnly: true)
    static let noFollow = sendFlag("no-follow")
    static let location = Option("location", short: "L", "follow redirects (the default; --no-location is --no-follow, as curl's)", sendOnly: true,
                                 negation: "no-follow")
    static let maxRedirects = sendFlag("max-redirects")
    static let maxRedirs = sendFlag("max-redirs")
    static let locationTrusted = sendFlag("location-trusted")
    static let post301 = sendFlag("post301")
    static let post302 = sendFlag("post302")
    static let post303 = sendFlag("post303")
    static let digest = sendFlag("digest")
    static let anyauth = sendFlag("anyauth")
    static let basic = sendFlag("basic")
    static let netrc = sendFlag("netrc")
    static let netrcOptional = sendFlag("netrc-optional")
    static let netrcFile = sendFlag("netrc-file")
    static let maxFilesize = sendFlag("max-filesize")
    static let ipv4 = sendFlag("ipv4")
    static let ipv6 = sendFlag("ipv6")
    static let timeout = sendFlag("timeout")
    static let maxTime = sendFlag("max-time")
    static let connectTimeout = sendFlag("connect-timeout")
    static let cacert = sendFlag("cacert")
    static let insecure = sendFlag("insecure")
    static let proxy = sendFlag("proxy")
    static let socks4 = sendFlag("socks4")
    static let socks4a = sendFlag("socks4a")
    static let socks5 = sendFlag("socks5")
    static let socks5Hostname = sendFlag("socks5-hostname")
    static let noproxy = sendFlag("noproxy")
    static let proxyBasic = sendFlag("proxy-basic")
    static let proxyDigest = sendFlag("proxy-digest")
    static let proxyAnyauth = sendFlag("proxy-anyauth")
    static let expect100Timeout = sendFlag("expect100-timeout")
    static let proxytunnel = sendFlag("proxytunnel")
    static let unixSocket = sendFlag("unix-socket")
    static let abstractUnixSocket = sendFlag("abstract-unix-socket")
    static let cert = sendFlag("cert")
    static let certType = sendFlag("cert-type")
    static let key = sendFlag("key")
    static let keyType = sendFlag("key-type")
    static let pass = sendFlag("pass")
    static let hsts = sendFlag("hsts")
    static let http09 = sendFlag("http0.9")
    static let noHttp09 = sendFlag("no-http0.9")
    static let http10 = sendFlag("http1.0")
    static let proxyUser = Option("proxy-user", short: "U", value: "U:P", """
        the proxy's user and password (Proxy-Authorization: Basic), as curl -U
        """, sendOnly: true)
    static let http = sendFlag("http")
    static let http11 = sendFlag("http1.1")
    static let http2 = sendFlag("http2")
    static let rawTransfer = sendFlag("raw-transfer")
    static let silent = Option("silent", short: "s", """
        as curl: no progress meter, and a failed transfer's message left out
        (the exit status says it); usage errors still show
        """, sendOnly: true)
    static let showError = Option("show-error", short: "S", "with -s: a failed transfer's message still shows", sendOnly: true)

    static let requestRows: [Option] = [method, policy, param, paramJson, paramsIn, form, formString, json, file, bodyFile, header, jar, force, filter] + CookieContextOptions.rows + [
                                        connect, base, url, globoff, pathAsIs, requestTarget, user, awsSigv4, .plugins]
    static let showRows: [Option] = [raw, curl, describe, readBy, send, color, .help]
    static let curlRows: [Option] = [data, dataAscii, dataRaw, dataBinary, dataUrlencode, uploadFile, get, urlQuery, oauth2Bearer, userAgent, referer, range, variable, config, next, continueAt, timeCond, etagCompare, etagSave, removeOnError, connectTo, resolve, cookie, compressed, trEncoding, ignoreContentLength]
    static let sendRows: [HelpSection.Row] = [include, noInclude, head, fail, failWithBody, output, progress, noProgress, noProgressMeter, noBuffer, remoteName, remoteNameAll, noRemoteName, remoteTime, remoteHeaderName, outputDir, noClobber, clobber, createDirs, dumpHeader, writeOut, stderrFile,
                                             verbose, traceAscii].map { .option($0) } + [.argument("URL...", """
        several URLs: the same request to each, one after another (curl's way);
        each -o FILE or -O pairs with one URL in order, the others write to
        standard output; a failure is reported and the rest still go (exit
        status: the last transfer's, as curl); one cookie engine for them all, -c
        written with every cookie. --jar, --har and --trace-ascii take one URL
        """)] + [parallel, parallelMax, failEarly, rate, retry, retryDelay, retryMaxTime, retryAllErrors, har, harWithSecrets, cookieJar, noFollow, location, locationTrusted,
                 post301, post302, post303, expect100Timeout, digest, anyauth, basic, netrc, netrcOptional, netrcFile, maxRedirects, maxRedirs, maxFilesize, ipv4, ipv6, timeout, maxTime, connectTimeout, cacert, insecure, cert, certType, key, keyType, pass, hsts,
                 proxy, socks4, socks4a, socks5, socks5Hostname, noproxy, proxytunnel, proxyUser, proxyBasic, proxyDigest, proxyAnyauth, unixSocket, abstractUnixSocket, http, http10, http11,
                 http2, http09, noHttp09, rawTransfer, silent, showError].map { .option($0) }

    /// The sections of `pekit request --help`, in order.
    static let sections: [HelpSection] = [
        HelpSection("options:", requestRows),
        HelpSection("what is done with it (one of):", showRows),
        HelpSection("curl's flags, with curl's meaning (a test holds pekit's bytes on the wire to curl's):", curlRows),
        HelpSection("""
            sending (--send): the response body goes to standard output; the exit status is 0 for any
            HTTP status (--fail: 22 for 400 and above, as curl -f), 1 when the transfer fails.
            """, rows: sendRows),
    ]

    /// Every row, in help's order.
    static let all: [Option] = sections.flatMap { $0.options }
    /// Each option's spellings (`--name`, `-x`) → whether it takes a value: what a reader of
    /// curl's words needs to tell a flag's value from the next flag.
    static let takesValue: [String: Bool] = {
        var table: [String: Bool] = [:]
        for option in all {
            table["--\(option.name)"] = option.takesValue
            if let short = option.short { table["-\(short)"] = option.takesValue }
        }
        return table
    }()

    /// The row of a send option's flag, made from its one declaration in `SendOptions.fields`
    /// (name, short form, value, help): only sending has it, except --compressed (a request
    /// field, as curl's).
    private static func sendFlag(_ name: String) -> Option { sendFlag(name, help: nil) }

    /// A send flag's row with another command's words for it (`pekit test --timeout` is the
    /// limit of each send of the run that names none): the flag, its short form and its value
    /// stay the send option's.
    static func sendFlag(_ name: String, help: String?) -> Option {
        for field in SendOptions.fields {
            for flag in field.flags where flag.name == name {
                return Option(name, short: flag.short, value: field.takesValue(flag) ? (flag.value ?? "VALUE") : nil, help ?? flag.help, sendOnly: name != "compressed")
            }
        }
        assertionFailure("pekit request: --\(name) is no send option's flag")
        return Option(name, "(no send option)")
    }
}
