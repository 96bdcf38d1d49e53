/// A PHP array as the Zend engine keeps it: an ordered hash whose keys are integers or strings
/// (a string that is a canonical decimal integer becomes an integer key), with the "next free
/// element" counter that `$a[] = …` uses.
final class PHPArray {
    enum Key: Hashable {
        case int(Int64)
        case string(ByteString)
    }
    enum Value {
        case string(ByteString)
        case array(PHPArray)
        /// An integer element (`$_FILES`' error and size).
        case integer(Int64)
    }

    private(set) var order: [Key] = []
    private(set) var values: [Key: Value] = [:]
    /// ZEND_LONG_MIN until an integer key is used: the next append then goes to 0.
    private var nextFree = Int64.min

    /// `zend_symtable_*`: the key a name is stored under.
    static func key(_ name: ArraySlice<UInt8>) -> Key {
        handleNumeric(name).map(Key.int) ?? .string(ByteString(bytes: name))
    }

    /// `ZEND_HANDLE_NUMERIC_STR`: an optional `-`, no leading zeros, no `-0`, at most 19 digits
    /// and within the range of a 64-bit integer.
    static func handleNumeric(_ s: ArraySlice<UInt8>) -> Int64? {
        var i = s.startIndex
        let negative = s.first == 0x2D
        if negative { i += 1 }
        guard i < s.endIndex, s[i] >= 0x30, s[i] <= 0x39 else { return nil }
        if s[i] == 0x30 && s.count > 1 { return nil }
        guard s.endIndex - i <= 19 else { return nil }
        var n: UInt64 = 0
        while i < s.endIndex {
            guard s[i] >= 0x30, s[i] <= 0x39 else { return nil }
            n = n * 10 + UInt64(s[i] - 0x30)
            i += 1
        }
        if negative {
            guard n - 1 <= UInt64(Int64.max) else { return nil }
            return n == UInt64(Int64.max) + 1 ? Int64.min : -Int64(n)
        }
        return n <= UInt64(Int64.max) ? Int64(n) : nil
    }

    subscript(key: Key) -> Value? { values[key] }

    /// `zend_hash_update`: replaces in place, or adds at the end.
    func update(_ key: Key, _ value: Value) {
        if values.updateValue(value, forKey: key) == nil { order.append(key) }
        if case .int(let h) = key, h >= nextFree { nextFree = h < Int64.max ? h + 1 : Int64.max }
    }

    /// `zend_hash_next_index_insert`: false when the next index is taken (after `Int64.max`).
    @discardableResult
    func append(_ value: Value) -> Bool {
        let h = nextFree == Int64.min ? 0 : nextFree
        guard values[.int(h)] == nil else { return false }
        update(.int(h), value)
        return true
    }

    func remove(_ key: Key) {
        guard values.removeValue(forKey: key) != nil else { return }
        order.removeAll { $0 == key }
    }

    /// As `json_encode` shows it: a list when the keys are 0, 1, … in order, else an ordered map.
    var value: PekitValue {
        let isList = order.enumerated().allSatisfy { i, key in key == .int(Int64(i)) }
        func convert(_ v: Value) -> PekitValue {
            switch v {
            case .string(let s): return .string(s)
            case .array(let a): return a.value
            case .integer(let n): return .integer(n)
            }
        }
        if isList { return .array(order.compactMap { values[$0].map(convert) }) }
        return .map(PekitMap(ordered: order.compactMap { key in
            values[key].map { value in
                switch key {
                case .int(let n): return .init(key: ByteString(String(n)), value: convert(value))
                case .string(let s): return .init(key: s, value: convert(value))
                }
            }
        }))
    }
}
