#ifndef PEKIT_CCRYPTOSHIM_H
#define PEKIT_CCRYPTOSHIM_H

#include <stddef.h>

// OpenSSL's libcrypto is loaded with dlopen on first use, not linked, for the same reason as
// libcurl (CCurlShim): most pekit commands never hash anything, and start-up should not pay for
// loading a 4 MB library. Only the handful of functions below are used; the types are opaque.

/// Loads libcrypto.so.3 once (thread-safe). Returns NULL on success, or a message saying what
/// failed.
const char *pekit_crypto_load(void);

/// A digest by OpenSSL name ("sha256"), or NULL when there is none.
const void *pekit_crypto_digest(const char *name);
/// The size in bytes of a digest's output.
int pekit_crypto_digest_size(const void *md);

/// A streaming digest context; NULL when out of memory.
void *pekit_crypto_hash_new(const void *md);
/// Adds bytes; returns 1 on success.
int pekit_crypto_hash_update(void *ctx, const void *data, size_t count);
/// Writes the digest to `out` (room for pekit_crypto_digest_size); returns 1 on success.
int pekit_crypto_hash_final(void *ctx, unsigned char *out);
void pekit_crypto_hash_free(void *ctx);

/// One-shot HMAC into `out` (room for the digest size); returns 1 on success.
int pekit_crypto_hmac(const void *md, const void *key, int key_count, const unsigned char *data, size_t count, unsigned char *out);

/// Fills `out` with `count` bytes from OpenSSL's CSPRNG; returns 1 on success.
int pekit_crypto_random(unsigned char *out, int count);

/// Compares `count` bytes in time that does not depend on where they differ; 0 when equal.
int pekit_crypto_memcmp(const void *a, const void *b, size_t count);

#endif
