import CLua
import CLuaShim
import PekitCore

/// The cookies one `jar:receive` stored, packed as the records `cookie_list.c` reads: the
/// result's `stored` list makes their tables on its first read, so a script that never reads
/// it pays for no table. One per runtime, emptied for each call and kept for its capacity.
final class CookieRecords {
    /// Touched only by this class's methods, none of which calls out: no exclusivity checks.
    @exclusivity(unchecked) private var records = pekit_cookie_records()

    deinit { pekit_cookie_records_free(&records) }

    /// Empties the records (their memory kept).
    func start() {
        records.used = 0
        records.count = 0
    }

    /// Adds `cookie`'s record. O(its length).
    /// - Throws: when no memory is left for it.
    func append(_ cookie: inout Cookie) throws {
        guard CookiesModule.withFields(of: &cookie, { pekit_cookie_records_append(&records, &$0) }) != 0 else {
            throw LuaArgumentError("not enough memory for the cookies stored")
        }
    }

    /// Pushes the list of the cookies added since `start()`.
    func push(in L: OpaquePointer) { pekit_push_cookie_list(L, &records) }
}
