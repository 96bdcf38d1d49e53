// pekit serve's TLS: a certificate made on the spot and TLS over non-blocking sockets, with
// OpenSSL 3's libssl and libcrypto loaded on first use (dlopen), as CCryptoShim loads libcrypto.
// Owned by PekitHTTP (ServeListener).
#ifndef PEKIT_TLS_SHIM_H
#define PEKIT_TLS_SHIM_H
#include <stddef.h>

/// A server context: a fresh P-256 key and a certificate for localhost, 127.0.0.1 and ::1 signed
/// by it, valid for `days`. NULL with `error` filled (libssl missing, a call failing).
void *pekit_tls_server_new(int days, char *error, size_t error_length);
/// The certificate as PEM (at most `length` bytes, the count written, 0 when it does not fit) and
/// its SHA-256 fingerprint (32 bytes).
size_t pekit_tls_server_certificate(void *server, char *pem, size_t length, unsigned char fingerprint[32]);
void pekit_tls_server_free(void *server);

/// A TLS session on the connected non-blocking socket `fd`, or NULL.
void *pekit_tls_session(void *server, int fd);
/// Advances the handshake: 1 done, 0 waiting for the peer, -1 failed.
int pekit_tls_handshake(void *session);
/// Reads: the bytes read (> 0), 0 when none are ready, -1 when the peer closed or failed.
long pekit_tls_read(void *session, void *buffer, size_t length);
/// Writes: the bytes written (> 0), 0 when the socket has no room, -1 on failure.
long pekit_tls_write(void *session, const void *buffer, size_t length);
void pekit_tls_session_free(void *session);
#endif
