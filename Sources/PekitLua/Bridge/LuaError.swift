import Foundation
import PekitHTTP
/// An error from Lua code (a runtime error, a syntax error, a failed plugin), with the message
/// Lua gave (position included) and, when there is one, the traceback.
public struct LuaError: Error, CustomStringConvertible, Equatable {
    /// The message, e.g. `script.lua:3: attempt to call a nil value (global 'f')`.
    public internal(set) var message: String
    /// `stack traceback:` and its lines, or empty.
    public let traceback: String
    /// Whether the code was stopped by Ctrl-C (the flag the signal set, not the message's text:
    /// a script's own `error("… interrupted")` is an ordinary error).
    public internal(set) var isInterrupt = false

    public init(message: String, traceback: String = "") {
        self.message = message
        self.traceback = traceback
    }

    /// Splits what the traceback message handler produced into message and traceback.
    init(handled text: String) {
        if let range = text.range(of: "\nstack traceback:") {
            message = String(text[..<range.lowerBound])
            traceback = String(text[text.index(after: range.lowerBound)...])
        } else {
            message = text
            traceback = ""
        }
    }

    public var description: String { message }
}

/// An error's message as a script reads it: HTTPError names the options by their Lua fields
/// (`max_redirects`), not the Swift properties its `description` names.
package func luaMessage(_ error: any Error) -> String {
    if let error = error as? HTTPError { return error.message(.lua) }
    return "\(error)"
}

/// An error a Swift function exposed to Lua reports; the bridge turns it into a Lua error
/// prefixed with the caller's position and the function's name.
package struct LuaArgumentError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
