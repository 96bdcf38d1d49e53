#include "CCurlShim.h"
#include <dlfcn.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <errno.h>
#include <string.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>

pekit_curl_api pekit_curl;

// Loaded once; a failure that is the moment's (no descriptor free) is tried again on the next
// call, and only one that will not change (the library or a symbol missing) is kept.
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded = 0;
static char failure[512];
static const char *load_error = NULL;

static void load(void) {
    // The soname of Debian's libcurl4 (OpenSSL flavour); libcurl4-openssl-dev also provides it.
    errno = 0;
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        if (errno == EMFILE || errno == ENFILE || (why && strstr(why, "Too many open files"))) {
            snprintf(failure, sizeof failure, "cannot load libcurl: too many open files: raise `ulimit -n` or lower the concurrency");
            load_error = failure;
            return;  // not kept: the next send tries again
        }
        snprintf(failure, sizeof failure, "cannot load libcurl (%s); install Debian's libcurl4", why ? why : "unknown error");
        load_error = failure;
        loaded = 1;
        return;
    }
#define PEKIT_SYMBOL(field, name)                                                     \
    *(void **)(&pekit_curl.field) = dlsym(lib, name);                                 \
    if (!pekit_curl.field) {                                                          \
        snprintf(failure, sizeof failure, "libcurl.so.4 has no %s (too old?)", name); \
        load_error = failure;                                                         \
        loaded = 1;                                                                   \
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
    PEKIT_SYMBOL(multi_setopt, "curl_multi_setopt")
    PEKIT_SYMBOL(multi_cleanup, "curl_multi_cleanup")
    PEKIT_SYMBOL(multi_add_handle, "curl_multi_add_handle")
    PEKIT_SYMBOL(multi_remove_handle, "curl_multi_remove_handle")
    PEKIT_SYMBOL(multi_perform, "curl_multi_perform")
    PEKIT_SYMBOL(multi_poll, "curl_multi_poll")
    PEKIT_SYMBOL(multi_info_read, "curl_multi_info_read")
    PEKIT_SYMBOL(multi_strerror, "curl_multi_strerror")
#undef PEKIT_SYMBOL
    if (pekit_curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        // Its resources (descriptors, memory) may be there the next time.
        snprintf(failure, sizeof failure, "curl_global_init failed (too many open files or no memory?)");
        load_error = failure;
        return;
    }
    load_error = NULL;
    loaded = 1;
}

const char *pekit_curl_load(void) {
    pthread_mutex_lock(&load_lock);
    if (!loaded) load();
    const char *error = load_error;
    pthread_mutex_unlock(&load_lock);
    return error;
}

// ---- Reused connections ----
// libcurl 7.88 takes a kept connection without asking whether the server sent anything while
// it was idle (its liveness check runs at most once a second), so bytes no request asked for
// become the next answer and every later answer is one late. Called once the connection is
// chosen and before the request is sent: a reused connection that has something to read is
// shut down, so the send fails and libcurl sends again on a new connection, as it does for a
// kept connection the server closed. libcurl does not say which socket a transfer has before
// it ends, so the sockets it opens are kept here (open and close callbacks), each with its
// local port once connected, and the one the callback names is found by that port.
typedef struct { curl_socket_t fd; int port; } tracked_socket;
static pthread_mutex_t tracked_lock = PTHREAD_MUTEX_INITIALIZER;
static tracked_socket *tracked = NULL;
static size_t tracked_count = 0, tracked_capacity = 0;

static curl_socket_t open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)clientp; (void)purpose;
    curl_socket_t fd = socket(address->family, address->socktype, address->protocol);
    if (fd == CURL_SOCKET_BAD) return fd;
    pthread_mutex_lock(&tracked_lock);
    if (tracked_count == tracked_capacity) {
        size_t grown = tracked_capacity ? tracked_capacity * 2 : 64;
        tracked_socket *more = realloc(tracked, grown * sizeof *more);
        if (more) { tracked = more; tracked_capacity = grown; }
    }
    if (tracked_count < tracked_capacity) tracked[tracked_count++] = (tracked_socket){ fd, -1 };
    pthread_mutex_unlock(&tracked_lock);
    return fd;
}

static int close_socket(void *clientp, curl_socket_t fd) {
    (void)clientp;
    pthread_mutex_lock(&tracked_lock);
    for (size_t i = 0; i < tracked_count; i++) {
        if (tracked[i].fd == fd) { tracked[i] = tracked[--tracked_count]; break; }
    }
    pthread_mutex_unlock(&tracked_lock);
    return close(fd);
}

static int local_port(curl_socket_t fd) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return -1;
    if (address.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&address)->sin_port);
    if (address.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
    return -1;
}

static int idle_check(void *clientp, char *primary_ip, char *local_ip, int primary_port, int port) {
    (void)primary_ip; (void)local_ip; (void)primary_port;
    CURL *h = clientp;
    long connects = 0;
    if (pekit_curl.easy_getinfo(h, CURLINFO_NUM_CONNECTS, &connects) != CURLE_OK || connects > 0) return CURL_PREREQFUNC_OK;
    curl_socket_t fd = CURL_SOCKET_BAD;
    pthread_mutex_lock(&tracked_lock);
    for (size_t i = 0; i < tracked_count && fd == CURL_SOCKET_BAD; i++) {
        if (tracked[i].port <= 0) tracked[i].port = local_port(tracked[i].fd);  // 0 until it connects
        if (tracked[i].port == port) fd = tracked[i].fd;
    }
    pthread_mutex_unlock(&tracked_lock);
    if (fd == CURL_SOCKET_BAD) return CURL_PREREQFUNC_OK;
    struct pollfd entry = { .fd = fd, .events = POLLIN, .revents = 0 };
    if (poll(&entry, 1, 0) > 0) shutdown(fd, SHUT_RDWR);
    return CURL_PREREQFUNC_OK;
}

CURLcode pekit_curl_setopt_idle_check(CURL *h) {
    CURLcode code = pekit_curl.easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, open_socket);
    if (code == CURLE_OK) code = pekit_curl.easy_setopt(h, CURLOPT_CLOSESOCKETFUNCTION, close_socket);
    if (code == CURLE_OK) code = pekit_curl.easy_setopt(h, CURLOPT_PREREQFUNCTION, idle_check);
    return code != CURLE_OK ? code : pekit_curl.easy_setopt(h, CURLOPT_PREREQDATA, (void *)h);
}

// ---- Descriptors ----
long pekit_descriptor_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 1024;
    return (long)limit.rlim_cur;
}

int pekit_descriptors_exhausted(void) {
    int fd = fcntl(0, F_DUPFD_CLOEXEC, 0);
    if (fd >= 0) { close(fd); return 0; }
    return errno == EMFILE || errno == ENFILE;
}
