/// How a server reads one value sent as `name=VALUE` (a query, or a form body), worked out a
/// rule at a time, each change with the rule behind it: what `pekit encode --explain` says
/// under each server. The general path is the server model's own parse of the whole query; this
/// is held to it (and so to the real servers the models are held to) by a differential test on
/// random values.
public struct ValueReading: Sendable, Equatable {
    /// What the server ends up with.
    public enum Outcome: Sendable, Equatable {
        /// The value, as bytes.
        case value([UInt8])
        /// No value: the pair is dropped (Go: with an error returned beside the other values;
        /// Python: a blank value is not kept). The words say why.
        case dropped(String)
        /// The whole query refused (Rack raises).
        case refused(String)
    }

    /// What the server reads.
    public let outcome: Outcome
    /// Each rule that changed what was sent, in the order they apply.
    public let notes: [String]
}

extension QueryServer.Model {
    /// How this server, with its defaults, reads `encoded` as the value of a pair whose name
    /// is plain (`explain=ENCODED`): what follows an `&` (or Rack's `;`) is another pair.
    /// `encoded` is an encoder's output, ASCII (a byte past it, which no encoder leaves, is
    /// read as its escape would be; servers differ on such raw bytes, which this does not say).
    /// - Parameter encoded: the value as sent.
    /// - Complexity: O(n) in the value's length.
    public func readValue(_ encoded: [UInt8]) -> ValueReading {
        var notes: [String] = []
        var raw = encoded[...]
        if let amp = raw.firstIndex(of: 0x26) {
            raw = raw[..<amp]
            notes.append("'&' ends the value: what follows it is another pair")
        }
        if name == "php", let nul = raw.firstIndex(of: 0) {
            raw = raw[..<nul]
            notes.append("a NUL byte ends the query: PHP reads it as a C string")
        }
        if name == "rack", let semicolon = raw.firstIndex(of: 0x3B) {
            raw = raw[..<semicolon]
            notes.append("';' ends the value too: Rack 2.2 splits pairs at ';' as at '&'")
        }
        // A '%' that starts no escape: where each server stands on it.
        func badEscape<C: Collection>(in bytes: C) -> [UInt8]? where C.Element == UInt8, C.Index == Int {
            var i = bytes.startIndex
            while let percent = bytes[i...].firstIndex(of: 0x25) {
                let digits = bytes[(percent + 1)...].prefix(2)
                if digits.count < 2 || !digits.allSatisfy({ ASCII.hexValue($0) != nil }) { return Array(bytes[percent...].prefix(3)) }
                i = percent + 3
            }
            return nil
        }
        let bad = badEscape(in: raw)
        switch name {
        case "qs":
            // qs splits a pair at its first "]=" when it has one, not at its first '=' (for
            // `a[b=c]=d`; lib/parse.js, parseValues): the name becomes `explain=…]` and
            // `explain` gets nothing.
            if let split = raw.indices.first(where: { raw[$0] == 0x5D && $0 + 1 < raw.endIndex && raw[$0 + 1] == 0x3D }) {
                let name = "explain=" + String(decoding: raw[...split], as: UTF8.self)
                return ValueReading(outcome: .dropped("the pair is read as \(name)"),
                                    notes: notes + ["qs splits a pair at its first ']=' where it has one, not at its first '=': the name is everything up to it"])
            }
        case "go":
            if raw.contains(0x3B) {
                return ValueReading(outcome: .dropped("invalid semicolon separator in query"),
                                    notes: notes + ["Go (1.17 on) drops a pair with a ';' in it and returns an error"])
            }
            if let bad {
                return ValueReading(outcome: .dropped("invalid URL escape \"\(String(decoding: bad, as: UTF8.self))\""),
                                    notes: notes + ["Go drops a pair where a '%' starts no escape, and returns an error"])
            }
        case "rack":
            // Rack reads the pairs in order and raises at the first it cannot read: this pair
            // where its value has a '%' starting no escape; else the first of the others that
            // has one, or a name that is not UTF-8, or clashes with an earlier one (`b]=1` then
            // `b]x`: a string where it wants a hash). The others are read by the model itself.
            if bad != nil {
                return ValueReading(outcome: .refused("invalid %-encoding"),
                                    notes: notes + ["Rack raises where a '%' starts no escape: the whole query is refused"])
            }
            if raw.endIndex < encoded.endIndex, case let rest = ByteString(Array(encoded[(raw.endIndex + 1)...])) {
                do { _ = try defaults.read(rest) } catch let error as QueryServerError {
                    let words = ["invalid %-encoding", "invalid byte sequence in UTF-8"].first { error.message.contains($0) } ?? error.message
                    return ValueReading(outcome: .refused(words),
                                        notes: notes + ["Rack raises on another pair of the query (a '%' starting no escape, a name that is not UTF-8, or one that clashes with an earlier): the whole query is refused"])
                } catch {}
            }
        default: break
        }
        if raw.contains(0x2B) { notes.append("'+' is a space to every form decoder (%2B is a '+')") }
        var decoded = Self.formDecoded(raw)
        let valid = UTF8Validation.isValid(decoded)
        switch name {
        case "qs":
            // qs's decoder: '+' to space, then decodeURIComponent; where that throws, the value
            // with its '+' replaced and nothing else (lib/utils.js, decode).
            if bad != nil || !valid {
                notes.append("qs leaves the value undecoded (but '+') where decodeURIComponent throws: a '%' that starts no escape, or escapes that are not UTF-8")
                return ValueReading(outcome: .value(raw.map { $0 == 0x2B ? 0x20 : $0 }), notes: notes)
            }
        case "python", "whatwg", "node-querystring":
            if bad != nil { notes.append("a '%' that starts no escape stays as it is") }
            if !valid {
                notes.append("bytes that are not UTF-8 become U+FFFD")
                decoded = Array(String(decoding: decoded, as: UTF8.self).utf8)
            }
            if name == "python" && decoded.isEmpty {
                return ValueReading(outcome: .dropped("a blank value"), notes: notes + ["Python's parse_qs drops a blank value (keep_blank_values=False)"])
            }
        default:
            if bad != nil { notes.append("a '%' that starts no escape stays as it is") }
            if !valid { notes.append("bytes that are not UTF-8 are kept as they are") }
        }
        return ValueReading(outcome: .value(decoded), notes: notes)
    }

    /// `bytes` with '+' a space and each `%XX` its byte (a '%' that starts no escape kept):
    /// the lenient form decoding most of the servers share.
    static func formDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        (try? PercentDecoder(mode: .lenient, plusAsSpace: true).decode(bytes: Array(bytes))) ?? Array(bytes)
    }

    /// Where `readValue(encoded)` differs from the model's parse of `explain=ENCODED` whole
    /// (the general path it is held to, by a test and the explain fuzz target), in words; nil
    /// where they agree.
    /// A later pair whose name holds `explain` (the same name again, `explain[x]`, Rack's
    /// `[[explain]`, PHP's ` explain`) is outside what `readValue` says: servers merge or
    /// replace such pairs, each its own way.
    package func disagreement(_ encoded: [UInt8]) -> String? {
        let later = encoded.split(omittingEmptySubsequences: false, whereSeparator: { $0 == 0x26 || $0 == 0x3B }).dropFirst()
        let explain = Array("explain".utf8)
        if later.contains(where: { pair in
            let name = Self.formDecoded(pair.prefix { $0 != 0x3D })
            return name.indices.contains { name[$0...].starts(with: explain) }
        }) { return nil }
        let predicted = readValue(encoded).outcome
        let parsed: ValueReading.Outcome
        do {
            let (read, error) = try defaults.reading(ByteString(Array("explain=".utf8) + encoded))
            guard case .map(let map) = read else { return "\(name) read no map: \(read)" }
            switch map["explain"] {
            case .string(let s)?: parsed = .value(s.bytes)
            case .array(let items)?:
                guard items.count == 1, case .string(let s) = items[0] else { return "\(name) read several values: \(read)" }
                parsed = .value(s.bytes)
            case nil: parsed = .dropped(error?.message ?? "a blank value")
            case let other?: return "\(name) read \(other)"
            }
        } catch {
            // Rack's refusals, in its own words (the first two said shortly).
            if let words = ["invalid %-encoding", "invalid byte sequence in UTF-8"].first(where: { "\(error)".contains($0) }) {
                parsed = .refused(words)
            } else if let error = error as? QueryServerError {
                parsed = .refused(error.message)
            } else {
                return "\(name) refused it otherwise: \(error)"
            }
        }
        // A pair dropped both ways agrees whatever the words: Go returns the query's first error,
        // which may be another pair's, and a parse says no more than that the name has no value.
        if case .dropped = predicted, case .dropped = parsed { return nil }
        return predicted == parsed ? nil : "\(name): predicted \(predicted), parsed \(parsed)"
    }
}

