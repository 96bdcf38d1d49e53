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

/// A private key read from PEM text (PKCS#8, PKCS#1 RSA or SEC1 EC); NULL when it is none.
void *pekit_crypto_private_key(const char *pem, size_t count);
/// A public key read from PEM text (SubjectPublicKeyInfo, or PKCS#1 RSA); NULL when it is none.
void *pekit_crypto_public_key(const char *pem, size_t count);
void pekit_crypto_key_free(void *key);
/// 6 for RSA, 408 for EC (OpenSSL's EVP_PKEY ids), another number for other keys.
int pekit_crypto_key_type(void *key);
/// The key size in bits (the curve's for EC).
int pekit_crypto_key_bits(void *key);

/// Signs `data` with `key` and digest `md` (RSA: PKCS#1 v1.5; EC: DER-encoded ECDSA) into `out`
/// (room for `*out_count` bytes; set to the signature's size). Returns 1 on success.
int pekit_crypto_sign(void *key, const void *md, const unsigned char *data, size_t count, unsigned char *out, size_t *out_count);
/// 1 when `signature` is a valid signature of `data` under `key` and `md`, 0 when not.
int pekit_crypto_verify(void *key, const void *md, const unsigned char *data, size_t count, const unsigned char *signature, size_t signature_count);

/// An ECDSA signature from DER to JOSE's r || s, each `size` bytes; returns 1 on success.
int pekit_crypto_ecdsa_der_to_raw(const unsigned char *der, size_t count, unsigned char *out, int size);
/// An ECDSA signature from r || s (each `size` bytes) to DER into `out` (room for `*out_count`).
int pekit_crypto_ecdsa_raw_to_der(const unsigned char *raw, int size, unsigned char *out, size_t *out_count);

#endif
