/// qs's `utils.merge`, `utils.arrayToObject` and `utils.compact`, step for step: the shapes qs
/// returns when keys collide (`a=1&a[b]=2` is `{a: ["1", {b: "2"}]}`, `a[b]=1&a=c` is
/// `{a: {b: "1", c: true}}`) come from here.
extension QSParser {
    func merge(_ target: JSValue, _ source: JSValue) -> JSValue {
        guard source.isTruthy else { return target }
        guard source.isObject else {
            switch target {
            case .array(let array):
                array.push(source)
            case .object(let object):
                let name = source.propertyName
                if keepsPrototypeNames || !Self.prototypeNames.contains(name) {
                    if name != "__proto__" { object.properties[name] = .boolean(true) }
                }
            default:
                return .array(JSArray([target, source]))
            }
            return target
        }
        guard target.isTruthy, target.isObject else {
            return .array(JSArray([target] + source.concatItems))
        }
        if case .array(let targetArray) = target, case .array(let sourceArray) = source {
            for (i, item) in sourceArray.items.enumerated() {
                guard let item else { continue }
                if targetArray.has(i), let targetItem = targetArray.items[i] {
                    if targetItem.isTruthy, targetItem.isObject, item.isTruthy, item.isObject {
                        targetArray.items[i] = merge(targetItem, item)
                    } else {
                        targetArray.push(item)
                    }
                } else {
                    targetArray.set(i, item)
                }
            }
            return target
        }
        let accumulator: JSObject
        switch target {
        case .array(let array): accumulator = Self.arrayToObject(array)
        case .object(let object): accumulator = object
        default: return target
        }
        for (key, value) in Self.entries(of: source) {
            if let existing = accumulator.properties[key] {
                accumulator.properties[key] = merge(existing, value)
            } else {
                accumulator.properties[key] = value
            }
        }
        return .object(accumulator)
    }

    /// `Object.keys(value)` with the values.
    static func entries(of value: JSValue) -> [(ByteString, JSValue)] {
        switch value {
        case .array(let array):
            return array.items.enumerated().compactMap { i, item in item.map { (ByteString(Array(String(i).utf8)), $0) } }
        case .object(let object):
            return object.properties.keys.compactMap { key in object.properties[key].map { (key, $0) } }
        default:
            return []
        }
    }

    static func arrayToObject(_ array: JSArray) -> JSObject {
        let object = JSObject()
        for (i, item) in array.items.enumerated() {
            if let item, !{ if case .undefined = item { return true } else { return false } }() {
                object.properties[ByteString(Array(String(i).utf8))] = item
            }
        }
        return object
    }

    /// `utils.compact`: every array in the tree loses its holes and `undefined` elements.
    func compact(_ value: JSValue) {
        var seen = Set<ObjectIdentifier>()
        func walk(_ value: JSValue) {
            switch value {
            case .array(let array):
                guard seen.insert(ObjectIdentifier(array)).inserted else { return }
                for item in array.items { if let item { walk(item) } }
                array.items = array.items.filter { item in
                    guard let item else { return false }
                    if case .undefined = item { return false }
                    return true
                }
            case .object(let object):
                guard seen.insert(ObjectIdentifier(object)).inserted else { return }
                for key in object.properties.keys { if let child = object.properties[key] { walk(child) } }
            default:
                break
            }
        }
        walk(value)
    }
}
