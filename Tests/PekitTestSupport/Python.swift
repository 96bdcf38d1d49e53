import Foundation

/// Runs a Python peer: `script` with `python3 -c`, `input` on its standard input; what it
/// printed. Tests hold pekit to Python's own libraries this way (urljoin, the email parser).
public func runPython(_ script: String, input: Data) throws -> Data {
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = ["python3", "-c", script]
    let stdin = Pipe(), stdout = Pipe()
    python.standardInput = stdin
    python.standardOutput = stdout
    try python.run()
    stdin.fileHandleForWriting.write(input)
    try stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    python.waitUntilExit()
    return output
}
