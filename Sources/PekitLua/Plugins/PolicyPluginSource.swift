import PekitCore

/// A built-in policy written as the plugin file that reads back to it (issue 70: one source per
/// built-in policy). PekitCore's Swift definition is the source; `plugins/NAME.lua` is this
/// text, written by `pekit plugins export NAME` (`scripts/policy-plugins` writes every one), and
/// a test holds each shipped file to it. A file that is still this text costs no Lua state: the
/// registry takes the built-in policy itself. An edited file is a plugin like any other.
///
/// Only fields that differ from `rfc3986` (a plugin's default base) are written, each as
/// `PolicyDefinition` reads it; the allowed set as the preset closest to it, plus and minus
/// the characters it adds and removes.
enum PolicyPluginSource {
    /// The file for `policy`, a policy with no function in it (nil for one with a custom rule,
    /// which no file can say: a built-in never has one).
    static func text(_ policy: Policy) -> String? {
        let base = Policy.rfc3986
        var lines = [
            "-- The built-in policy \"\(policy.name)\" as a plugin file, written by `pekit plugins export \(policy.name)`",
            "-- (scripts/policy-plugins) from its definition in PekitCore (Sources/PekitCore/Policy/). pekit",
            "-- uses the built-in policy itself while this file is unchanged; an edited file is read as a",
            "-- plugin. To start a policy of your own, copy it under another name (or write extends = \"\(policy.name)\").",
            "return {",
            "  name = \(quoted(policy.name)),",
            "  kind = \"policy\",",
            "  description = \(quoted(policy.description)),",
        ]
        func field(_ name: String, _ value: String) { lines.append("  \(name) = \(value),") }
        if policy.allowed != base.allowed { field("allowed", charset(policy.allowed)) }
        if policy.space != base.space { field("space", policy.space == .plus ? "\"+\"" : "\"%20\"") }
        if policy.hexCase != base.hexCase { field("lower", policy.hexCase == .lower ? "true" : "false") }
        if case .custom = policy.order { return nil }
        if policy.order.name != base.order.name { field("order", quoted(policy.order.name)) }
        if case .custom = policy.arrays { return nil }
        if policy.arrays.name != base.arrays.name { field("arrays", quoted(policy.arrays.name)) }
        if case .custom = policy.objects { return nil }
        if policy.objects.name != base.objects.name { field("objects", quoted(policy.objects.name)) }
        if policy.null != base.null {
            if case .text(let text) = policy.null { field("null", "{ text = \(quoted(text)) }") } else { field("null", quoted(policy.null.name)) }
        }
        if policy.booleans != base.booleans { field("booleans", quoted(policy.booleans.rawValue)) }
        if policy.numbers.name != base.numbers.name { field("numbers", quoted(policy.numbers.name)) }
        for (name, encoding, baseEncoding) in [("encode_keys", policy.encodeKeys, base.encodeKeys), ("encode_values", policy.encodeValues, base.encodeValues)]
            where encoding != baseEncoding {
            switch encoding {
            case .policy: field(name, "true")
            case .none: field(name, "false")
            case .segments: field(name, "\"segments\"")
            case .allowed(let set): field(name, charset(set))
            }
        }
        if policy.separator != base.separator { field("separator", quoted(policy.separator.description)) }
        if policy.assign != base.assign { field("assign", quoted(policy.assign.description)) }
        if policy.empty != base.empty { field("empty", quoted(policy.empty.rawValue)) }
        if policy.prefix != base.prefix { field("prefix", quoted(policy.prefix.description)) }
        if !policy.requestHeaders.isEmpty {
            field("headers", "{ " + policy.requestHeaders.map { "[\(quoted($0.name))] = \(quoted($0.value))" }.joined(separator: ", ") + " }")
        }
        switch policy.acceptLanguage {
        case .afnetworking?: field("accept_language", "\"afnetworking\"")
        case .alamofire?: field("accept_language", "\"alamofire\"")
        case .value(let text)?: field("accept_language", quoted(text))
        case nil: break
        }
        if let paramsIn = policy.paramsIn { field("params_in", quoted(paramsIn)) }
        if let methods = policy.methodsInQuery { field("methods_in_query", "{ " + methods.sorted().map(quoted).joined(separator: ", ") + " }") }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The set as a Lua expression: the named charset nearest to it, then `+ "…"` for the
    /// characters it adds and `- "…"` for those it takes away.
    /// Ties go to the earlier name: the plainest sets first.
    static func charset(_ set: AllowedSet) -> String {
        let names = ["unreserved", "alphanumerics", "letters"] + AllowedSet.presetNames.filter { !["unreserved", "alphanumerics", "letters"].contains($0) }
        let candidates = names.compactMap { name in
            AllowedSet.preset(named: name).map { (name: name, added: set.subtracting($0).bytes, removed: $0.subtracting(set).bytes) }
        }
        // min(by:) keeps the first of equal elements.
        guard let best = candidates.min(by: { $0.added.count + $0.removed.count < $1.added.count + $1.removed.count }) else {
            return quoted(String(decoding: set.bytes, as: UTF8.self))
        }
        var text = "pekit.charset.\(best.name)"
        if !best.added.isEmpty { text += " + " + quoted(String(decoding: best.added, as: UTF8.self)) }
        if !best.removed.isEmpty { text += " - " + quoted(String(decoding: best.removed, as: UTF8.self)) }
        return text
    }

    /// A Lua string literal (the bridge's one writer of them).
    static func quoted(_ text: String) -> String { LuaLiteral.quoted(text) }
}

/// A built-in policy's plugin file (`pekit plugins export NAME`); nil for a policy with a custom
/// rule, which no file can say.
public func builtinPolicyPluginText(_ policy: Policy) -> String? { PolicyPluginSource.text(policy) }
