/// A request built once and made again with other values for the caller's header fields: what
/// `RequestBuilder.build()` gives for the same builder with only those values changed, and its
/// head, without building again. A load script's `request` function returns the same table each
/// time but for a value or two (a counter in a field); building it anew was most of what a
/// request cost the runner.
///
/// Made only where the build places each value and does nothing else with it: the builder is
/// built once more with other values (probes), and the two builds must differ in those values
/// alone, each in one field and one place in the head. A field whose value frames the body
/// (`Content-Length`, `Transfer-Encoding`) keeps a builder off it, and so does a value that is
/// empty (its field is written without the space). `RequestTemplateTests` holds what it makes to
/// `build()` on random builders and values, errors included.
package final class RequestTemplate {
    /// What a builder must have, but for its fields' values, for a template to serve it: its URL,
    /// its method, and its fields' names, spacing, removals and empty values. (A caller that
    /// sees the same key twice in a row may expect more of it, and make a template then.)
    package struct Key {
        let url: String, method: String
        let fields: [Field]

        struct Field: Equatable {
            var name: String, spacing: String, nameAsWritten: Bool
            /// A value (nil: the field removes a default), and whether it is empty.
            var valued: Bool, empty: Bool

            init(_ header: RequestBuilder.Header) {
                name = header.name; spacing = header.spacing; nameAsWritten = header.nameAsWritten
                valued = header.value != nil; empty = header.value?.isEmpty ?? true
            }
        }

        /// The key of a builder of `url`, `method` (its `rawValue`) and `headers`.
        package init(url: String, method: String, headers: [RequestBuilder.Header]) {
            self.url = url; self.method = method; fields = headers.map(Field.init)
        }

        /// Whether a builder of `url`, `method` and `headers` has this key (nothing made to compare).
        package func matches(url: String, method: String, headers: [RequestBuilder.Header]) -> Bool {
            guard url == self.url, method == self.method, headers.count == fields.count else { return false }
            for (header, field) in zip(headers, fields) where Field(header) != field { return false }
            return true
        }
    }

    /// The key of the builder the template was made from.
    package let key: Key
    /// The request as built, with its head.
    private let request: PekitRequest
    /// The builder's fields that have a value (their indexes), and for each its index in the
    /// request's fields.
    private let valued: [Int], places: [Int]
    /// The head cut where the values go: `pieces[0]`, the value that comes first in the head,
    /// `pieces[1]`, …; `order[i]`: which field's value comes i-th.
    private let pieces: [[UInt8]], order: [Int]
    private let piecesLength: Int

    /// The template of `builder`, and the request it builds.
    /// - Returns: nil for the template where the builder is not one it can serve (the request
    ///   is then built all the same).
    /// - Throws: what `builder.build()` throws.
    package static func make(_ builder: RequestBuilder) throws -> (template: RequestTemplate?, request: PekitRequest) {
        let request = try builder.build()
        return (RequestTemplate(builder, request), request)
    }

    private init?(_ builder: RequestBuilder, _ built: PekitRequest) {
        let valued = builder.headers.indices.filter { builder.headers[$0].value != nil }
        guard !builder.headers.contains(where: { PekitHeaders.sameName($0.name, "Content-Length") || PekitHeaders.sameName($0.name, "Transfer-Encoding") }),
              valued.allSatisfy({ builder.headers[$0].value?.isEmpty == false }) else { return nil }
        // The probes: values the builder's own cannot hold, each one different.
        var probing = builder
        let probes = valued.indices.map { "\u{1F9EA}pekit-probe-\($0)-\(valued.count)" }
        for (k, i) in valued.enumerated() {
            probing.headers[i].value = probes[k]
            probing.headers[i].rawValue = nil
        }
        guard let probe = try? probing.build() else { return nil }
        // Everything but the values the same; each probe in one field, where its value is.
        guard probe.url == built.url, probe.method == built.method, probe.requestTarget == built.requestTarget,
              probe.body == built.body, probe.continueExpected == built.continueExpected, probe.framingLength == built.framingLength,
              probe.decodesBody == built.decodesBody, probe.basicCredentials == built.basicCredentials,
              probe.headers.fields.count == built.headers.fields.count else { return nil }
        var places = Array(repeating: -1, count: valued.count)
        for (index, (a, b)) in zip(probe.headers.fields, built.headers.fields).enumerated() {
            guard a.name == b.name, a.spacing == b.spacing else { return nil }
            if a.value == b.value && a.rawValue == b.rawValue { continue }
            guard let k = probes.firstIndex(of: a.value), a.rawValue == nil, places[k] == -1 else { return nil }
            let given = builder.headers[valued[k]]
            guard b.value == given.value, b.rawValue == given.rawValue else { return nil }
            places[k] = index
        }
        guard !places.contains(-1) else { return nil }
        // The head cut at the probes, each found once; put together with the values it must
        // be the built request's head.
        let head = probe.head()
        var found: [(at: Int, k: Int)] = []
        for (k, text) in probes.enumerated() {
            let bytes = Array(text.utf8)
            let at = Self.occurrences(of: bytes, in: head)
            guard at.count == 1 else { return nil }
            found.append((at[0], k))
        }
        found.sort { $0.at < $1.at }
        var pieces: [[UInt8]] = [], from = 0
        for (at, k) in found {
            pieces.append(Array(head[from..<at]))
            from = at + probes[k].utf8.count
        }
        pieces.append(Array(head[from...]))
        key = Key(url: builder.url, method: builder.method.rawValue, headers: builder.headers)
        self.valued = valued
        self.places = places
        self.pieces = pieces
        piecesLength = pieces.reduce(0) { $0 + $1.count }
        order = found.map(\.k)
        var request = built
        request.madeHead = nil
        self.request = request
        guard let (again, madeHead) = try? made(with: builder.headers), madeHead == built.head(), again.headers == built.headers else { return nil }
    }

    /// Where `needle` starts in `haystack`, every time.
    private static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard !needle.isEmpty, haystack.count >= needle.count else { return [] }
        return (0...(haystack.count - needle.count)).filter { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// The request the builder of `url`, `method` and `headers` builds (everything else as the
    /// template's builder had it), with its head; nil when the template does not serve it.
    /// - Throws: what `build()` throws for a value that cannot go in a field (the first, in the
    ///   builder's order).
    /// - Complexity: O(n) in the head's length.
    package func request(url: String, method: String, headers: [RequestBuilder.Header]) throws -> PekitRequest? {
        guard key.matches(url: url, method: method, headers: headers) else { return nil }
        return try made(with: headers).request
    }

    /// The template's request with `headers`' values (shaped as the template's builder's).
    private func made(with headers: [RequestBuilder.Header]) throws -> (request: PekitRequest, head: [UInt8]) {
        // Checked as the build checks every field, in order, before placing any.
        for header in headers { try header.validate() }
        var request = self.request
        for (k, i) in valued.enumerated() {
            request.headers.replaceValue(at: places[k], headers[i].value ?? "", raw: headers[i].rawValue)
        }
        // The values' bytes straight into the head (no copy of each made first).
        var head: [UInt8] = []
        head.reserveCapacity(piecesLength + 32 * valued.count)
        for (i, piece) in pieces.enumerated() {
            head += piece
            guard i < order.count else { continue }
            let header = headers[valued[order[i]]]
            if let raw = header.rawValue { head += raw } else { head += (header.value ?? "").utf8 }
        }
        request.madeHead = head
        return (request, head)
    }
}
