import CLua
import CLuaShim
import CXMLShim
import PekitCore

/// `pekit.xml.xpath(document, expression [, {html = true}])`: XPath 1.0 over an XML or HTML
/// document (UTF-8 text: `r:text()` gives a body so), by Debian's libxml2, loaded the first time
/// it is asked for. A node set is a list of the nodes' string values; a string, a number and a
/// boolean are themselves.
enum XMLModule: LuaModule {
    static let name = "xml"

    /// What the C callback is given: where the texts go.
    private final class Texts { var items: [[UInt8]] = [] }

    static func install(in runtime: LuaRuntime, into pekit: Int32) {
        let setFunction = runtime.setFunction
        installTable(in: runtime, into: pekit) { module in
            setFunction(module, "pekit.xml", "xpath") { call in
                let document = try call.bytes(1)
                let expression = try call.string(2)
                var html = false
                if call.stack.type(3) == LUA_TTABLE {
                    _ = call.stack.rawGet(3, "html")
                    html = call.stack.bool(-1)
                    call.stack.pop()
                } else if !call.stack.isNoneOrNil(3) {
                    throw call.typeError(3, expected: "table of options ({html = true})")
                }
                guard !expression.utf8.contains(0) else { throw call.badArgument(2, "an XPath expression has no NUL byte") }
                let texts = Texts()
                var number = 0.0
                var error = [CChar](repeating: 0, count: 512)
                let kind = withExtendedLifetime(texts) {
                    document.withUnsafeBufferPointer { bytes in
                        bytes.withMemoryRebound(to: CChar.self) { chars in
                            pekit_xpath(chars.baseAddress, chars.count, html ? 1 : 0, expression, &number, { context, text, length in
                                guard let context else { return 1 }
                                let texts = Unmanaged<Texts>.fromOpaque(context).takeUnretainedValue()
                                texts.items.append(text.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? [])
                                return 0
                            }, Unmanaged.passUnretained(texts).toOpaque(), &error, error.count)
                        }
                    }
                }
                switch kind {
                case Int32(PEKIT_XPATH_NODES):
                    call.stack.newTable(narr: Int32(texts.items.count))
                    for (i, text) in texts.items.enumerated() {
                        call.stack.push(ByteString(text))
                        call.stack.rawSetIndex(-2, Int64(i + 1))
                    }
                    call.runtime.setMarker(.array)
                case Int32(PEKIT_XPATH_STRING): call.stack.push(ByteString(texts.items.first ?? []))
                case Int32(PEKIT_XPATH_NUMBER): call.stack.push(number: number)
                case Int32(PEKIT_XPATH_BOOLEAN): call.stack.push(bool: number != 0)
                default: throw call.badArgument(kind == Int32(PEKIT_XPATH_FAILED) ? 2 : 1, cText(error))
                }
                return 1
            }
        }
    }
}
