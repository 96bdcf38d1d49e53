#ifndef PEKIT_CCURLSHIM_H
#define PEKIT_CCURLSHIM_H

#include <curl/curl.h>

// libcurl is loaded with dlopen on first use, not linked: linking it (and the thirty libraries
// it pulls in: TLS, LDAP, SASL, Kerberos, SSH…) cost every pekit start-up about 5 ms, even
// `pekit encode`. The wrappers below call through the pointers pekit_curl_load() fills; they
// are also typed, since curl_easy_setopt and curl_easy_getinfo are variadic (and macros under
// GCC's type checks), which Swift cannot call.

/// The libcurl functions pekit uses, resolved from libcurl.so.4.
typedef struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    char *(*version)(void);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    const char *(*multi_strerror)(CURLMcode);
} pekit_curl_api;

/// The loaded functions (all NULL before a successful pekit_curl_load). Written once, under
/// pekit_curl_load's lock, before any is read: Swift 6 may read it from any thread.
extern pekit_curl_api pekit_curl __attribute__((swift_attr("nonisolated(unsafe)")));

/// Loads libcurl once (thread-safe) and runs curl_global_init. Returns NULL on success, or a
/// message saying what failed (the library missing, a symbol missing, the initialisation).
const char *pekit_curl_load(void);

/// Makes a reused plain-HTTP connection that has bytes to read before the request is sent
/// (none was asked for) go unused: libcurl sends on a new connection (CURLOPT_PREREQFUNCTION).
CURLcode pekit_curl_setopt_idle_check(CURL *h);

/// Sets a multi handle's option that takes a `long` (CURLMOPT_MAXCONNECTS).
static inline CURLMcode pekit_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return pekit_curl.multi_setopt(m, o, v); }
/// How many descriptors the process may hold (RLIMIT_NOFILE's soft limit; 1024 when unknown):
/// what the connection caches are kept below.
long pekit_descriptor_limit(void);
/// Whether the process is out of descriptors now (a descriptor cannot be made: EMFILE or ENFILE).
int pekit_descriptors_exhausted(void);

/// Sets an option that takes a `long` (flags, counts, milliseconds).
static inline CURLcode pekit_curl_setopt_long(CURL *h, CURLoption o, long v) { return pekit_curl.easy_setopt(h, o, v); }
/// Sets an option that takes a `curl_off_t` (body sizes beyond 2 GiB).
static inline CURLcode pekit_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return pekit_curl.easy_setopt(h, o, v); }
/// Sets an option that takes a C string (curl copies it).
static inline CURLcode pekit_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return pekit_curl.easy_setopt(h, o, v); }
/// Sets an option that takes a pointer (callback data, header lists, the error buffer).
static inline CURLcode pekit_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return pekit_curl.easy_setopt(h, o, v); }
/// Sets a write, header or read callback (all three share this signature).
static inline CURLcode pekit_curl_setopt_data_callback(CURL *h, CURLoption o, curl_write_callback f) { return pekit_curl.easy_setopt(h, o, f); }
/// Sets the seek callback, so a body can be sent again when curl retries on a fresh connection.
static inline CURLcode pekit_curl_setopt_seek_callback(CURL *h, curl_seek_callback f) { return pekit_curl.easy_setopt(h, CURLOPT_SEEKFUNCTION, f); }
/// Sets the debug callback (with CURLOPT_VERBOSE): what libcurl sends and receives, for -v and --trace-ascii.
static inline CURLcode pekit_curl_setopt_debug_callback(CURL *h, curl_debug_callback f) { return pekit_curl.easy_setopt(h, CURLOPT_DEBUGFUNCTION, f); }
/// Sets the progress callback, which lets a transfer be cancelled (Ctrl-C).
static inline CURLcode pekit_curl_setopt_xferinfo_callback(CURL *h, curl_xferinfo_callback f) { return pekit_curl.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }

/// Reads a `long` transfer fact (the status code, the port).
static inline CURLcode pekit_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return pekit_curl.easy_getinfo(h, i, v); }
/// Reads a `curl_off_t` transfer fact (the timings in microseconds).
static inline CURLcode pekit_curl_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return pekit_curl.easy_getinfo(h, i, v); }
/// Reads a string transfer fact (the address connected to); owned by curl.
static inline CURLcode pekit_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return pekit_curl.easy_getinfo(h, i, v); }

/// The easy handle and result of a finished transfer from curl_multi_info_read (the result is
/// in a union Swift cannot read by name); 0 when `msg` is not a finished transfer.
static inline int pekit_curl_msg_done(CURLMsg *msg, CURL **easy, CURLcode *result) {
    if (msg->msg != CURLMSG_DONE) return 0;
    *easy = msg->easy_handle;
    *result = msg->data.result;
    return 1;
}

#endif
