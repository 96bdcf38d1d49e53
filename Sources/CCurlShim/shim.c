#include "CCurlShim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

pekit_curl_api pekit_curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static const char *load_error = NULL;

static void load(void) {
    // The soname of Debian's libcurl4 (OpenSSL flavour); libcurl4-openssl-dev also provides it.
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(failure, sizeof failure, "cannot load libcurl (%s); install Debian's libcurl4", dlerror());
        load_error = failure;
        return;
    }
#define PEKIT_SYMBOL(field, name)                                                     \
    *(void **)(&pekit_curl.field) = dlsym(lib, name);                                 \
    if (!pekit_curl.field) {                                                          \
        snprintf(failure, sizeof failure, "libcurl.so.4 has no %s (too old?)", name); \
        load_error = failure;                                                         \
        return;                                                                       \
    }
    PEKIT_SYMBOL(global_init, "curl_global_init")
    PEKIT_SYMBOL(easy_init, "curl_easy_init")
    PEKIT_SYMBOL(easy_cleanup, "curl_easy_cleanup")
    PEKIT_SYMBOL(easy_reset, "curl_easy_reset")
    PEKIT_SYMBOL(easy_setopt, "curl_easy_setopt")
    PEKIT_SYMBOL(easy_getinfo, "curl_easy_getinfo")
    PEKIT_SYMBOL(easy_strerror, "curl_easy_strerror")
    PEKIT_SYMBOL(slist_append, "curl_slist_append")
    PEKIT_SYMBOL(slist_free_all, "curl_slist_free_all")
    PEKIT_SYMBOL(version, "curl_version")
    PEKIT_SYMBOL(multi_init, "curl_multi_init")
    PEKIT_SYMBOL(multi_cleanup, "curl_multi_cleanup")
    PEKIT_SYMBOL(multi_add_handle, "curl_multi_add_handle")
    PEKIT_SYMBOL(multi_remove_handle, "curl_multi_remove_handle")
    PEKIT_SYMBOL(multi_perform, "curl_multi_perform")
    PEKIT_SYMBOL(multi_poll, "curl_multi_poll")
    PEKIT_SYMBOL(multi_info_read, "curl_multi_info_read")
    PEKIT_SYMBOL(multi_strerror, "curl_multi_strerror")
#undef PEKIT_SYMBOL
    if (pekit_curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(failure, sizeof failure, "curl_global_init failed");
        load_error = failure;
    }
}

const char *pekit_curl_load(void) {
    pthread_once(&once, load);
    return load_error;
}
