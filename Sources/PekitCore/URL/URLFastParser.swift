/// The URL Standard's parser for the shape most URLs have: a scheme then an authority
/// (`https://user@host:8080/a/b?q#f`, or `foo://…` for a scheme that is not special), with no
/// tab or newline in it. It writes the href and its spans in one pass over the input, as ada's
/// url_aggregator does, instead of building each component and serializing them after.
///
/// It answers false for every other input — relative references, `file:`, opaque paths, input
/// that is not UTF-8, and every input the Standard fails on — and the state machine (`URLParser`) parses those, so
/// errors have one source. For what it takes, it gives the href the state machine gives (the
/// node vectors run through both, and the `url` fuzz target compares them).
enum URLFastParser {
    /// The bytes an authority's scan stops at (with "\\" too for a special scheme): "/", "?", "#",
    /// "@", ":", "[" and "]" (and, as in every set, bytes past ASCII).
    static let authorityBytes = PercentEncodeSet(low: 0x8400_8008_0000_0000, high: 0x0000_0000_2800_0001)

    /// The range of `s` without the leading and trailing C0 controls and spaces the Standard removes.
    static func trimmed(_ s: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = 0, end = s.count
        while start < end, s[start] <= 0x20 { start += 1 }
        while end > start, s[end - 1] <= 0x20 { end -= 1 }
        return start..<end
    }

    /// Parses `s` into `out` and `spans`; false (with `out` in any state) when the state machine
    /// must. `base` matters only for a special scheme equal to its own without `//` after it.
    /// `wellFormed`: `s` is known to be UTF-8 (a String's own bytes), so it is not checked again.
    static func parse(_ s: UnsafeBufferPointer<UInt8>, base: WHATWGURL?, wellFormed: Bool, into out: inout ByteWriter, _ spans: inout WHATWGURL.Spans) -> Bool {
        let range = trimmed(s)
        var p = range.lowerBound
        let end = range.upperBound
        guard p < end, URLParser.isAlpha(Int(s[p])) else { return false }
        // Tabs and newlines are removed first: the state machine does that. Controls and non-ASCII
        // bytes are rare, so one loop the compiler can vectorize says whether there are any, and
        // they are looked at only when there are.
        var controls: UInt8 = 0, all: UInt8 = 0
        for b in UnsafeBufferPointer(rebasing: s[range]) {
            controls |= b < 0x20 ? 1 : 0
            all |= b
        }
        if controls != 0 { for i in range where s[i] == 0x09 || s[i] == 0x0A || s[i] == 0x0D { return false } }
        if all >= 0x80 && !wellFormed && UTF8Validation.firstInvalidIndex(s) != nil { return false }
        out.reserve((end - p) * 3 / 2 + 16)

        // The scheme, lower case.
        while p < end {
            let b = s[p]
            if URLParser.isAlpha(Int(b)) { out.append(b | 0x20) }
            else if (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E { out.append(b) }
            else { break }
            p += 1
        }
        guard p < end, s[p] == 0x3A else { return false }
        let defaultPort: Int
        switch WHATWGURL.defaultPort(ofScheme: out.written) {
        case .some(.some(let port)): defaultPort = port
        case .some(.none): return false  // file: drive letters and localhost are the state machine's
        case .none: defaultPort = -1
        }
        let special = defaultPort >= 0
        spans.schemeEnd = UInt32(out.count)
        spans.hasTupleOrigin = special
        spans.hasOpaquePath = false
        out.append(0x3A)
        p += 1
        let twoSlashes = p + 1 < end && s[p] == 0x2F && s[p + 1] == 0x2F
        if special {
            // With a base of the same scheme, `http:/x` is relative to it.
            if !twoSlashes, let base, base.href.utf8.prefix(Int(base.spans.schemeEnd)).elementsEqual(out.written.dropLast()) { return false }
            while p < end, s[p] == 0x2F || s[p] == 0x5C { p += 1 }
        } else {
            guard twoSlashes else { return false }
            p += 2
        }
        out.append(0x2F)
        out.append(0x2F)

        // The authority ends at the first delimiter; credentials end at its last "@"; the host
        // ends at the first ":" after that outside brackets. One pass: the bytes that matter are
        // found by one mask test, and the rest (letters, digits, dots) skipped.
        var authorityEnd = p, lastAt = -1, colon = -1, insideBrackets = false
        let notable = special ? Self.authorityBytes.adding(0x5C) : Self.authorityBytes
        while authorityEnd < end {
            let b = s[authorityEnd]
            if notable.contains(b) {
                if b == 0x2F || b == 0x3F || b == 0x23 || b == 0x5C { break }  // "\\" is notable only when special
                if b == 0x40 { lastAt = authorityEnd; colon = -1; insideBrackets = false }
                else if b == 0x3A { if colon < 0 && !insideBrackets { colon = authorityEnd } }
                else if b == 0x5B { insideBrackets = true } else if b == 0x5D { insideBrackets = false }
            }
            authorityEnd += 1
        }
        spans.usernameStart = UInt32(out.count)
        var hostFrom = p
        if lastAt >= 0 {
            let userinfo = PercentEncodeSet.userinfo
            var q = p
            while q < lastAt, s[q] != 0x3A { out.append(s[q], encodedBy: userinfo); q += 1 }
            spans.usernameEnd = UInt32(out.count)
            if q + 1 < lastAt {
                out.append(0x3A)
                q += 1
                while q < lastAt { out.append(s[q], encodedBy: userinfo); q += 1 }
            }
            spans.passwordEnd = UInt32(out.count)
            if spans.passwordEnd > spans.usernameStart { out.append(0x40) }
            hostFrom = lastAt + 1
            if hostFrom == authorityEnd { return false }  // credentials without a host
        } else {
            spans.usernameEnd = spans.usernameStart
            spans.passwordEnd = spans.usernameStart
        }

        let hostTo = colon >= 0 ? colon : authorityEnd
        if hostTo < authorityEnd && hostTo == hostFrom { return false }  // a port without a host
        spans.hostStart = UInt32(out.count)
        guard let kind = host(UnsafeBufferPointer(rebasing: s[hostFrom..<hostTo]), special: special, into: &out) else { return false }
        spans.hostKind = kind
        spans.hostEnd = UInt32(out.count)

        // The port: digits up to the end of the authority, the scheme's default left out.
        spans.port = -1
        if hostTo < authorityEnd {
            var port = 0
            for i in hostTo + 1..<authorityEnd {
                let d = Int(s[i]) &- 0x30
                guard d >= 0 && d <= 9 else { return false }
                port = port * 10 + d
                if port > 65535 { return false }
            }
            if hostTo + 1 < authorityEnd && port != defaultPort {
                out.append(0x3A)
                URLHost.writeDecimal(port) { out.append($0) }
                spans.port = Int32(port)
            }
        }

        // The path, segment by segment; "." and ".." (also as %2e) taken away as they come.
        p = authorityEnd
        spans.pathStart = UInt32(out.count)
        let pathStart = out.count
        var inPath = true
        if special {
            if p < end && (s[p] == 0x2F || s[p] == 0x5C) { p += 1 }
        } else if p == end || s[p] == 0x3F || s[p] == 0x23 {
            inPath = false  // foo://h, foo://h?q: no path at all
        } else {
            p += 1  // the "/" that ended the authority
        }
        // The path, query and fragment write at most three bytes a byte, and one "/" more.
        out.reserveAhead(3 * (end - p) + 16)
        var segments = 0
        let pathSet = PercentEncodeSet.path
        // What ends a segment is added to the path set, so a byte outside both is copied after one test.
        let segmentEnd = special ? pathSet.adding(0x2F).adding(0x5C) : pathSet.adding(0x2F)
        while inPath {
            // The segment is written as it is read; "." and ".." are the same bytes encoded or
            // not, so they are recognized in what was written, and taken back.
            out.append(0x2F)
            let written = out.count
            while p < end {
                let b = s[p]
                if !segmentEnd.contains(b) { out.appendReserved(b) }
                else if b == 0x2F || b == 0x3F || b == 0x23 || b == 0x5C { break }  // "\\" is in segmentEnd only when special
                else { out.appendReserved(b, encodedBy: pathSet) }
                p += 1
            }
            let endsInSlash = p < end && (s[p] == 0x2F || (special && s[p] == 0x5C))
            let length = out.count - written
            if length <= 6 {
                let segment = out.written[written...]
                if URLParser.isDoubleDot(segment) {
                    out.truncate(to: written - 1)
                    if segments > 0 {
                        var cut = out.count - 1
                        while cut > pathStart && out[cut] != 0x2F { cut -= 1 }
                        out.truncate(to: cut)
                        segments -= 1
                    }
                    if !endsInSlash { out.append(0x2F); segments += 1 }
                } else if URLParser.isSingleDot(segment) {
                    out.truncate(to: written - 1)
                    if !endsInSlash { out.append(0x2F); segments += 1 }
                } else {
                    segments += 1
                }
            } else {
                segments += 1
            }
            guard endsInSlash else { break }
            p += 1
        }

        spans.queryStart = .max
        if p < end && s[p] == 0x3F {
            spans.queryStart = UInt32(out.count)
            out.append(0x3F)
            p += 1
            let set = special ? PercentEncodeSet.specialQuery : PercentEncodeSet.query
            while p < end, s[p] != 0x23 { out.appendReserved(s[p], encodedBy: set); p += 1 }
        }
        spans.fragmentStart = .max
        if p < end {  // "#"
            spans.fragmentStart = UInt32(out.count)
            out.append(0x23)
            p += 1
            let set = PercentEncodeSet.fragment
            while p < end { out.appendReserved(s[p], encodedBy: set); p += 1 }
        }
        return true
    }

    /// Writes the host `h` as the host parser and serializer would; nil when it is not one (or
    /// is empty for a special scheme). Lower-case ASCII names are copied here; IP addresses, IDNA,
    /// percent-escapes and failures go to `URLHost.parse`, which need not check UTF-8 again (the
    /// whole input was, and a host ends at ASCII bytes).
    private static func host(_ h: UnsafeBufferPointer<UInt8>, special: Bool, into out: inout ByteWriter) -> WHATWGURL.HostKind? {
        if !special && h.isEmpty { return .empty }
        let start = out.count
        if special && !h.isEmpty {
            var labelStart = start, plain = true
            for b in h {
                if (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D { out.append(b) }
                else if b >= 0x41 && b <= 0x5A { out.append(b | 0x20) }
                else if b == 0x2E { out.append(b); labelStart = out.count }
                else { plain = false; break }
                // "xn--" labels are Punycode, which IDNA checks.
                if out.count - labelStart == 4 && out[labelStart] == 0x78 && out[labelStart + 1] == 0x6E && out[labelStart + 2] == 0x2D && out[labelStart + 3] == 0x2D {
                    plain = false; break
                }
            }
            if plain {
                let name = out.written[start...]
                guard URLHost.endsInANumber(name) else { return .domain }
                var failure = ""
                guard let address = URLHost.parseIPv4(name, &failure) else { return nil }
                out.truncate(to: start)
                URLHost.serializeIPv4(address) { out.append($0) }
                return .ipv4
            }
            out.truncate(to: start)
        } else if !special && h[0] != 0x5B {
            for b in h {
                if URLHost.isForbiddenOpaqueHostByte(b) { return nil }
                out.append(b, encodedBy: .c0Control)
            }
            return .opaque
        }
        var failure = ""
        if h.count >= 2 && h[0] == 0x5B {
            guard h[h.count - 1] == 0x5D, let pieces = URLHost.parseIPv6(h[1..<(h.count - 1)], &failure) else { return nil }
            URLHost.serializeIPv6(pieces) { out.append($0) }
            return .ipv6
        }
        var forbidden: Unicode.Scalar?
        guard let parsed = URLHost.parse(buffer: h, special: special, wellFormed: true, failure: &failure, forbidden: &forbidden) else { return nil }
        out.append(contentsOf: parsed.description.utf8)
        return parsed.kind
    }
}
