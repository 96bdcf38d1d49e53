extension Duration {
    /// The duration as a number of seconds: what libcurl's millisecond options, the Lua host and
    /// the command line (which take seconds) are given. Exact to the attosecond part's double.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
