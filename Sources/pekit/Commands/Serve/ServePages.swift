import PekitCore
import PekitHTTP
import PekitTools

/// `pekit serve`'s web page: the requests kept, and one request with its bytes (each escape and
/// each byte outside printable ASCII marked and explained) and each server's reading side by
/// side. Self-contained (its style inline, nothing fetched) and static: it needs no JavaScript.
enum ServePages {
    /// The list of requests kept, newest first.
    static func list(_ recorder: ServeRecorder) -> [UInt8] {
        var rows = ""
        if case .map(let listing) = recorder.list(), case .array(let requests)? = listing["requests"] {
            for case .map(let r) in requests.reversed() {
                let number: Int64 = r["number"].flatMap { if case .integer(let n) = $0 { return n } else { return nil } } ?? 0
                rows += "<tr><td><a href=\"/_pekit/requests/\(number)\">#\(number)</a></td><td>\(text(r["method"]))</td>"
                    + "<td class=\"target\">\(text(r["target"]))</td><td>\(text(r["body_bytes"]))</td></tr>\n"
            }
        }
        // Static as served; a browser with JavaScript adds each new request at the top as it
        // comes (`/_pekit/events`).
        let empty = recorder.total == 0 ? "<p class=\"empty\">No request yet. Send one to this address (a form, an app, curl): it appears here.</p>" : ""
        return page(title: "pekit serve: requests", body: """
            <h1>Requests received: <span id="total">\(recorder.total)</span></h1>
            \(empty)
            <table class="list"><thead><tr><th>#</th><th>method</th><th>target</th><th>body bytes</th></tr></thead><tbody id="requests">
            \(rows)</tbody></table>
            <script>
            var stream = new EventSource("/_pekit/events");
            stream.addEventListener("request", function (event) {
              var r = JSON.parse(event.data), row = document.createElement("tr"), link = document.createElement("a");
              link.href = "/_pekit/requests/" + r.number; link.textContent = "#" + r.number;
              [link, r.method, r.target, String(r.body_bytes)].forEach(function (v, i) {
                var cell = document.createElement("td"); if (i === 2) cell.className = "target";
                if (typeof v === "string") cell.textContent = v; else cell.appendChild(v); row.appendChild(cell);
              });
              document.getElementById("requests").prepend(row);
              document.getElementById("total").textContent = r.number;
              var empty = document.querySelector(".empty"); if (empty) empty.remove();
            });
            </script>
            """)
    }

    /// One request: its parts, its bytes explained, and each server's reading.
    static func detail(_ request: ServedRequest, _ recorder: ServeRecorder) -> [UInt8] {
        var table = "<table class=\"servers\"><thead><tr><th>server</th><th>query</th><th>body</th><th>cookies</th></tr></thead><tbody>\n"
        var first: [String]?
        var differing: [String] = []
        // Every server's readings, once: the table below and the header fields' table share them.
        let all = recorder.readings(of: request, headers: true)
        if case .map(let readings) = all {
            for entry in readings.entries {
                guard case .map(let reading) = entry.value else { continue }
                let cells = ["query", "body", "cookies"].map { json(reading[ByteString($0)]) }
                // Go's cookies are a list of pairs; compared as the map `r.Cookie(name)` reads (the first of a name).
                let compared = [cells[0], cells[1], json(reading["cookies"].map(firstOfEachName))]
                let baseline = first ?? compared
                if first == nil { first = baseline }
                table += "<tr><th>\(escape(entry.key.description))</th>"
                if compared != baseline { differing.append(entry.key.description) }
                for (n, cell) in cells.enumerated() {
                    let mark = compared[n] == baseline[n] ? "" : " class=\"differs\" title=\"differs from \(escape(String(describing: readings.entries[0].key)))'s reading\""
                    table += "<td\(mark)><pre>\(escape(cell))</pre></td>"
                }
                table += "</tr>\n"
            }
        }
        table += "</tbody></table>"
        // Why: each server's rules that this request calls on, for the first server and each
        // that reads it otherwise.
        let cookieHeader = Array(request.headers.filter { PekitHeaders.sameName($0.name, "Cookie") }.map(\.value).joined(separator: Array("; ".utf8)))
        var why = ""
        for name in (recorder.servers.first.map { [$0.name] } ?? []) + differing {
            var rules = ReadingRules.query(request.query ?? [], model: name)
            if request.isForm { rules += ReadingRules.query(request.body, model: name).filter { !rules.contains($0) } }
            if request.isMultipart { rules += ReadingRules.multipart(model: name) }
            rules += ReadingRules.cookies(cookieHeader, model: name)
            guard !rules.isEmpty else { continue }
            why += "<li><b>\(escape(name))</b>: " + rules.map(escape).joined(separator: "; ") + "</li>\n"
        }
        if !why.isEmpty { table += "\n<h3>Why they differ</h3>\n<p class=\"note\">The rules of each server that this request calls on (the first server's, and each that reads it otherwise), with the code they come from.</p>\n<ul class=\"why\">\n\(why)</ul>" }
        // What each server hands its program of the header fields (a table of its own: the names
        // themselves differ, HTTP_X_A against X-A against x-a).
        var fieldsTable = "<table class=\"servers\"><thead><tr><th>server</th><th>header fields, as the program is given them</th></tr></thead><tbody>\n"
        if case .map(let readings) = all {
            for entry in readings.entries {
                guard case .map(let reading) = entry.value, let fields = reading["headers"], fields != .null else { continue }
                fieldsTable += "<tr><th>\(escape(entry.key.description))</th><td><pre>\(escape(json(fields)))</pre></td></tr>\n"
            }
        }
        fieldsTable += "</tbody></table>"
        let headers = request.headers.map { "<tr><th>\(escape($0.name))</th><td>\(explained($0.value))</td></tr>" }.joined(separator: "\n")
        return page(title: "pekit serve: request #\(request.number)", body: """
            <p><a href="/_pekit/">all requests</a></p>
            <h1>#\(request.number) \(escape(request.method)) <span class="target">\(explained(request.target))</span></h1>
            <p>\(escape(request.version)) from \(escape(request.peer)), \(request.body.count) body bytes, \(request.raw.count) bytes in all</p>
            <h2>How each server reads it</h2>
            <p class="note">A cell marked <span class="differs">so</span> differs from the first server's reading. A body is read when it is urlencoded (as a query) or multipart/form-data (by each server's own parser; Express, under qs, reads none without a middleware such as multer); cookies by each server's cookie parser (Express's <code>cookie</code> under qs).</p>
            \(table)
            <h2>Header fields</h2>
            <table class="headers"><tbody>
            \(headers)
            </tbody></table>
            <h3>As each server hands them to the program</h3>
            <p class="note">CGI-style servers (PHP, Rack, wsgiref) name a field <code>HTTP_</code> and its name with <code>-</code> as <code>_</code>, so <code>X-A</code> and <code>X_A</code> become one; a field sent twice is joined (", " or ","), listed (Go) or only its first kept (node, for fields it knows to be single).</p>
            \(fieldsTable)
            \(request.curl(authority: recorder.authority).map { "<h2>As curl</h2>\n<p class=\"note\">The same method, target, fields and body, sent again:</p>\n<pre class=\"curl\">\(escape($0))</pre>" } ?? "")
            \(request.curl(authority: recorder.authority).flatMap { try? luaFromCurl($0) }.map { "<h2>As pekit Lua</h2>\n<p class=\"note\">What <code>pekit import curl</code> makes of that command: a script (<code>pekit run</code>) that sends the same bytes:</p>\n<pre class=\"lua\">\(escape($0))</pre>" } ?? "")
            \(httpFile(request, recorder))
            <h2>The bytes, as received</h2>
            <p class="note">Escapes (<mark class="esc">%2F</mark>) and bytes outside printable ASCII (<mark class="byte">\\xFF</mark>) are marked; hover for what each is. ␍ is a CR byte.</p>
            <pre class="raw">\(explained(request.raw))</pre>
            <script>
            // A copy button above each of the request's forms, where a script runs (without one
            // the page shows the same, and the text is selected by hand).
            for (const pre of document.querySelectorAll("pre.curl, pre.lua, pre.http")) {
              const button = document.createElement("button");
              button.className = "copy";
              button.type = "button";
              button.textContent = "copy";
              button.addEventListener("click", () => navigator.clipboard.writeText(pre.textContent).then(() => { button.textContent = "copied"; }));
              pre.before(button);
            }
            </script>
            """)
    }

    /// The request as a `.http` file (`pekit export http`: what `pekit test` and the editors'
    /// HTTP clients send again), or why it cannot be one.
    private static func httpFile(_ request: ServedRequest, _ recorder: ServeRecorder) -> String {
        guard let entry = request.harEntry(authority: recorder.authority) else { return "" }
        do {
            let text = try CollectionExport.write([entry], as: .http, name: "request \(request.number)")
            return "<h2>As a .http file</h2>\n<p class=\"note\">What <code>pekit export http</code> writes; <code>pekit test</code> sends it again:</p>\n<pre class=\"http\">\(escape(text))</pre>"
        } catch {
            return "<h2>As a .http file</h2>\n<p class=\"note\">A .http file cannot hold this request exactly: \(escape("\(error)"))</p>"
        }
    }

    private static func text(_ value: PekitValue?) -> String {
        switch value {
        case .string(let s)?: return explained(s.bytes)
        case .integer(let n)?: return String(n)
        default: return ""
        }
    }

    /// A list of `[name, value]` pairs as a map of each name's first value; anything else as it is.
    private static func firstOfEachName(_ value: PekitValue) -> PekitValue {
        guard case .array(let pairs) = value else { return value }
        var entries: [PekitMap.Entry] = []
        for case .array(let pair) in pairs where pair.count == 2 {
            guard case .string(let name) = pair[0], !entries.contains(where: { $0.key == name }) else { continue }
            entries.append(.init(key: name, value: pair[1]))
        }
        return .map(PekitMap(ordered: entries))
    }

    private static func json(_ value: PekitValue?) -> String {
        guard let value else { return "null" }
        return String(decoding: (try? JSONText.encodePretty(value)) ?? JSONText.write(value), as: UTF8.self)
    }

    /// HTML text of bytes: each `%XX` escape marked with the byte it stands for, each byte
    /// outside printable ASCII marked with its value (a UTF-8 sequence as its character), CR as ␍.
    static func explained(_ bytes: [UInt8]) -> String {
        var out = "", i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x25, i + 2 < bytes.count, let hi = ASCII.hexValue(bytes[i + 1]), let lo = ASCII.hexValue(bytes[i + 2]) {
                let value = UInt8(hi * 16 + lo)
                let shown = value >= 0x20 && value < 0x7F ? "'\(Character(Unicode.Scalar(value)))'" : "a byte outside printable ASCII"
                out += "<mark class=\"esc\" title=\"%\(ASCII.hex(value)): the byte 0x\(ASCII.hex(value)), \(escape(shown))\">\(escape(String(decoding: bytes[i..<(i + 3)], as: UTF8.self)))</mark>"
                i += 3
                continue
            }
            if b == 0x0D { out += "<span class=\"cr\">␍</span>"; i += 1; continue }
            if b == 0x0A || b == 0x09 || (b >= 0x20 && b < 0x7F) { out += escape(String(Character(Unicode.Scalar(b)))); i += 1; continue }
            // A whole UTF-8 sequence is one character; another byte is shown by its value.
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
            if length > 1, i + length <= bytes.count, let character = ValidUTF8.string(Array(bytes[i..<(i + length)])) {
                let hex = bytes[i..<(i + length)].map { ASCII.hex($0) }.joined(separator: " ")
                out += "<mark class=\"byte\" title=\"UTF-8 bytes \(hex): \(escape(character))\">\(escape(character))</mark>"
                i += length
            } else {
                out += "<mark class=\"byte\" title=\"the byte 0x\(ASCII.hex(b)), not a character\">\\x\(ASCII.hex(b))</mark>"
                i += 1
            }
        }
        return out
    }

    /// Text as HTML holds it: the test report's escaping (`TestHTMLReport.escape`).
    static func escape(_ text: String) -> String { TestHTMLReport.escape(text) }

    private static func page(title: String, body: String) -> [UInt8] {
        Array("""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>
            body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 72em; padding: 0 1em; color: #1d2330; }
            h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.6em; }
            table { border-collapse: collapse; width: 100%; } th, td { border: 1px solid #d5d9e2; padding: .3em .5em; text-align: left; vertical-align: top; }
            th { background: #f3f5f9; font-weight: 600; } pre { margin: 0; white-space: pre-wrap; word-break: break-all; font: 13px/1.4 ui-monospace, monospace; }
            .raw { background: #f7f8fb; border: 1px solid #d5d9e2; padding: .6em; }
            mark.esc { background: #dfe9ff; color: #123a8c; border-radius: 2px; } mark.byte { background: #ffe3c2; color: #7a3b00; border-radius: 2px; }
            .cr { color: #9aa3b5; } .differs, td.differs { background: #fff4c7; } .note, .empty { color: #5a6478; } .target { word-break: break-all; }
            pre.curl, pre.lua, pre.http { background: #f7f8fb; border: 1px solid #d5d9e2; padding: .6em; }
            button.copy { float: right; margin: .3em; font: 12px system-ui, sans-serif; }
            </style></head><body>
            \(body)
            </body></html>

            """.utf8)
    }
}
