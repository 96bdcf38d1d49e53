/// The same parameters through several policies side by side, and a round trip through a real
/// server's parser compared with what was *meant*: what no other query-string tool tells you
/// before you deploy.
public enum QueryCheck {
    /// What became of one value of the input.
    public struct Leaf: Equatable, Sendable, CustomStringConvertible {
        /// How the server read one value.
        public enum Status: String, Sendable {
            /// The server reads exactly what was sent.
            case exact
            /// The same text, another type: a number or boolean arrives as a string, null as "".
            case changedType = "changed-type"
            /// Another value or shape: `a+b` read as `a b`, a list read as a map or a flat name.
            case changed
            /// Not there at all: null, an empty list or map, a key the server drops, a value cut by a limit.
            case lost
            /// Something the server reads that was not sent.
            case extra
            /// The server raises (or, for Go, returns an error).
            case error
        }
        /// Where, as a key path with list positions as the query writes them (`params.list[0]`).
        public let path: String
        /// What became of the value.
        public let status: Status
        /// What the server read instead, in words.
        public let detail: String
        public var description: String { "\(status.rawValue) \(path): \(detail)" }
    }

    /// The query sent and what became of every value in it.
    public struct Report: Sendable {
        /// The query as the policy wrote it.
        public let query: ByteString
        /// One leaf for each value sent, and for each the server read that was not sent.
        public let leaves: [Leaf]
        /// The leaves that are not exact.
        public var problems: [Leaf] { leaves.filter { $0.status != .exact } }
        /// True only when every value arrives exactly as sent.
        public var isExact: Bool { leaves.allSatisfy { $0.status == .exact } }
    }

    /// Encodes `value` with `policy`, reads the result as `server` does, and reports every value of
    /// the input as exact, changed in type, changed, or lost (and what the server reads that was
    /// not sent).
    /// - Throws: `QueryError` when the value cannot be encoded.
    public static func check(_ value: PekitValue, policy: Policy, server: QueryServer) throws -> Report {
        let query = try policy.queryString(value)
        var walker = Walker(policy: policy, server: server)
        let read: PekitValue
        do {
            let result = try server.reading(ByteString(Array(query.bytes.dropFirst(policy.prefix.count))))
            read = result.value
            if let error = result.error { walker.add("params", .error, "\(error)") }
        } catch let error as QueryServerError {
            walker.add("params", .error, "\(error): nothing is read")
            walker.lostAll(value, "params", "\(server.name) raises")
            return Report(query: query, leaves: walker.leaves)
        }
        if server.isFlat { walker.flat(value, read) } else { walker.walk(value, read, "params") }
        return Report(query: query, leaves: walker.leaves)
    }

    /// Each policy's pairs, encoded, and for each pair whether the first policy sends no such
    /// pair: pairs are compared as a server receives them (percent-decoded, `+` kept as it is),
    /// as a multiset, so that the same pairs in another order are not marked; `reordered` says
    /// that a row has the first row's pairs in another order, and `missing` lists the first
    /// row's pairs (as it writes them) that the row does not send (a null it drops).
    /// - Complexity: O(n) in the number of pairs, after encoding.
    public static func compare(_ value: PekitValue, policies: [Policy]) throws
        -> [(policy: Policy, pairs: [String], differs: [Bool], reordered: Bool, missing: [String])] {
        var rows: [(Policy, [String])] = []
        for policy in policies {
            let encoded = try policy.encodedPairs(policy.pairs(value))
            rows.append((policy, encoded.map { pair in
                String(decoding: pair.key + (pair.value.map { policy.assign.bytes + $0 } ?? []), as: UTF8.self)
            }))
        }
        let decoder = PercentDecoder(mode: .lenient)
        func received(_ pair: String, _ policy: Policy) -> [UInt8] {
            // Key and value apart, so that an escaped '=' in a key stays in the key.
            let bytes = Array(pair.utf8), assign = policy.assign.bytes
            let split = ByteSearch.first(assign, in: bytes)
            let key = split.map { Array(bytes[..<$0]) } ?? bytes
            let value = split.map { Array(bytes[($0 + assign.count)...]) }
            var out = (try? decoder.decode(bytes: key)) ?? key
            if let value { out += [0x00, 0x3D] + ((try? decoder.decode(bytes: value)) ?? value) }
            return out
        }
        guard let (firstPolicy, firstPairs) = rows.first else { return [] }
        let baseline = firstPairs.map { received($0, firstPolicy) }
        var counts: [[UInt8]: Int] = [:]
        for pair in baseline { counts[pair, default: 0] += 1 }
        return rows.map { policy, pairs in
            var left = counts
            let got = pairs.map { received($0, policy) }
            let differs = got.map { pair -> Bool in
                guard let n = left[pair], n > 0 else { return true }
                left[pair] = n - 1
                return false
            }
            let missing = zip(firstPairs, baseline).compactMap { text, pair -> String? in
                guard let n = left[pair], n > 0 else { return nil }
                left[pair] = n - 1
                return text
            }
            return (policy, pairs, differs, !differs.contains(true) && missing.isEmpty && got != baseline, missing)
        }
    }
}
