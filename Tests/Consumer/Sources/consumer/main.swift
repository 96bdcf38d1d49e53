// pekit as a Swift 6 program uses it: consumer BASE_URL DIRECTORY
// BASE_URL is an HTTP server to send to (the tests' own), DIRECTORY a place for the jar's file.
// Tasks 1–5 (issue 45) are in Tasks.swift; task 6 (issue 76) is here, in top-level code, where
// an `await` once picked a blocking overload of the same name.
import Foundation
import PekitCore
import PekitFoundation
import PekitHTTP
import PekitHTTPFoundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: consumer BASE_URL DIRECTORY\n".utf8))
    exit(2)
}
let base = arguments[1]
do {
    try await Tasks.run(base: base, directory: arguments[2])
} catch {
    FileHandle.standardError.write(Data("consumer: \(error.localizedDescription)\n".utf8))
    exit(1)
}

/// What the test server's /echo answers, in part.
struct Echo: Decodable {
    var method: String
    var target: String
    var cookie: String?
}

do {
    // 6. The jar set once, on the builder: the send stores the answer's cookie in it.
    let client = try PekitClient()
    let jar = CookieJar()
    var login = RequestBuilder(url: base + "/cookies/set?session=abc")
    login.jar = jar
    let set = try await client.send(try login.build())
    print("6 sent:", set.status, "jar:", jar.all.map(\.pair))
    // A typed method, the jar's cookie sent, the answer decoded; a decoding error names its path.
    var echo = RequestBuilder(url: base + "/echo?page=2")
    echo.method = .post
    echo.body = .json(["q": "x"])
    echo.jar = jar
    let echoed = try await client.send(try echo.build())
    let read = try echoed.decode(Echo.self)
    print("6 decoded:", read.method, read.target, read.cookie ?? "no cookie")
    struct Wrong: Decodable { var body_length: String }
    do { _ = try echoed.decode(Wrong.self) } catch { print("6 refused:", error.localizedDescription.replacingOccurrences(of: base, with: "BASE")) }
    // The body as it arrives: three blocks, 0.2 s apart, as an AsyncSequence of chunks.
    let streamed = try await client.stream(try RequestBuilder(url: base + "/bytes/48192?chunked=1&pause=0.2").build())
    var chunks = 0, bytes = 0
    for try await chunk in streamed.body { chunks += 1; bytes += chunk.count }
    print("6 streamed:", streamed.head.status, bytes, "bytes in more than one chunk:", chunks > 1)
} catch {
    FileHandle.standardError.write(Data("consumer: \(error.localizedDescription)\n".utf8))
    exit(1)
}
