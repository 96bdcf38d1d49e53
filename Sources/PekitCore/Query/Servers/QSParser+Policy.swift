extension QSParser {
    /// qs reading what `policy` writes: `allowDots` when objects are dotted, `comma` for comma
    /// arrays, `strictNullHandling` when a bare key means null, and the policy's separator.
    public init(policy: Policy) {
        self.init()
        if case .dots = policy.objects { allowDots = true }
        if case .comma = policy.arrays { comma = true }
        strictNullHandling = policy.null == .key
        delimiter = .string(policy.separator)
    }
}
