/// node's `querystring.parse(str, sep, eq, {maxKeys})` (what Express uses with
/// `extended: false`), ported from node's own code: it scans UTF-16 code units, decodes a
/// name or value only when it saw a `%XX` in it, tries `decodeURIComponent` and, when that
/// throws, falls back to node's byte unescaper (which keeps bad escapes and truncates code
/// units to bytes, as node does).
public struct NodeQuerystringParser: Sendable {
    /// The pair separator (`sep`), `&` by default.
    public var sep: ByteString = "&"
    /// The name/value separator (`eq`), `=` by default.
    public var eq: ByteString = "="
    /// Most pairs read (`maxKeys`); 0 or less means no limit.
    public var maxKeys = 1000

    /// node's defaults: `&`, `=`, 1000 keys.
    public init() {}

    /// Each name, in node's key order (array-index names first, ascending), to the list of its
    /// values.
    public func parse(_ query: ByteString) -> PekitValue {
        let qs = Array(String(decoding: query.bytes, as: UTF8.self).utf16)
        var object = JSKeyOrder<[[UInt16]]>()
        guard !qs.isEmpty else { return object.flatValue }
        let sepCodes = sep.isEmpty ? [UInt16(0x26)] : Array(String(decoding: sep.bytes, as: UTF8.self).utf16)
        let eqCodes = eq.isEmpty ? [UInt16(0x3D)] : Array(String(decoding: eq.bytes, as: UTF8.self).utf16)
        var pairs = maxKeys > 0 ? maxKeys : -1
        var lastPos = 0, sepIdx = 0, eqIdx = 0
        var key: [UInt16] = [], value: [UInt16] = []
        var keyEncoded = false, valEncoded = false
        var encodeCheck = 0

        func add() {
            let k = keyEncoded && !key.isEmpty ? Self.unescape(key) : key
            let v = valEncoded && !value.isEmpty ? Self.unescape(value) : value
            object.append(ByteString(Array(String(decoding: k, as: UTF16.self).utf8)), v)
        }
        var i = 0
        while i < qs.count {
            defer { i += 1 }
            let code = qs[i]
            if code == sepCodes[sepIdx] {
                sepIdx += 1
                if sepIdx == sepCodes.count {
                    let end = i - sepIdx + 1
                    if eqIdx < eqCodes.count {
                        if lastPos < end {
                            key += qs[lastPos..<end]
                        } else if key.isEmpty {
                            pairs -= 1
                            if pairs == 0 { return object.flatValue }
                            lastPos = i + 1
                            sepIdx = 0; eqIdx = 0
                            continue
                        }
                    } else if lastPos < end {
                        value += qs[lastPos..<end]
                    }
                    add()
                    pairs -= 1
                    if pairs == 0 { return object.flatValue }
                    keyEncoded = false; valEncoded = false
                    key = []; value = []
                    encodeCheck = 0
                    lastPos = i + 1
                    sepIdx = 0; eqIdx = 0
                }
                continue
            }
            sepIdx = 0
            if eqIdx < eqCodes.count {
                if code == eqCodes[eqIdx] {
                    eqIdx += 1
                    if eqIdx == eqCodes.count {
                        let end = i - eqIdx + 1
                        if lastPos < end { key += qs[lastPos..<end] }
                        encodeCheck = 0
                        lastPos = i + 1
                    }
                    continue
                }
                eqIdx = 0
                if !keyEncoded {
                    if code == 0x25 {
                        encodeCheck = 1
                        continue
                    } else if encodeCheck > 0 {
                        if Self.isHex(code) {
                            encodeCheck += 1
                            if encodeCheck == 3 { keyEncoded = true }
                            continue
                        }
                        encodeCheck = 0
                    }
                }
                if code == 0x2B {
                    if lastPos < i { key += qs[lastPos..<i] }
                    key.append(0x20)
                    lastPos = i + 1
                    continue
                }
            }
            if code == 0x2B {
                if lastPos < i { value += qs[lastPos..<i] }
                value.append(0x20)
                lastPos = i + 1
            } else if !valEncoded {
                if code == 0x25 {
                    encodeCheck = 1
                } else if encodeCheck > 0 {
                    if Self.isHex(code) {
                        encodeCheck += 1
                        if encodeCheck == 3 { valEncoded = true }
                    } else {
                        encodeCheck = 0
                    }
                }
            }
        }
        if lastPos < qs.count {
            if eqIdx < eqCodes.count { key += qs[lastPos...] } else if sepIdx < sepCodes.count { value += qs[lastPos...] }
        } else if eqIdx == 0 && key.isEmpty {
            return object.flatValue
        }
        add()
        return object.flatValue
    }

    static func isHex(_ code: UInt16) -> Bool { code < 0x80 && hexValue(UInt8(code)) != nil }

    /// `QueryString.unescape`: `decodeURIComponent`, or node's byte unescaper when that throws.
    static func unescape(_ s: [UInt16]) -> [UInt16] {
        if let decoded = try? JSURIDecoding.decodeURIComponent(s) { return decoded }
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var index = 0
        let maxLength = s.count - 2
        while index < s.count {
            var current = s[index]
            if current == 0x25 && index < maxLength {
                index += 1
                let high = s[index]
                current = high
                guard isHex(high) else { out.append(0x25); continue }
                index += 1
                let low = s[index]
                if !isHex(low) {
                    out.append(0x25)
                    index -= 1
                } else if let h = hexValue(UInt8(high)), let l = hexValue(UInt8(low)) {
                    current = UInt16(h << 4 | l)
                }
            }
            out.append(UInt8(truncatingIfNeeded: current))  // node writes each code unit into one byte
            index += 1
        }
        return Array(String(decoding: UTF8Decoding.repaired(out), as: UTF8.self).utf16)
    }
}

extension NodeQuerystringParser: QueryServerParser {
    public func read(_ query: ByteString) throws -> PekitValue { parse(query) }

    /// `querystring.parse(str, sep, eq, {maxKeys})`.
    static let optionRows: [QueryServer.OptionRow<NodeQuerystringParser>] = [
        .text("sep", \.sep, nonEmpty: false),
        .text("eq", \.eq, nonEmpty: false),
        .integer("maxKeys", \.maxKeys, Int64(Int32.min)...Int64.max),
    ]
}
