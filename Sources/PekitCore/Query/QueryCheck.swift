/// The same parameters through several policies side by side, and a round-trip check through
/// a server's parser: what no other query-string tool tells you before you deploy.
public enum QueryCheck {
    /// One thing that does not survive the round trip.
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        /// Where, as a key path (`params.list[3]`).
        public let path: String
        public let problem: String
        public var description: String { "\(path): \(problem)" }
    }

    /// Encodes `value` with `policy`, parses the result as `server` would, and lists every
    /// difference from what was meant.
    /// - Returns: the query string and the problems (none when the round trip is exact).
    public static func check(_ value: PekitValue, policy: Policy, server: QueryParser, serverName: String = "the server")
        throws -> (query: ByteString, problems: [Problem]) {
        let query = try policy.queryString(value)
        var parser = server
        parser.maxLength = max(parser.maxLength, query.count)
        let parsed = try parser.parse(ByteString(Array(query.bytes.dropFirst(policy.prefix.count))))
        var context = Context(policy: policy, server: server, serverName: serverName)
        let expected = context.expected(value)
        context.diff(expected ?? .map(PekitMap(ordered: [])), parsed, path: "params")
        return (query, context.problems)
    }

    /// Each policy's pairs, encoded, and for each pair whether it differs from the pair at the same
    /// place under the first policy.
    public static func compare(_ value: PekitValue, policies: [Policy]) throws -> [(policy: Policy, pairs: [String], differs: [Bool])] {
        var rows: [(Policy, [String])] = []
        for policy in policies {
            let encoded = try policy.encodedPairs(policy.pairs(value))
            rows.append((policy, encoded.map { pair in
                String(decoding: pair.key + (pair.value.map { policy.assign.bytes + $0 } ?? []), as: UTF8.self)
            }))
        }
        let baseline = rows.first?.1 ?? []
        return rows.map { policy, pairs in
            (policy, pairs, pairs.enumerated().map { i, pair in i >= baseline.count || baseline[i] != pair })
        }
    }

    private struct Context {
        let policy: Policy
        let server: QueryParser
        let serverName: String
        var problems: [Problem] = []

        func text(_ value: PekitValue) -> PekitValue? {
            switch value {
            case .string: return value
            case .integer(let n): return .text(String(n))
            case .number(let x): return .text(x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)")
            case .boolean(let b): return .text(policy.booleans == .numeric ? (b ? "1" : "0") : (b ? "true" : "false"))
            case .null:
                switch policy.null {
                case .key: return server.bareKeyIsNull ? .null : .text("")
                case .empty: return .text("")
                case .skip: return nil
                }
            default: return nil
            }
        }

        /// What a perfect round trip gives back: scalars as the policy writes them, sets as arrays,
        /// empty containers as the policy writes them; nil when nothing is sent.
        func expected(_ value: PekitValue) -> PekitValue? {
            switch value {
            case .array(let items), .set(let items):
                if items.isEmpty { return policy.empty == .key ? .text("") : nil }
                var list = items.compactMap(expected)
                if case .set = value {
                    list = list.sorted { a, b in
                        if case .string(let x) = a, case .string(let y) = b { return x < y }
                        return false
                    }
                }
                return .array(list)
            case .map(let map):
                if map.isEmpty { return policy.empty == .key ? .text("") : nil }
                return .map(PekitMap(ordered: map.entries.compactMap { entry in expected(entry.value).map { .init(key: entry.key, value: $0) } }))
            default:
                return text(value)
            }
        }

        mutating func report(_ path: String, _ problem: String) { problems.append(Problem(path: path, problem: problem)) }

        func describe(_ value: PekitValue) -> String {
            switch value {
            case .string(let s): return "\"\(s)\""
            case .null: return "null"
            case .array(let items): return "an array of \(items.count)"
            case .map(let map): return "a map of \(map.count) key\(map.count == 1 ? "" : "s")"
            default: return value.kindName
            }
        }

        func join(_ path: String, _ key: ByteString) -> String {
            let text = key.description
            let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0)) }
            return plain ? "\(path).\(text)" : "\(path)[\"\(text)\"]"
        }

        mutating func diff(_ want: PekitValue, _ got: PekitValue, path: String) {
            switch (want, got) {
            case (.map(let a), .map(let b)):
                for entry in a.entries {
                    let child = join(path, entry.key)
                    if let value = b[entry.key] {
                        diff(entry.value, value, path: child)
                    } else if entry.key.bytes.contains(0x5B) || entry.key.bytes.contains(0x5D) || entry.key.bytes.contains(0x2E) {
                        report(child, "lost: \(serverName) reads the brackets or dots inside this key as nesting")
                    } else if case .null = entry.value {
                        report(child, "null is lost (\(serverName) does not see the key)")
                    } else {
                        report(child, "lost: \(serverName) does not see this key")
                    }
                }
                for entry in b.entries where a[entry.key] == nil {
                    report(join(path, entry.key), "appears though it was not sent (\(describe(entry.value)))")
                }
            case (.array(let a), .array(let b)):
                if a.count != b.count {
                    report(path, "sent as \(describe(want)), arrives as \(describe(got))")
                }
                for (i, pair) in zip(a, b).enumerated() { diff(pair.0, pair.1, path: "\(path)[\(i + 1)]") }
            case (.array(let a), .map):
                var reason = ""
                if case .indices = policy.arrays, a.count - 1 > server.arrayLimit { reason = ": an index over \(serverName)'s limit of \(server.arrayLimit) turns the array into a map" }
                else if !server.indicesMakeArrays { reason = ": \(serverName) reads indices as map keys" }
                report(path, "sent as \(describe(want)), arrives as \(describe(got))\(reason)")
            case (.array(let a), .string(let s)):
                if case .comma = policy.arrays {
                    report(path, "sent as \(describe(want)) in comma format, arrives as the string \"\(s)\": \(serverName) does not split on commas")
                } else if a.count > 1 {
                    report(path, "sent as \(describe(want)), arrives as one value \"\(s)\": \(serverName) keeps only one of the repeated keys")
                } else {
                    report(path, "sent as \(describe(want)), arrives as the string \"\(s)\"")
                }
            case (.string(let a), .string(let b)) where a != b:
                var reason = ""
                if a.bytes.contains(0x2B) && !b.bytes.contains(0x2B) { reason = ": the policy leaves '+' unescaped and \(serverName) reads it as a space" }
                report(path, "\"\(a)\" arrives as \"\(b)\"\(reason)")
            case (.string, .string), (.null, .null):
                break
            default:
                report(path, "sent as \(describe(want)), arrives as \(describe(got))")
            }
        }
    }
}
