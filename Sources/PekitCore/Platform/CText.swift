/// A NUL-terminated message from a C library (libcurl, libcrypto, strerror) as text, read
/// with its length; invalid UTF-8 is repaired. Not for Lua strings, which carry their length
/// and may hold NUL bytes.
public func cText(_ pointer: UnsafePointer<CChar>) -> String {
    String(decoding: UnsafeRawBufferPointer(start: pointer, count: CLibrary.length(pointer)), as: UTF8.self)
}
