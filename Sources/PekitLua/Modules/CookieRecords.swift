import CLua
import CLuaShim
import PekitCore

/// The cookies one `jar:receive` stored, packed as the records `cookie_list.c` reads: the
/// result's `stored` list makes their tables on its first read, so a script that never reads
/// it pays for no table. One per runtime, emptied for each call and kept for its capacity.
final class CookieRecords {
    /// Touched only by this class's methods, none of which calls out: no exclusivity checks.
    @exclusivity(unchecked) private var bytes: [UInt8] = []

    /// Empties the records (their memory kept).
    func start() { bytes.removeAll(keepingCapacity: true) }

    /// Adds `cookie`'s record. O(its length).
    func append(_ cookie: Cookie) {
        CookiesModule.withFields(of: cookie) { fields in
            let size = pekit_cookie_record_size(&fields)
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: size))
            bytes.withUnsafeMutableBufferPointer { if let base = $0.baseAddress { pekit_cookie_record_write(base + start, &fields) } }
        }
    }

    /// Pushes the list of the `count` cookies added since `start()`.
    func push(count: Int64, in L: OpaquePointer) {
        bytes.withUnsafeBufferPointer { pekit_push_cookie_list(L, $0.baseAddress, $0.count, lua_Integer(count)) }
    }
}
