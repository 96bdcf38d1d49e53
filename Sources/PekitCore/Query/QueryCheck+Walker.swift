/// The comparison behind `QueryCheck.check`: the input tree against the tree (or, for flat
/// servers, the name → values map) the server read.
extension QueryCheck {
    struct Walker {
        let policy: Policy
        let server: QueryServer
        var leaves: [Leaf] = []

        var name: String { server.name }

        mutating func add(_ path: String, _ status: Leaf.Status, _ detail: String) {
            leaves.append(Leaf(path: path, status: status, detail: detail))
        }

        // MARK: nested servers (qs, php, rack)

        mutating func walk(_ sent: PekitValue, _ got: PekitValue?, _ path: String) {
            switch sent {
            case .map(let map):
                guard !map.isEmpty else { return empty(sent, got, path) }
                switch got {
                case .map(let read):
                    for entry in map.entries { walk(entry.value, read[entry.key], join(path, entry.key)) }
                    for entry in read.entries where map[entry.key] == nil {
                        add(join(path, entry.key), .extra, "\(name) reads \(describe(entry.value)) that was not sent\(bracketHint(map))")
                    }
                case .array(let items):
                    add(path, .changed, "sent as \(describe(sent)), arrives as \(describe(got))")
                    for entry in map.entries { walk(entry.value, jsArrayIndex(entry.key.bytes).flatMap { Int($0) < items.count ? items[Int($0)] : nil }, join(path, entry.key)) }
                case nil:
                    lostAll(sent, path, "\(name) does not see it")
                default:
                    add(path, .changed, "sent as \(describe(sent)), arrives as \(describe(got))")
                    lostAll(sent, path, "the map arrives as \(describe(got))", skipSelf: true)
                }
            case .array(let items), .set(let items):
                guard !items.isEmpty else { return empty(sent, got, path) }
                let list = sortedIfSet(sent, items)
                // Elements the policy does not write at all cannot be read back.
                var sentIndices: [Int] = []
                for (i, item) in list.enumerated() {
                    if isUnsent(item) { lostAll(item, "\(path)[\(i)]", unsentReason(item)) } else { sentIndices.append(i) }
                }
                switch got {
                case .array(let read):
                    if read.count != sentIndices.count {
                        add(path, .changed, "sent as a list of \(sentIndices.count), arrives as \(describe(got))\(arrayReason(read.count, sentIndices.count))")
                    }
                    for (k, i) in sentIndices.enumerated() { walk(list[i], k < read.count ? read[k] : nil, "\(path)[\(i)]") }
                    if read.count > sentIndices.count {
                        for k in sentIndices.count..<read.count { add("\(path)[\(k)]", .extra, "\(name) reads \(describe(read[k])) that was not sent") }
                    }
                case .map(let read):
                    add(path, .changed, "sent as a list of \(sentIndices.count), arrives as \(describe(got))\(mapReason(list.count))")
                    // Indices are written as the element's place in the list; other styles count what is sent.
                    let written: Bool = { if case .indices = policy.arrays { return true }; return false }()
                    for (k, i) in sentIndices.enumerated() { walk(list[i], read[ByteString(String(written ? i : k))], "\(path)[\(i)]") }
                case nil:
                    for i in sentIndices { lostAll(list[i], "\(path)[\(i)]", "\(name) does not see it") }
                default:
                    let reason: String
                    if case .comma = policy.arrays { reason = ": \(name) does not split on commas" }
                    else if sentIndices.count > 1 { reason = ": \(name) keeps only one of the repeated keys" }
                    else { reason = "" }
                    add(path, .changed, "sent as a list of \(sentIndices.count), arrives as \(describe(got))\(reason)")
                    for i in sentIndices { lostAll(list[i], "\(path)[\(i)]", "the list arrives as one value", skipSelf: false) }
                }
            default:
                scalar(sent, got, path)
            }
        }

        mutating func scalar(_ sent: PekitValue, _ got: PekitValue?, _ path: String) {
            let text = policy.text(sent)
            switch got {
            case nil:
                if case .null = sent { add(path, .lost, policy.null == .skip ? "null is not sent (the policy skips nulls)" : "null is sent but \(name) drops it") }
                else { add(path, .lost, "\(name) drops \(describe(sent))") }
            case .string(let read)?:
                switch sent {
                case .string(let s):
                    if s == read { add(path, .exact, describe(sent)) }
                    else { add(path, .changed, "\(describe(sent)) arrives as \(describe(.string(read)))\(plusHint(s, read))") }
                case .null:
                    if read.isEmpty { add(path, .changedType, "null arrives as an empty string") }
                    else { add(path, .changed, "null arrives as \(describe(.string(read)))") }
                default:
                    if let text, text == read { add(path, .changedType, "\(describe(sent)) arrives as the string \(describe(.string(read)))") }
                    else { add(path, .changed, "\(describe(sent)) arrives as \(describe(.string(read)))") }
                }
            case .null?:
                if case .null = sent { add(path, .exact, "null") } else { add(path, .changed, "\(describe(sent)) arrives as null") }
            case let other?:
                add(path, .changed, "\(describe(sent)) arrives as \(describe(other))")
            }
        }

        mutating func empty(_ sent: PekitValue, _ got: PekitValue?, _ path: String) {
            switch got {
            case nil:
                add(path, .lost, policy.empty == .skip ? "\(describe(sent)) is not sent (the policy skips empty lists and maps)" : "\(describe(sent)) is sent but \(name) drops it")
            case .array(let items)? where items.isEmpty: add(path, .exact, describe(sent))
            case .map(let map)? where map.isEmpty: add(path, .exact, describe(sent))
            case .string(let s)? where s.isEmpty: add(path, .changed, "\(describe(sent)) arrives as an empty string")
            case let other?: add(path, .changed, "\(describe(sent)) arrives as \(describe(other))")
            }
        }

        /// Every value under `value`, lost for `reason`.
        mutating func lostAll(_ value: PekitValue, _ path: String, _ reason: String, skipSelf: Bool = false) {
            switch value {
            case .map(let map) where !map.isEmpty:
                for entry in map.entries { lostAll(entry.value, join(path, entry.key), reason) }
            case .array(let items) where !items.isEmpty, .set(let items) where !items.isEmpty:
                for (i, item) in sortedIfSet(value, items).enumerated() { lostAll(item, "\(path)[\(i)]", reason) }
            default:
                if !skipSelf { add(path, .lost, "\(describe(value)): \(reason)") }
            }
        }

        func isUnsent(_ value: PekitValue) -> Bool {
            switch value {
            case .null: return policy.null == .skip
            case .array(let items), .set(let items): return items.isEmpty && policy.empty == .skip
            case .map(let map): return map.isEmpty && policy.empty == .skip
            default: return false
            }
        }

        func unsentReason(_ value: PekitValue) -> String {
            if case .null = value { return "the policy skips nulls, so the list is shorter" }
            return "the policy skips empty lists and maps, so the list is shorter"
        }

        func sortedIfSet(_ value: PekitValue, _ items: [PekitValue]) -> [PekitValue] {
            guard case .set = value else { return items }
            return stableSorted(items) { a, b in
                guard let x = QueryText.scalar(a) else { return false }
                guard let y = QueryText.scalar(b) else { return true }
                return x < y
            }
        }

        func arrayReason(_ read: Int, _ sent: Int) -> String {
            if case .repeat = policy.arrays, read < sent { return ": \(name) keeps only one of the repeated keys" }
            return ""
        }

        func mapReason(_ count: Int) -> String {
            if case .qs(let qs) = server, case .indices = policy.arrays, count - 1 > qs.arrayLimit {
                return ": an index over qs's arrayLimit of \(qs.arrayLimit) turns the list into a map"
            }
            if case .rack = server, case .indices = policy.arrays { return ": Rack reads indices as hash keys" }
            return ""
        }

        func bracketHint(_ map: PekitMap) -> String {
            map.entries.contains { $0.key.bytes.contains(0x5B) || $0.key.bytes.contains(0x2E) } ? " (brackets or dots inside a key read as nesting)" : ""
        }

        func plusHint(_ sent: ByteString, _ read: ByteString) -> String {
            sent.bytes.contains(0x2B) && !read.bytes.contains(0x2B) ? ": the policy leaves '+' unescaped and \(name) reads it as a space" : ""
        }

        // MARK: flat servers (python, go, whatwg, node-querystring)

        mutating func flat(_ sent: PekitValue, _ got: PekitValue) {
            guard case .map(let read) = got else { return }
            var claimed = Set<ByteString>()
            let entries: [PekitMap.Entry]
            switch sent {
            case .map(let map): entries = map.entries
            case .array(let pairs):
                entries = pairs.compactMap { pair in
                    guard case .array(let kv) = pair, let key = kv.first.flatMap(QueryText.scalar) else { return nil }
                    return .init(key: key, value: kv.count > 1 ? kv[1] : .null)
                }
            default: entries = []
            }
            for entry in entries {
                let path = join("params", entry.key)
                let values: [PekitValue]? = { if case .array(let list)? = read[entry.key] { return list }; return nil }()
                switch entry.value {
                case .array(let items), .set(let items):
                    if case .repeat = policy.arrays, items.allSatisfy({ !QueryText.isNested($0) }) {
                        claimed.insert(entry.key)
                        walk(entry.value, values.map(PekitValue.array), path)
                        continue
                    }
                    fallthrough
                case .map:
                    let names = flatNames(entry)
                    claimed.formUnion(names)
                    if names.isEmpty { empty(entry.value, values.map(PekitValue.array), path); continue }
                    if names == [entry.key], let values { walk(entry.value, values.count == 1 ? values[0] : .array(values), path); continue }
                    let shown = names.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ") + (names.count > 3 ? ", …" : "")
                    add(path, .changed, "\(name) does not nest: \(describe(entry.value)) arrives under the flat name\(names.count == 1 ? "" : "s") \(shown)")
                default:
                    claimed.insert(entry.key)
                    switch values?.count {
                    case nil, 0?: scalar(entry.value, nil, path)
                    case 1?: scalar(entry.value, values?[0], path)
                    default: add(path, .changed, "\(describe(entry.value)) arrives \(values?.count ?? 0) times")
                    }
                }
            }
            for entry in read.entries where !claimed.contains(entry.key) {
                add(join("params", entry.key), .extra, "\(name) reads \(describe(entry.value)) that was not sent")
            }
        }

        /// The names the policy writes for one top-level entry.
        func flatNames(_ entry: PekitMap.Entry) -> [ByteString] {
            let pairs = (try? policy.pairs(.map(PekitMap(ordered: [entry])))) ?? []
            var seen = Set<ByteString>(), names: [ByteString] = []
            for pair in pairs where seen.insert(pair.key).inserted { names.append(pair.key) }
            return names
        }

        // MARK: text

        func describe(_ value: PekitValue?) -> String {
            guard let value else { return "nothing" }
            switch value {
            case .string(let s): return "\"\(s)\""
            case .integer(let n): return "the number \(n)"
            case .bigInteger(let digits): return "the number \(digits)"
            case .number(let x): return "the number \(QueryText.formatNumber(x))"
            case .boolean(let b): return b ? "true" : "false"
            case .null: return "null"
            case .array(let items): return items.isEmpty ? "an empty list" : "a list of \(items.count)"
            case .set(let items): return items.isEmpty ? "an empty set" : "a set of \(items.count)"
            case .map(let map): return map.isEmpty ? "an empty map" : "a map of \(map.count) key\(map.count == 1 ? "" : "s")"
            }
        }

        func join(_ path: String, _ key: ByteString) -> String {
            let text = key.description
            let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0)) }
            return plain ? "\(path).\(text)" : "\(path)[\"\(text)\"]"
        }
    }
}
