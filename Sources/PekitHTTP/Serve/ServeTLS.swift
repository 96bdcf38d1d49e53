import CTLSShim
import PekitCore
#if canImport(Glibc)
import Glibc
#endif

/// `pekit serve --tls`: a key and a certificate made when the server starts (P-256, for
/// `localhost`, 127.0.0.1 and ::1, self-signed), with OpenSSL 3 loaded on first use. Clients
/// trust it by its PEM (`curl --cacert FILE`) or check its SHA-256 fingerprint.
package final class ServeTLS {
    let context: UnsafeMutableRawPointer
    /// The certificate, PEM-encoded.
    package let pem: String
    /// Its SHA-256 fingerprint, as `openssl x509 -fingerprint -sha256` prints it (AB:CD:…).
    package let fingerprint: String

    /// - Parameter days: how long the certificate is valid.
    /// - Throws: `ServeListener.Failure` naming what OpenSSL could not do (or that it is missing).
    package init(days: Int = 30) throws {
        var error = [CChar](repeating: 0, count: 512)
        guard let context = pekit_tls_server_new(Int32(days), &error, error.count) else {
            throw ServeListener.Failure(description: "--tls: " + cText(error))
        }
        var pem = [CChar](repeating: 0, count: 8192)
        var digest = [UInt8](repeating: 0, count: 32)
        let length = pekit_tls_server_certificate(context, &pem, pem.count, &digest)
        guard length > 0 else {
            pekit_tls_server_free(context)
            throw ServeListener.Failure(description: "--tls: cannot write the certificate")
        }
        // libssl writes with write(2): a peer gone must be an error, not a SIGPIPE that ends the server.
        signal(SIGPIPE, SIG_IGN)
        self.context = context
        self.pem = String(decoding: pem[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fingerprint = digest.map { ASCII.hex($0) }.joined(separator: ":")
    }

    deinit { pekit_tls_server_free(context) }
}
