#include "CCryptoShim.h"
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The libcrypto functions pekit uses, resolved from libcrypto.so.3 (OpenSSL 3, Debian 12's libssl3).
static struct {
    const EVP_MD *(*get_digestbyname)(const char *);
    int (*md_get_size)(const EVP_MD *);
    EVP_MD_CTX *(*md_ctx_new)(void);
    void (*md_ctx_free)(EVP_MD_CTX *);
    int (*digest_init_ex)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
    int (*digest_update)(EVP_MD_CTX *, const void *, size_t);
    int (*digest_final_ex)(EVP_MD_CTX *, unsigned char *, unsigned int *);
    unsigned char *(*hmac)(const EVP_MD *, const void *, int, const unsigned char *, size_t, unsigned char *, unsigned int *);
    int (*rand_bytes)(unsigned char *, int);
    int (*memcmp)(const void *, const void *, size_t);
} api;

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
    PEKIT_SYMBOL(md_get_size, "EVP_MD_get_size")
    PEKIT_SYMBOL(md_ctx_new, "EVP_MD_CTX_new")
    PEKIT_SYMBOL(md_ctx_free, "EVP_MD_CTX_free")
    PEKIT_SYMBOL(digest_init_ex, "EVP_DigestInit_ex")
    PEKIT_SYMBOL(digest_update, "EVP_DigestUpdate")
    PEKIT_SYMBOL(digest_final_ex, "EVP_DigestFinal_ex")
    PEKIT_SYMBOL(hmac, "HMAC")
    PEKIT_SYMBOL(rand_bytes, "RAND_bytes")
    PEKIT_SYMBOL(memcmp, "CRYPTO_memcmp")
#undef PEKIT_SYMBOL
}

const char *pekit_crypto_load(void) {
    pthread_once(&once, load);
    return load_error;
}

const void *pekit_crypto_digest(const char *name) { return api.get_digestbyname(name); }
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

int pekit_crypto_hmac(const void *md, const void *key, int key_count, const unsigned char *data, size_t count, unsigned char *out) {
    unsigned int n = 0;
    // HMAC with an empty key is valid (RFC 2104); OpenSSL wants a non-NULL pointer for it.
    static const unsigned char empty = 0;
    return api.hmac(md, key_count ? key : &empty, key_count, count ? data : &empty, count, out, &n) != NULL;
}

int pekit_crypto_random(unsigned char *out, int count) { return api.rand_bytes(out, count); }
int pekit_crypto_memcmp(const void *a, const void *b, size_t count) { return api.memcmp(a, b, count); }
