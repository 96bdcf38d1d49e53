import Foundation

/// The local test server (Tests/Server/pekit_test_server.py) on 127.0.0.1: HTTP, and HTTPS with
/// a test CA made by openssl at start. One per test process, started on first use; it exits when
/// the test process does.
public final class TestServer: @unchecked Sendable {
    public let httpPort: Int
    public let httpsPort: Int
    /// The test CA's certificate (PEM); the server's certificate names api.example.test and
    /// www.example.test, never an IP address.
    public let cacert: String
    private let process: Process

    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Server/pekit_test_server.py").path

    private static let lock = NSLock()
    nonisolated(unsafe) private static var instance: TestServer?

    /// The running server, started on first use.
    /// - Throws: when python3 or openssl is missing or the server does not say it is ready.
    public static func shared() throws -> TestServer {
        lock.lock(); defer { lock.unlock() }
        if let instance { return instance }
        let server = try TestServer()
        instance = server
        return server
    }

    private init() throws {
        let tls = FileManager.default.temporaryDirectory.appendingPathComponent("pekit-tls-\(UUID().uuidString)").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script, "--tls-dir", tls]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        struct Ready: Decodable { let http: Int; let https: Int?; let cacert: String? }
        guard let ready = try? JSONDecoder().decode(Ready.self, from: line), let https = ready.https, let cacert = ready.cacert else {
            let message = String(decoding: err.fileHandleForReading.availableData, as: UTF8.self)
            throw NSError(domain: "TestServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "the test server did not start: \(message)"])
        }
        httpPort = ready.http
        httpsPort = https
        self.cacert = cacert
    }

    /// `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(httpPort)" }
}

/// A new empty directory under the system's temporary directory, named `pekit-NAME-UUID`.
public func makeTemporaryDirectory(_ name: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pekit-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// A file that is not a cookie jar ("my notes\n", `notes.txt`) in `directory`, and a symbolic link
/// to it (`link.txt`): what a save must refuse to replace, directly and through the link.
public func makeNotesAndLink(in directory: URL) throws -> (notes: String, link: String) {
    let notes = directory.appendingPathComponent("notes.txt").path
    try "my notes\n".write(toFile: notes, atomically: true, encoding: .utf8)
    let link = directory.appendingPathComponent("link.txt").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: notes)
    return (notes, link)
}
