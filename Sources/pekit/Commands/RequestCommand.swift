import Foundation
import PekitCore
import PekitLua

let requestCommand = Command(
    name: "request",
    summary: "build an HTTP request and print it raw, as a curl command, or as JSON",
    help: """
    usage: pekit request [--method M] [--policy P] [--param k=v]... [--json FILE] [--form k=v]...
                         [--file field=@path]... [--header 'K: V']... [--jar FILE] [--base URL]
                         [--raw | --curl | --describe] URL

    Builds the request the way AFNetworking's serializer does, done right: --param values go into
    the query for GET, HEAD and DELETE and into a form body otherwise (--params-in query|body to
    force), encoded with the policy. Prints the exact HTTP/1.1 message (--raw, the default), one
    shell-safe curl command that sends the same bytes (--curl), or a JSON description (--describe).

    options:
      --method M        the method (default GET; POST when a body is given)
      --policy P        the encoding policy for the query and form body (default rfc3986)
      --param k=v       a parameter (repeat; keys may nest: a[b]=1 is written as the policy says)
      --params-in W     query or body, to override the method's default
      --form k=v        a form body field (repeat)
      --json FILE       a JSON body from FILE ('-' for standard input)
      --file f=@path    a multipart file part (repeat; makes the body multipart/form-data)
      --header 'K: V'   a header (repeat; 'K:' with no value removes a default one)
      --jar FILE        add the Cookie header from this cookie jar file
      --base URL        resolve a relative URL against this base
      --user U:P        Basic authentication
      --plugins DIR     search DIR for plugins first
      -h, --help        show this help
    """,
    run: runRequest
)

private func runRequest(_ args: [String]) throws -> Int32 {
    let parsed = try Arguments(args, command: "request", options: [
        .init(name: "method", short: "X", takesValue: true), .init(name: "policy", short: nil, takesValue: true),
        .init(name: "param", short: nil, takesValue: true), .init(name: "params-in", short: nil, takesValue: true),
        .init(name: "form", short: nil, takesValue: true), .init(name: "json", short: nil, takesValue: true),
        .init(name: "file", short: nil, takesValue: true), .init(name: "header", short: "H", takesValue: true),
        .init(name: "jar", short: nil, takesValue: true), .init(name: "base", short: nil, takesValue: true),
        .init(name: "user", short: "u", takesValue: true),
        .init(name: "raw", short: nil, takesValue: false), .init(name: "curl", short: nil, takesValue: false),
        .init(name: "describe", short: nil, takesValue: false), pluginsOption, .init(name: "help", short: "h", takesValue: false),
    ])
    if parsed.has("help") { Output.stdout.line(requestCommand.help); return 0 }
    guard parsed.positionals.count == 1, let url = parsed.positionals.first else {
        throw UsageError(command: "request", message: parsed.positionals.isEmpty ? "give a URL" : "give one URL")
    }
    let runtime = try makeRuntime(extraPluginDirectories: parsed.all("plugins"))
    var builder = RequestBuilder(url: url)
    builder.environment = ProcessInfo.processInfo.environment
    builder.base = parsed.value("base")
    func pairs(_ option: String) throws -> PekitValue? {
        let items = parsed.all(option)
        guard !items.isEmpty else { return nil }
        return .array(try items.map { item in
            guard let eq = item.firstIndex(of: "=") else { throw UsageError(command: "request", message: "--\(option) takes key=value, not '\(item)'") }
            return .array([.text(String(item[..<eq])), .text(String(item[item.index(after: eq)...]))])
        })
    }
    do {
        if let name = parsed.value("policy") { builder.policy = try runtime.policy(named: name) }
        builder.params = try pairs("param")
        builder.form = try pairs("form")
        if let placement = parsed.value("params-in") {
            guard let value = RequestBuilder.ParameterPlacement(rawValue: placement) else {
                throw UsageError(command: "request", message: "--params-in must be query or body")
            }
            builder.paramsIn = value
        }
        if let file = parsed.value("json") {
            let bytes = file == "-" ? try readAllInput() : (Files.read(file) ?? { () -> [UInt8] in [] }())
            guard file == "-" || Files.read(file) != nil else { throw CommandFailure(message: "pekit request: \(file): cannot read the file") }
            builder.json = try JSON.parse(bytes)
        }
        let files = parsed.all("file")
        if !files.isEmpty {
            builder.multipart = try files.map { spec in
                guard let eq = spec.firstIndex(of: "="), spec[spec.index(after: eq)...].hasPrefix("@") else {
                    throw UsageError(command: "request", message: "--file takes field=@path, not '\(spec)'")
                }
                let path = String(spec[spec.index(eq, offsetBy: 2)...])
                return MultipartBody.Part(name: String(spec[..<eq]), filename: String(path.split(separator: "/").last ?? ""), source: .file(path))
            }
        }
        for header in parsed.all("header") {
            guard let colon = header.firstIndex(of: ":") else { throw UsageError(command: "request", message: "--header takes 'Name: value', not '\(header)'") }
            let name = String(header[..<colon])
            let value = String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            builder.headers.append((name, value.isEmpty ? nil : value))
        }
        if let user = parsed.value("user") {
            let parts = user.split(separator: ":", maxSplits: 1)
            builder.basicAuth = (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        if let jarPath = parsed.value("jar") {
            let jar = CookieJar(publicSuffixes: try PublicSuffixList.load(), clock: { Date().timeIntervalSince1970 })
            _ = try jar.load(from: jarPath)
            builder.jar = jar
        }
        let hasBody = builder.form != nil || builder.json != nil || builder.multipart != nil
        builder.method = parsed.value("method") ?? (hasBody ? "POST" : "GET")
        let request = try builder.build()
        if parsed.has("curl") {
            Output.stdout.line(try request.curl())
        } else if parsed.has("describe") {
            Output.stdout.write(JSON.write(LuaRuntime.describeRequest(request)))
            Output.stdout.line("")
        } else {
            Output.stdout.write(try request.raw())
        }
        return 0
    } catch let error as UsageError {
        throw error
    } catch let error as CommandFailure {
        throw error
    } catch {
        throw CommandFailure(message: "pekit request: \(error)")
    }
}
