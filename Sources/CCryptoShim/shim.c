#include "CCryptoShim.h"
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/pem.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// The libcrypto functions pekit uses, resolved from libcrypto.so.3 (OpenSSL 3, Debian 12's libssl3).
static struct {
    const EVP_MD *(*get_digestbyname)(const char *);
    EVP_MD *(*md_fetch)(OSSL_LIB_CTX *, const char *, const char *);
    int (*md_get_block_size)(const EVP_MD *);
    int (*md_get_size)(const EVP_MD *);
    EVP_MD_CTX *(*md_ctx_new)(void);
    void (*md_ctx_free)(EVP_MD_CTX *);
    int (*digest_init_ex)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
    int (*digest_update)(EVP_MD_CTX *, const void *, size_t);
    int (*digest_final_ex)(EVP_MD_CTX *, unsigned char *, unsigned int *);
    int (*rand_bytes)(unsigned char *, int);
    int (*memcmp)(const void *, const void *, size_t);
    BIO *(*bio_new_mem_buf)(const void *, int);
    int (*bio_free)(BIO *);
    EVP_PKEY *(*read_private)(BIO *, EVP_PKEY **, pem_password_cb *, void *);
    EVP_PKEY *(*read_public)(BIO *, EVP_PKEY **, pem_password_cb *, void *);
    void (*pkey_free)(EVP_PKEY *);
    int (*pkey_base_id)(const EVP_PKEY *);
    int (*pkey_bits)(const EVP_PKEY *);
    int (*digest_sign_init)(EVP_MD_CTX *, EVP_PKEY_CTX **, const EVP_MD *, ENGINE *, EVP_PKEY *);
    int (*digest_sign)(EVP_MD_CTX *, unsigned char *, size_t *, const unsigned char *, size_t);
    int (*digest_verify_init)(EVP_MD_CTX *, EVP_PKEY_CTX **, const EVP_MD *, ENGINE *, EVP_PKEY *);
    int (*digest_verify)(EVP_MD_CTX *, const unsigned char *, size_t, const unsigned char *, size_t);
    ECDSA_SIG *(*d2i_ecdsa_sig)(ECDSA_SIG **, const unsigned char **, long);
    int (*i2d_ecdsa_sig)(const ECDSA_SIG *, unsigned char **);
    ECDSA_SIG *(*ecdsa_sig_new)(void);
    void (*ecdsa_sig_free)(ECDSA_SIG *);
    void (*ecdsa_sig_get0)(const ECDSA_SIG *, const BIGNUM **, const BIGNUM **);
    int (*ecdsa_sig_set0)(ECDSA_SIG *, BIGNUM *, BIGNUM *);
    int (*bn_bn2binpad)(const BIGNUM *, unsigned char *, int);
    BIGNUM *(*bn_bin2bn)(const unsigned char *, int, BIGNUM *);
    void (*bn_free)(BIGNUM *);
    void (*err_clear)(void);
} api;

#define DIGESTS 6
static const char *digest_names[DIGESTS] = {"md5", "sha1", "sha224", "sha256", "sha384", "sha512"};
static EVP_MD *fetched[DIGESTS];

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static const char *load_error = NULL;

static void load(void) {
    void *lib = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(failure, sizeof failure, "cannot load libcrypto (%s); install Debian's libssl3", dlerror());
        load_error = failure;
        return;
    }
#define PEKIT_SYMBOL(field, name)                                                        \
    *(void **)(&api.field) = dlsym(lib, name);                                           \
    if (!api.field) {                                                                    \
        snprintf(failure, sizeof failure, "libcrypto.so.3 has no %s (too old?)", name);  \
        load_error = failure;                                                            \
        return;                                                                          \
    }
    PEKIT_SYMBOL(get_digestbyname, "EVP_get_digestbyname")
    PEKIT_SYMBOL(md_fetch, "EVP_MD_fetch")
    PEKIT_SYMBOL(md_get_block_size, "EVP_MD_get_block_size")
    PEKIT_SYMBOL(md_get_size, "EVP_MD_get_size")
    PEKIT_SYMBOL(md_ctx_new, "EVP_MD_CTX_new")
    PEKIT_SYMBOL(md_ctx_free, "EVP_MD_CTX_free")
    PEKIT_SYMBOL(digest_init_ex, "EVP_DigestInit_ex")
    PEKIT_SYMBOL(digest_update, "EVP_DigestUpdate")
    PEKIT_SYMBOL(digest_final_ex, "EVP_DigestFinal_ex")
    PEKIT_SYMBOL(rand_bytes, "RAND_bytes")
    PEKIT_SYMBOL(memcmp, "CRYPTO_memcmp")
    PEKIT_SYMBOL(bio_new_mem_buf, "BIO_new_mem_buf")
    PEKIT_SYMBOL(bio_free, "BIO_free")
    PEKIT_SYMBOL(read_private, "PEM_read_bio_PrivateKey")
    PEKIT_SYMBOL(read_public, "PEM_read_bio_PUBKEY")
    PEKIT_SYMBOL(pkey_free, "EVP_PKEY_free")
    PEKIT_SYMBOL(pkey_base_id, "EVP_PKEY_get_base_id")
    PEKIT_SYMBOL(pkey_bits, "EVP_PKEY_get_bits")
    PEKIT_SYMBOL(digest_sign_init, "EVP_DigestSignInit")
    PEKIT_SYMBOL(digest_sign, "EVP_DigestSign")
    PEKIT_SYMBOL(digest_verify_init, "EVP_DigestVerifyInit")
    PEKIT_SYMBOL(digest_verify, "EVP_DigestVerify")
    PEKIT_SYMBOL(d2i_ecdsa_sig, "d2i_ECDSA_SIG")
    PEKIT_SYMBOL(i2d_ecdsa_sig, "i2d_ECDSA_SIG")
    PEKIT_SYMBOL(ecdsa_sig_new, "ECDSA_SIG_new")
    PEKIT_SYMBOL(ecdsa_sig_free, "ECDSA_SIG_free")
    PEKIT_SYMBOL(ecdsa_sig_get0, "ECDSA_SIG_get0")
    PEKIT_SYMBOL(ecdsa_sig_set0, "ECDSA_SIG_set0")
    PEKIT_SYMBOL(bn_bn2binpad, "BN_bn2binpad")
    PEKIT_SYMBOL(bn_bin2bn, "BN_bin2bn")
    PEKIT_SYMBOL(bn_free, "BN_free")
    PEKIT_SYMBOL(err_clear, "ERR_clear_error")
#undef PEKIT_SYMBOL
    // Fetched once: OpenSSL 3 looks an algorithm up again on every init of a name-found digest
    // (an "implicit fetch"), which costs microseconds a call.
    for (int i = 0; i < DIGESTS; i++) fetched[i] = api.md_fetch(NULL, digest_names[i], NULL);
}

const char *pekit_crypto_load(void) {
    pthread_once(&once, load);
    return load_error;
}

const void *pekit_crypto_digest(const char *name) {
    for (int i = 0; i < DIGESTS; i++) if (fetched[i] && strcmp(name, digest_names[i]) == 0) return fetched[i];
    return api.get_digestbyname(name);
}
int pekit_crypto_digest_size(const void *md) { return api.md_get_size(md); }

void *pekit_crypto_hash_new(const void *md) {
    EVP_MD_CTX *ctx = api.md_ctx_new();
    if (!ctx) return NULL;
    if (api.digest_init_ex(ctx, md, NULL) != 1) { api.md_ctx_free(ctx); return NULL; }
    return ctx;
}
int pekit_crypto_hash_update(void *ctx, const void *data, size_t count) { return api.digest_update(ctx, data, count); }
int pekit_crypto_hash_final(void *ctx, unsigned char *out) {
    unsigned int n = 0;
    return api.digest_final_ex(ctx, out, &n);
}
void pekit_crypto_hash_free(void *ctx) { api.md_ctx_free(ctx); }

// HMAC (RFC 2104) from two digest passes on one context: OpenSSL 3's HMAC() fetches its MAC
// implementation on every call, which is most of the cost of the short HMACs signing makes.
int pekit_crypto_hmac(const void *md, const void *key, int key_count, const unsigned char *data, size_t count, unsigned char *out) {
    int block = api.md_get_block_size(md), size = api.md_get_size(md);
    if (block <= 0 || block > 144 || size <= 0 || size > 64) return 0;
    unsigned char k0[144] = {0}, pad[144], inner[64];
    unsigned int n = 0;
    EVP_MD_CTX *ctx = api.md_ctx_new();
    if (!ctx) return 0;
    int ok = 1;
    if (key_count > block) {
        ok = api.digest_init_ex(ctx, md, NULL) == 1 && api.digest_update(ctx, key, (size_t)key_count) == 1 && api.digest_final_ex(ctx, k0, &n) == 1;
    } else if (key_count > 0) {
        memcpy(k0, key, (size_t)key_count);
    }
    for (int i = 0; i < block; i++) pad[i] = k0[i] ^ 0x36;
    ok = ok && api.digest_init_ex(ctx, md, NULL) == 1 && api.digest_update(ctx, pad, (size_t)block) == 1
        && (count == 0 || api.digest_update(ctx, data, count) == 1) && api.digest_final_ex(ctx, inner, &n) == 1;
    for (int i = 0; i < block; i++) pad[i] = k0[i] ^ 0x5c;
    ok = ok && api.digest_init_ex(ctx, md, NULL) == 1 && api.digest_update(ctx, pad, (size_t)block) == 1
        && api.digest_update(ctx, inner, (size_t)size) == 1 && api.digest_final_ex(ctx, out, &n) == 1;
    api.md_ctx_free(ctx);
    return ok;
}

int pekit_crypto_random(unsigned char *out, int count) { return api.rand_bytes(out, count); }
int pekit_crypto_memcmp(const void *a, const void *b, size_t count) { return api.memcmp(a, b, count); }

// A password callback that gives none: an encrypted key is refused, never prompted for.
static int no_password(char *buf, int size, int rwflag, void *u) { (void)buf; (void)size; (void)rwflag; (void)u; return 0; }

static void *read_key(const char *pem, size_t count, int private) {
    if (count > 1 << 20) return NULL;
    BIO *bio = api.bio_new_mem_buf(pem, (int)count);
    if (!bio) return NULL;
    EVP_PKEY *key = private ? api.read_private(bio, NULL, no_password, NULL) : api.read_public(bio, NULL, no_password, NULL);
    api.bio_free(bio);
    api.err_clear();  // a failed read leaves errors on OpenSSL's per-thread queue
    return key;
}

void *pekit_crypto_private_key(const char *pem, size_t count) { return read_key(pem, count, 1); }
void *pekit_crypto_public_key(const char *pem, size_t count) { return read_key(pem, count, 0); }
void pekit_crypto_key_free(void *key) { api.pkey_free(key); }
int pekit_crypto_key_type(void *key) { return api.pkey_base_id(key); }
int pekit_crypto_key_bits(void *key) { return api.pkey_bits(key); }

int pekit_crypto_sign(void *key, const void *md, const unsigned char *data, size_t count, unsigned char *out, size_t *out_count) {
    EVP_MD_CTX *ctx = api.md_ctx_new();
    if (!ctx) return 0;
    int ok = api.digest_sign_init(ctx, NULL, md, NULL, key) == 1 && api.digest_sign(ctx, out, out_count, data, count) == 1;
    api.md_ctx_free(ctx);
    api.err_clear();
    return ok;
}

int pekit_crypto_verify(void *key, const void *md, const unsigned char *data, size_t count, const unsigned char *signature, size_t signature_count) {
    EVP_MD_CTX *ctx = api.md_ctx_new();
    if (!ctx) return 0;
    int ok = api.digest_verify_init(ctx, NULL, md, NULL, key) == 1 && api.digest_verify(ctx, signature, signature_count, data, count) == 1;
    api.md_ctx_free(ctx);
    api.err_clear();
    return ok;
}

int pekit_crypto_ecdsa_der_to_raw(const unsigned char *der, size_t count, unsigned char *out, int size) {
    const unsigned char *p = der;
    ECDSA_SIG *sig = api.d2i_ecdsa_sig(NULL, &p, (long)count);
    if (!sig) { api.err_clear(); return 0; }
    const BIGNUM *r, *s;
    api.ecdsa_sig_get0(sig, &r, &s);
    int ok = api.bn_bn2binpad(r, out, size) == size && api.bn_bn2binpad(s, out + size, size) == size;
    api.ecdsa_sig_free(sig);
    return ok;
}

int pekit_crypto_ecdsa_raw_to_der(const unsigned char *raw, int size, unsigned char *out, size_t *out_count) {
    ECDSA_SIG *sig = api.ecdsa_sig_new();
    if (!sig) return 0;
    BIGNUM *r = api.bn_bin2bn(raw, size, NULL), *s = api.bn_bin2bn(raw + size, size, NULL);
    if (!r || !s || api.ecdsa_sig_set0(sig, r, s) != 1) {
        if (r) api.bn_free(r);
        if (s) api.bn_free(s);
        api.ecdsa_sig_free(sig);
        return 0;
    }
    int n = api.i2d_ecdsa_sig(sig, NULL);
    int ok = 0;
    if (n > 0 && (size_t)n <= *out_count) {
        unsigned char *p = out;
        *out_count = (size_t)api.i2d_ecdsa_sig(sig, &p);
        ok = 1;
    }
    api.ecdsa_sig_free(sig);
    return ok;
}
