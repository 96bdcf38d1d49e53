/// The names policies are written with (plugin files, `pekit.policy.get`, messages): one table
/// for reading and writing them. A custom closure is named "custom" and cannot be named back.
public protocol NamedPolicyOption {
    /// The presets and their names.
    static var named: [(String, Self)] { get }
    /// The name a plugin writes; `custom` for a closure.
    var name: String { get }
}

extension NamedPolicyOption {
    /// The preset called `name`, or nil.
    public init?(name: String) {
        guard let found = Self.named.first(where: { $0.0 == name }) else { return nil }
        self = found.1
    }
}

extension Policy.Order: NamedPolicyOption {
    public static let named: [(String, Policy.Order)] = [("ascending", .ascending), ("bytes", .bytes), ("pairs", .pairs), ("given", .given)]

    /// The order's name.
    public var name: String {
        switch self {
        case .ascending: return "ascending"
        case .bytes: return "bytes"
        case .pairs: return "pairs"
        case .given: return "given"
        case .custom: return "custom"
        }
    }
}

extension Policy.ArrayEncoding: NamedPolicyOption {
    public static let named: [(String, Policy.ArrayEncoding)] = [("brackets", .brackets), ("indices", .indices), ("repeat", .repeat), ("comma", .comma),
                                                                  ("indices-when-nested", .indicesWhenNested)]

    /// The array style's name.
    public var name: String {
        switch self {
        case .brackets: return "brackets"
        case .indices: return "indices"
        case .repeat: return "repeat"
        case .comma: return "comma"
        case .indicesWhenNested: return "indices-when-nested"
        case .custom: return "custom"
        }
    }
}

extension Policy.ObjectEncoding: NamedPolicyOption {
    public static let named: [(String, Policy.ObjectEncoding)] = [("brackets", .brackets), ("dots", .dots)]

    /// The nesting style's name.
    public var name: String {
        switch self {
        case .brackets: return "brackets"
        case .dots: return "dots"
        case .custom: return "custom"
        }
    }
}

extension Policy.NullEncoding: NamedPolicyOption {
    /// `text` has no name of its own: a plugin writes it as `null = { text = "<null>" }`.
    public static let named: [(String, Policy.NullEncoding)] = [("key", .key), ("empty", .empty), ("skip", .skip)]

    /// The null rule's name; `text` for `.text(_:)`.
    public var name: String {
        switch self {
        case .key: return "key"
        case .empty: return "empty"
        case .skip: return "skip"
        case .text: return "text"
        }
    }
}
