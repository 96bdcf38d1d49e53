#include "CTLSShim.h"
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

// The libssl and libcrypto functions pekit serve uses, from libssl.so.3 and libcrypto.so.3.
static struct {
    EVP_PKEY *(*pkey_q_keygen)(OSSL_LIB_CTX *, const char *, const char *, ...);
    void (*pkey_free)(EVP_PKEY *);
    X509 *(*x509_new)(void);
    void (*x509_free)(X509 *);
    int (*x509_set_version)(X509 *, long);
    ASN1_INTEGER *(*x509_get_serial)(X509 *);
    int (*asn1_integer_set)(ASN1_INTEGER *, long);
    ASN1_TIME *(*x509_getm_not_before)(const X509 *);
    ASN1_TIME *(*x509_getm_not_after)(const X509 *);
    ASN1_TIME *(*x509_gmtime_adj)(ASN1_TIME *, long);
    int (*x509_set_pubkey)(X509 *, EVP_PKEY *);
    X509_NAME *(*x509_get_subject_name)(const X509 *);
    int (*x509_set_issuer_name)(X509 *, const X509_NAME *);
    int (*x509_name_add_entry_by_txt)(X509_NAME *, const char *, int, const unsigned char *, int, int, int);
    X509_EXTENSION *(*x509v3_ext_conf_nid)(LHASH_OF(CONF_VALUE) *, X509V3_CTX *, int, const char *);
    int (*x509_add_ext)(X509 *, X509_EXTENSION *, int);
    void (*x509_extension_free)(X509_EXTENSION *);
    int (*x509_sign)(X509 *, EVP_PKEY *, const EVP_MD *);
    const EVP_MD *(*sha256)(void);
    int (*x509_digest)(const X509 *, const EVP_MD *, unsigned char *, unsigned int *);
    BIO *(*bio_new)(const BIO_METHOD *);
    const BIO_METHOD *(*bio_s_mem)(void);
    long (*bio_ctrl)(BIO *, int, long, void *);
    int (*bio_free)(BIO *);
    int (*pem_write_bio_x509)(BIO *, const X509 *);
    const SSL_METHOD *(*tls_server_method)(void);
    SSL_CTX *(*ctx_new)(const SSL_METHOD *);
    void (*ctx_free)(SSL_CTX *);
    int (*ctx_use_certificate)(SSL_CTX *, X509 *);
    int (*ctx_use_private_key)(SSL_CTX *, EVP_PKEY *);
    long (*ctx_ctrl)(SSL_CTX *, int, long, void *);
    SSL *(*ssl_new)(SSL_CTX *);
    void (*ssl_free)(SSL *);
    int (*ssl_set_fd)(SSL *, int);
    int (*ssl_accept)(SSL *);
    int (*ssl_read)(SSL *, void *, int);
    int (*ssl_write)(SSL *, const void *, int);
    int (*ssl_get_error)(const SSL *, int);
    int (*ssl_shutdown)(SSL *);
    unsigned long (*err_get_error)(void);
    void (*err_error_string_n)(unsigned long, char *, size_t);
    void (*err_clear)(void);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static const char *load_error = NULL;

static void load(void) {
    void *crypto = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    void *ssl = crypto ? dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!crypto || !ssl) {
        snprintf(failure, sizeof failure, "cannot load OpenSSL 3 (%s); install Debian's libssl3", dlerror());
        load_error = failure;
        return;
    }
#define PEKIT_SYMBOL(lib, field, name)                                                  \
    *(void **)(&api.field) = dlsym(lib, name);                                          \
    if (!api.field) {                                                                   \
        snprintf(failure, sizeof failure, "OpenSSL has no %s (too old?)", name);        \
        load_error = failure;                                                           \
        return;                                                                         \
    }
    PEKIT_SYMBOL(crypto, pkey_q_keygen, "EVP_PKEY_Q_keygen")
    PEKIT_SYMBOL(crypto, pkey_free, "EVP_PKEY_free")
    PEKIT_SYMBOL(crypto, x509_new, "X509_new")
    PEKIT_SYMBOL(crypto, x509_free, "X509_free")
    PEKIT_SYMBOL(crypto, x509_set_version, "X509_set_version")
    PEKIT_SYMBOL(crypto, x509_get_serial, "X509_get_serialNumber")
    PEKIT_SYMBOL(crypto, asn1_integer_set, "ASN1_INTEGER_set")
    PEKIT_SYMBOL(crypto, x509_getm_not_before, "X509_getm_notBefore")
    PEKIT_SYMBOL(crypto, x509_getm_not_after, "X509_getm_notAfter")
    PEKIT_SYMBOL(crypto, x509_gmtime_adj, "X509_gmtime_adj")
    PEKIT_SYMBOL(crypto, x509_set_pubkey, "X509_set_pubkey")
    PEKIT_SYMBOL(crypto, x509_get_subject_name, "X509_get_subject_name")
    PEKIT_SYMBOL(crypto, x509_set_issuer_name, "X509_set_issuer_name")
    PEKIT_SYMBOL(crypto, x509_name_add_entry_by_txt, "X509_NAME_add_entry_by_txt")
    PEKIT_SYMBOL(crypto, x509v3_ext_conf_nid, "X509V3_EXT_conf_nid")
    PEKIT_SYMBOL(crypto, x509_add_ext, "X509_add_ext")
    PEKIT_SYMBOL(crypto, x509_extension_free, "X509_EXTENSION_free")
    PEKIT_SYMBOL(crypto, x509_sign, "X509_sign")
    PEKIT_SYMBOL(crypto, sha256, "EVP_sha256")
    PEKIT_SYMBOL(crypto, x509_digest, "X509_digest")
    PEKIT_SYMBOL(crypto, bio_new, "BIO_new")
    PEKIT_SYMBOL(crypto, bio_s_mem, "BIO_s_mem")
    PEKIT_SYMBOL(crypto, bio_ctrl, "BIO_ctrl")
    PEKIT_SYMBOL(crypto, bio_free, "BIO_free")
    PEKIT_SYMBOL(crypto, pem_write_bio_x509, "PEM_write_bio_X509")
    PEKIT_SYMBOL(crypto, err_get_error, "ERR_get_error")
    PEKIT_SYMBOL(crypto, err_error_string_n, "ERR_error_string_n")
    PEKIT_SYMBOL(crypto, err_clear, "ERR_clear_error")
    PEKIT_SYMBOL(ssl, tls_server_method, "TLS_server_method")
    PEKIT_SYMBOL(ssl, ctx_new, "SSL_CTX_new")
    PEKIT_SYMBOL(ssl, ctx_free, "SSL_CTX_free")
    PEKIT_SYMBOL(ssl, ctx_use_certificate, "SSL_CTX_use_certificate")
    PEKIT_SYMBOL(ssl, ctx_use_private_key, "SSL_CTX_use_PrivateKey")
    PEKIT_SYMBOL(ssl, ctx_ctrl, "SSL_CTX_ctrl")
    PEKIT_SYMBOL(ssl, ssl_new, "SSL_new")
    PEKIT_SYMBOL(ssl, ssl_free, "SSL_free")
    PEKIT_SYMBOL(ssl, ssl_set_fd, "SSL_set_fd")
    PEKIT_SYMBOL(ssl, ssl_accept, "SSL_accept")
    PEKIT_SYMBOL(ssl, ssl_read, "SSL_read")
    PEKIT_SYMBOL(ssl, ssl_write, "SSL_write")
    PEKIT_SYMBOL(ssl, ssl_get_error, "SSL_get_error")
    PEKIT_SYMBOL(ssl, ssl_shutdown, "SSL_shutdown")
#undef PEKIT_SYMBOL
}

/// The server's context and what it was made with.
typedef struct {
    SSL_CTX *ctx;
    X509 *certificate;
    EVP_PKEY *key;
} server;

static void *fail(server *s, const char *what, char *error, size_t length) {
    char reason[256] = "";
    unsigned long code = api.err_get_error ? api.err_get_error() : 0;
    if (code) api.err_error_string_n(code, reason, sizeof reason);
    snprintf(error, length, "%s%s%s", what, code ? ": " : "", reason);
    if (s) pekit_tls_server_free(s);
    return NULL;
}

void *pekit_tls_server_new(int days, char *error, size_t error_length) {
    pthread_once(&once, load);
    if (load_error) { snprintf(error, error_length, "%s", load_error); return NULL; }
    api.err_clear();
    server *s = calloc(1, sizeof *s);
    if (!s) return fail(NULL, "out of memory", error, error_length);
    s->key = api.pkey_q_keygen(NULL, NULL, "EC", "P-256");
    if (!s->key) return fail(s, "cannot make a P-256 key", error, error_length);
    X509 *x = s->certificate = api.x509_new();
    if (!x || !api.x509_set_version(x, 2) || !api.asn1_integer_set(api.x509_get_serial(x), (long)time(NULL))
        || !api.x509_gmtime_adj(api.x509_getm_not_before(x), -60) || !api.x509_gmtime_adj(api.x509_getm_not_after(x), 86400L * days)
        || !api.x509_set_pubkey(x, s->key))
        return fail(s, "cannot make a certificate", error, error_length);
    X509_NAME *name = api.x509_get_subject_name(x);
    if (!api.x509_name_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"localhost", -1, -1, 0)
        || !api.x509_name_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)"pekit serve", -1, -1, 0)
        || !api.x509_set_issuer_name(x, name))
        return fail(s, "cannot name the certificate", error, error_length);
    X509V3_CTX context;
    memset(&context, 0, sizeof context);
    static const struct { int nid; const char *value; } extensions[] = {
        {NID_subject_alt_name, "DNS:localhost,IP:127.0.0.1,IP:::1"},
        {NID_basic_constraints, "critical,CA:FALSE"},
        {NID_ext_key_usage, "serverAuth"},
    };
    for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; i++) {
        X509_EXTENSION *extension = api.x509v3_ext_conf_nid(NULL, &context, extensions[i].nid, extensions[i].value);
        if (!extension) return fail(s, "cannot make a certificate extension", error, error_length);
        int added = api.x509_add_ext(x, extension, -1);
        api.x509_extension_free(extension);
        if (!added) return fail(s, "cannot add a certificate extension", error, error_length);
    }
    if (!api.x509_sign(x, s->key, api.sha256())) return fail(s, "cannot sign the certificate", error, error_length);
    s->ctx = api.ctx_new(api.tls_server_method());
    if (!s->ctx || !api.ctx_use_certificate(s->ctx, x) || !api.ctx_use_private_key(s->ctx, s->key))
        return fail(s, "cannot make a TLS context", error, error_length);
    // TLS 1.2 at least (SSL_CTX_set_min_proto_version); a write retried from a buffer that
    // moved is the same write (SSL_CTX_set_mode).
    api.ctx_ctrl(s->ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
    api.ctx_ctrl(s->ctx, SSL_CTRL_MODE, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER, NULL);
    return s;
}

size_t pekit_tls_server_certificate(void *opaque, char *pem, size_t length, unsigned char fingerprint[32]) {
    server *s = opaque;
    unsigned int n = 0;
    if (!api.x509_digest(s->certificate, api.sha256(), fingerprint, &n) || n != 32) return 0;
    BIO *bio = api.bio_new(api.bio_s_mem());
    if (!bio) return 0;
    size_t written = 0;
    if (api.pem_write_bio_x509(bio, s->certificate)) {
        char *data = NULL;
        long size = api.bio_ctrl(bio, BIO_CTRL_INFO, 0, &data);
        if (size > 0 && (size_t)size <= length) { memcpy(pem, data, (size_t)size); written = (size_t)size; }
    }
    api.bio_free(bio);
    return written;
}

void pekit_tls_server_free(void *opaque) {
    server *s = opaque;
    if (!s) return;
    if (s->ctx) api.ctx_free(s->ctx);
    if (s->certificate) api.x509_free(s->certificate);
    if (s->key) api.pkey_free(s->key);
    free(s);
}

void *pekit_tls_session(void *opaque, int fd) {
    server *s = opaque;
    SSL *ssl = api.ssl_new(s->ctx);
    if (!ssl) return NULL;
    if (!api.ssl_set_fd(ssl, fd)) { api.ssl_free(ssl); return NULL; }
    return ssl;
}

/// 0 where the call only waits for the socket, -1 otherwise.
static int waiting(SSL *ssl, int result) {
    int code = api.ssl_get_error(ssl, result);
    api.err_clear();
    return code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE ? 0 : -1;
}

int pekit_tls_handshake(void *session) {
    int result = api.ssl_accept(session);
    return result == 1 ? 1 : waiting(session, result);
}

long pekit_tls_read(void *session, void *buffer, size_t length) {
    int result = api.ssl_read(session, buffer, length > 0x7fffffff ? 0x7fffffff : (int)length);
    return result > 0 ? result : waiting(session, result);
}

long pekit_tls_write(void *session, const void *buffer, size_t length) {
    int result = api.ssl_write(session, buffer, length > 0x7fffffff ? 0x7fffffff : (int)length);
    return result > 0 ? result : waiting(session, result);
}

void pekit_tls_session_free(void *session) {
    if (!session) return;
    api.ssl_shutdown(session);
    api.ssl_free(session);
}
