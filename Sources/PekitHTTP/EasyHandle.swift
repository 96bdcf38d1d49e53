import CCurl
import CCurlShim

/// A libcurl easy handle and what stays with it from one transfer to the next: its error buffer,
/// and the header list of its last transfer, which a request with the same header lines (a loop
/// of requests to one API) uses again instead of building and freeing one per request.
final class EasyHandle {
    let pointer: UnsafeMutableRawPointer
    /// curl's message for a failed transfer (CURLOPT_ERRORBUFFER).
    let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// The lines `headerList` was made from, each ending in NUL.
    private var headerLines: [UInt8] = []

    /// Nil when libcurl cannot make a handle.
    init?() {
        guard let pointer = pekit_curl.easy_init() else { return nil }
        self.pointer = pointer
        errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        pekit_curl.easy_cleanup(pointer)
        pekit_curl.slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// The header list for `lines` (header lines, each ending in NUL): the last one when the
    /// lines are the same, else a new one (the old one is freed: no transfer uses it any more,
    /// as a handle runs one transfer at a time and this is called as the next is set up).
    func headerList(for lines: [UInt8]) -> UnsafeMutablePointer<curl_slist>? {
        if lines == headerLines, headerList != nil { return headerList }
        pekit_curl.slist_free_all(headerList)
        headerList = nil
        lines.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else { return }
                var start = 0
                for i in 0..<chars.count where chars[i] == 0 {
                    headerList = pekit_curl.slist_append(headerList, base + start)
                    start = i + 1
                }
            }
        }
        headerLines = lines
        return headerList
    }
}
