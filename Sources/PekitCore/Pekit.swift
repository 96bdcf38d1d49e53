/// Facts about this build of pekit.
public enum Pekit {
    /// The version, as `pekit --version` and `pekit.version` show it.
    public static let version = "0.1.0"
}
