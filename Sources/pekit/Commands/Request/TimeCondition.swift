import Foundation
import PekitCore
import PekitHTTP

/// curl's `-z DATE|FILE` (`--time-cond`), as curl 7.88 has it: `If-Modified-Since` with the date
/// (or the file's modification time, when the text is no date), `If-Unmodified-Since` after a
/// leading `-`; an answer whose `Last-Modified` does not meet the condition is a "304": its body
/// is not written and `-w %{http_code}` says 304 (http.c, Curl_meets_timecondition). The date is
/// read with RFC 6265's date algorithm (`CookieDate`), which takes curl_getdate's common forms.
struct TimeCondition {
    let since: Bool
    let time: Int64

    /// The condition `-z` gives, or nil.
    /// - Throws: `UsageError` for text that is neither a date nor a file.
    init?(_ parsed: Arguments) throws {
        guard var text = parsed.value(RequestOptions.timeCond) else { return nil }
        var since = true
        switch text.first {
        case "-": since = false; text.removeFirst()
        case "+", "=": text.removeFirst()
        default: break
        }
        if let time = CookieDate.parse(text) {
            self.since = since; self.time = time
        } else if let attributes = try? FileManager.default.attributesOfItem(atPath: text), let date = attributes[.modificationDate] as? Date {
            self.since = since; self.time = Int64(date.timeIntervalSince1970)
        } else {
            throw UsageError(command: "request", message: "-z/--time-cond takes a date (\"dec 12 12:00:00 1999 GMT\") or a file, not '\(text)'")
        }
    }

    /// The request field, as curl writes it.
    var field: (name: String, value: String) { (since ? "If-Modified-Since" : "If-Unmodified-Since", CookieDate.format(time)) }

    /// Whether the answer meets the condition (an answer without a date does).
    func isMet(by response: PekitResponse) -> Bool {
        guard let text = response.header("Last-Modified")?.description, let modified = CookieDate.parse(text) else { return true }
        return since ? modified > time : modified <= time
    }
}
