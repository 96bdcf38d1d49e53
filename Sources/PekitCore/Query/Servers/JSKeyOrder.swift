/// The array index a JavaScript property name is, if it is one (canonical decimal, 0 ... 2³²−2).
func jsArrayIndex<Bytes: Collection>(_ key: Bytes) -> UInt32? where Bytes.Element == UInt8 {
    guard let first = key.first, first >= 0x30, first <= 0x39, key.count <= 10 else { return nil }
    guard key.count == 1 || first != 0x30 else { return nil }
    var n: UInt64 = 0
    for b in key {
        guard b >= 0x30, b <= 0x39 else { return nil }
        n = n * 10 + UInt64(b - 0x30)
    }
    return n <= 4_294_967_294 ? UInt32(n) : nil
}

/// A JavaScript object's own properties in the order `Object.keys` lists them: names that are
/// array indices (canonical decimal, 0 ... 2³²−2) first, ascending, then the others in the order
/// they were added. qs and node's querystring return objects, so their order is this one.
struct JSKeyOrder<Value> {
    private var indexKeys: [UInt32] = []
    private var indexSorted = true
    private var stringKeys: [ByteString] = []
    private(set) var values: [ByteString: Value] = [:]

    var count: Int { values.count }

    subscript(key: ByteString) -> Value? {
        get { values[key] }
        set {
            guard let newValue else {
                if values.removeValue(forKey: key) != nil {
                    if let index = jsArrayIndex(key.bytes) { indexKeys.removeAll { $0 == index } } else { stringKeys.removeAll { $0 == key } }
                }
                return
            }
            if values.updateValue(newValue, forKey: key) == nil {
                if let index = jsArrayIndex(key.bytes) {
                    if let last = indexKeys.last, last > index { indexSorted = false }
                    indexKeys.append(index)
                } else {
                    stringKeys.append(key)
                }
            }
        }
    }

    /// The keys in `Object.keys` order.
    var keys: [ByteString] {
        let indices = indexSorted ? indexKeys : indexKeys.sorted()
        return indices.map { ByteString(Array(String($0).utf8)) } + stringKeys
    }

}

extension JSKeyOrder where Value == [[UInt16]] {
    /// node's querystring `addKeyVal`: a repeated name collects its values.
    mutating func append(_ key: ByteString, _ value: [UInt16]) {
        if values[key] != nil { values[key]?.append(value) } else { self[key] = [value] }
    }

    /// Each name to the list of its values, in `Object.keys` order.
    var flatValue: PekitValue {
        .map(PekitMap(ordered: keys.map { key in
            .init(key: key, value: .array((values[key] ?? []).map { .string(ByteString(Array(String(decoding: $0, as: UTF16.self).utf8))) }))
        }))
    }
}
