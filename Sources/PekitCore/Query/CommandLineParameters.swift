/// Parameters written as `key=value` on a command line, read into the nested value a Lua table
/// would be, so that a policy writes brackets, arrays and order its own way: `u[name]=x`,
/// `tags[]=a`, `m[0][k]=v`, and with `dots` (a policy that writes objects as `a.b`) `u.name=x`.
/// A typed item's value is JSON (`n=1` is the number 1, `u={"name":"x"}` an object), and a typed
/// item may be a whole JSON object, each member a parameter (`{"u":{"name":"x"},"n":1}`).
/// The result is always a table, so the policy orders its keys as it orders a Lua table's (afnetworking
/// sorts them); a key given again is a list of its values, which the policy writes its own way
/// (`roles=a roles=b`: `roles[]=a&roles[]=b` with brackets, `roles=a&roles=b` with repeats).
public enum CommandLineParameters {
    /// Why an item does not read.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        /// Whether the item it names was a typed one (`--param-json`), so the message names the
        /// option the user wrote.
        public internal(set) var typed = false
    }

    /// The parameters `items` give.
    /// - Parameter items: `(key=value text, typed)` in the order given.
    /// - Parameter dots: `a.b=1` nests as `a[b]=1` does.
    /// - Throws: `Failure` naming the item (no `=`, a key that is both a value and a table, a
    ///   list index that skips, JSON that does not parse).
    public static func read(_ items: [(text: String, typed: Bool)], dots: Bool = false) throws -> PekitValue {
        var parsed: [(path: [Segment], value: PekitValue, text: String, typed: Bool)] = []
        for (text, typed) in items {
            do {
                // A typed item may be a whole JSON object: each of its members a parameter.
                if typed, text.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" }).first == "{" {
                    let object: PekitValue
                    do { object = try JSONText.parse(Array(text.utf8), duplicates: .error) } catch {
                        throw Failure(description: "takes key=JSON or a JSON object, and '\(text)' is neither: \(error)")
                    }
                    guard case .map(let members) = object else { throw Failure(description: "takes key=JSON or a JSON object, not '\(text)'") }
                    for member in members.entries {
                        parsed.append(([.key(member.key.description)], member.value, text, typed))
                    }
                    continue
                }
                guard let eq = text.firstIndex(of: "=") else {
                    throw Failure(description: typed ? "takes key=JSON or a JSON object, not '\(text)'" : "takes key=value, not '\(text)'")
                }
                let key = String(text[..<eq]), raw = String(text[text.index(after: eq)...])
                let value: PekitValue
                if typed {
                    do { value = try JSONText.parse(Array(raw.utf8)) } catch { throw Failure(description: "'\(text)': the value is not JSON: \(error)") }
                } else {
                    value = .text(raw)
                }
                parsed.append((try path(key, dots: dots, item: text), value, text, typed))
            } catch var failure as Failure {
                failure.typed = typed
                throw failure
            }
        }
        var root = Node.map([])
        for item in parsed {
            do { try insert(item.value, at: item.path[...], into: &root, item: item.text) } catch var failure as Failure {
                failure.typed = item.typed
                throw failure
            }
        }
        return root.value
    }

    enum Segment: Equatable { case key(String), append, index(Int) }

    /// `u[name][]` → key u, key name, append; with dots, `u.name` → key u, key name.
    static func path(_ key: String, dots: Bool, item: String) throws -> [Segment] {
        guard !key.isEmpty else { throw Failure(description: "'\(item)' has an empty key") }
        var segments: [Segment] = []
        var rest = Substring(key)
        let openIndex = rest.firstIndex(of: "[")
        let head = openIndex.map { rest[..<$0] } ?? rest
        if dots {
            segments += head.split(separator: ".", omittingEmptySubsequences: false).map { .key(String($0)) }
        } else {
            segments.append(.key(String(head)))
        }
        guard let open = openIndex else { return segments }
        rest = rest[open...]
        while !rest.isEmpty {
            guard rest.first == "[", let close = rest.firstIndex(of: "]") else {
                throw Failure(description: "'\(item)': the key's brackets do not close")
            }
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            if inner.isEmpty { segments.append(.append) }
            else if let n = Int(inner), n >= 0, inner.allSatisfy(\.isNumber) { segments.append(.index(n)) }
            else { segments.append(.key(String(inner))) }
            rest = rest[rest.index(after: close)...]
        }
        return segments
    }

    /// A tree being built: maps keep their order of first appearance.
    indirect enum Node {
        case map([(String, Node)])
        case list([Node])
        case leaf(PekitValue)

        var value: PekitValue {
            switch self {
            case .map(let entries): return .map(PekitMap(ordered: entries.map { .init(key: ByteString($0.0), value: $0.1.value) }))
            case .list(let items): return .array(items.map(\.value))
            case .leaf(let v): return v
            }
        }
    }

    static func insert(_ value: PekitValue, at path: ArraySlice<Segment>, into node: inout Node, item: String) throws {
        guard let segment = path.first else {
            switch node {
            // A key given again is a list of its values (`roles=a roles=b` says `roles[]=a roles[]=b`).
            case .leaf(let first): node = .list([.leaf(first), .leaf(value)])
            case .list(var items) where !items.isEmpty:
                items.append(.leaf(value))
                node = .list(items)
            case .map(let e) where !e.isEmpty: throw Failure(description: "'\(item)': the key already holds a table")
            default: node = .leaf(value)
            }
            return
        }
        let rest = path.dropFirst()
        switch (segment, node) {
        case (.key(let k), .map(var entries)):
            if let i = entries.firstIndex(where: { $0.0 == k }) {
                var child = entries[i].1
                try insert(value, at: rest, into: &child, item: item)
                entries[i].1 = child
            } else {
                var child = Self.container(for: rest.first)
                if rest.isEmpty { child = .leaf(value) } else { try insert(value, at: rest, into: &child, item: item) }
                entries.append((k, child))
            }
            node = .map(entries)
        case (.append, .list(var items)):
            var child = Self.container(for: rest.first)
            if rest.isEmpty { child = .leaf(value) } else { try insert(value, at: rest, into: &child, item: item) }
            items.append(child)
            node = .list(items)
        case (.index(let n), .list(var items)):
            if n < items.count {
                var child = items[n]
                try insert(value, at: rest, into: &child, item: item)
                items[n] = child
            } else if n == items.count {
                var child = Self.container(for: rest.first)
                if rest.isEmpty { child = .leaf(value) } else { try insert(value, at: rest, into: &child, item: item) }
                items.append(child)
            } else {
                throw Failure(description: "'\(item)': index \(n) skips ahead (the list has \(items.count) items)")
            }
            node = .list(items)
        case (.index(let n), .map(let entries)) where entries.isEmpty:
            node = .list([])
            try insert(value, at: path, into: &node, item: item)
            _ = n
        case (.append, .map(let entries)) where entries.isEmpty:
            node = .list([])
            try insert(value, at: path, into: &node, item: item)
        default:
            throw Failure(description: "'\(item)': the key is used both as a list and as a table, or as a value and a table")
        }
    }

    /// The empty container a segment goes into.
    static func container(for next: Segment?) -> Node {
        switch next {
        case .append?, .index?: return .list([])
        default: return .map([])
        }
    }
}
