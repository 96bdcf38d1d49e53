#ifndef PEKIT_CIDNASHIM_H
#define PEKIT_CIDNASHIM_H

#include <stddef.h>
#include <stdint.h>

// UTS #46 processing (IDNA) as the URL Standard asks for it, from ICU's uidna (Debian's libicu):
// non-transitional, CheckBidi and CheckJoiners on, UseSTD3ASCIIRules off. ICU is loaded with
// dlopen on the first non-ASCII host (it is 30 MB with its data), so start-up does not pay.

/// Loads libicuuc once (thread-safe). Returns NULL on success, or a message saying what failed.
const char *pekit_idna_load(void);

/// UTS #46 ToASCII (`to_unicode` 0) or ToUnicode (`to_unicode` 1) of a UTF-8 domain name.
/// Writes at most `capacity` bytes to `out` and returns the full length of the result (call again
/// with more room when it is larger), or -1 when ICU fails outright (a message in `failure`).
/// `errors` receives ICU's UIDNA_ERROR_* bits; the caller decides which of them count.
long pekit_idna_convert(int to_unicode, const char *input, size_t count, char *out, size_t capacity,
                        uint32_t *errors, const char **failure);

#endif
