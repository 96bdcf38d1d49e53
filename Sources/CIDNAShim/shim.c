#include "CIDNAShim.h"
#include <unicode/uidna.h>
#include <unicode/uvernum.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// ICU's headers rename every function to carry the library's major version
// (uidna_openUTS46 -> uidna_openUTS46_72); the names to look up are those same macros, as text.
#define PEKIT_TEXT2(x) #x
#define PEKIT_TEXT(x) PEKIT_TEXT2(x)

static struct {
    UIDNA *(*open)(uint32_t, UErrorCode *);
    int32_t (*to_ascii)(const UIDNA *, const char *, int32_t, char *, int32_t, UIDNAInfo *, UErrorCode *);
    int32_t (*to_unicode)(const UIDNA *, const char *, int32_t, char *, int32_t, UIDNAInfo *, UErrorCode *);
    const char *(*error_name)(UErrorCode);
} api;

static UIDNA *uts46;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure_text[512];
static const char *load_error = NULL;

static void load(void) {
    const char *library = "libicuuc.so." U_ICU_VERSION_SHORT;
    void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(failure_text, sizeof failure_text, "cannot load %s for IDNA (%s); install Debian's libicu-dev", library, dlerror());
        load_error = failure_text;
        return;
    }
#define PEKIT_SYMBOL(field, name)                                                              \
    *(void **)(&api.field) = dlsym(lib, PEKIT_TEXT(name));                                     \
    if (!api.field) {                                                                          \
        snprintf(failure_text, sizeof failure_text, "%s has no %s", library, PEKIT_TEXT(name)); \
        load_error = failure_text;                                                             \
        return;                                                                                \
    }
    PEKIT_SYMBOL(open, uidna_openUTS46)
    PEKIT_SYMBOL(to_ascii, uidna_nameToASCII_UTF8)
    PEKIT_SYMBOL(to_unicode, uidna_nameToUnicodeUTF8)
    PEKIT_SYMBOL(error_name, u_errorName)
    UErrorCode status = U_ZERO_ERROR;
    // The URL Standard's options (§3.3): CheckBidi, CheckJoiners, non-transitional both ways;
    // CheckHyphens and VerifyDnsLength off are the caller's to apply (ICU always reports them).
    uts46 = api.open(UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_NONTRANSITIONAL_TO_UNICODE, &status);
    if (U_FAILURE(status) || !uts46) {
        snprintf(failure_text, sizeof failure_text, "ICU could not open UTS #46 processing (%s)", api.error_name(status));
        load_error = failure_text;
    }
}

const char *pekit_idna_load(void) {
    pthread_once(&once, load);
    return load_error;
}

long pekit_idna_convert(int to_unicode, const char *input, size_t count, char *out, size_t capacity,
                        uint32_t *errors, const char **failure) {
    if (pekit_idna_load()) { *failure = load_error; return -1; }
    if (count > INT32_MAX || capacity > INT32_MAX) { *failure = "the name is too long"; return -1; }
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = (to_unicode ? api.to_unicode : api.to_ascii)(uts46, input, (int32_t)count, out, (int32_t)capacity, &info, &status);
    // Too small a buffer is not a failure: the length says how much room to give next time.
    if (U_FAILURE(status) && status != U_BUFFER_OVERFLOW_ERROR) { *failure = api.error_name(status); return -1; }
    *errors = info.errors;
    return length;
}
