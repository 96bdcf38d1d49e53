// The decoding stages of a response body that pekit's own HTTP/1.1 transfer reads as libcurl
// does (gzip, deflate, br, zstd), with Debian's own libraries (libz, libbrotlidec, libzstd)
// loaded when a response first needs one: nothing is linked, and a machine without one of them
// says so (pekit_decoder_new returns NULL) instead of failing to start.
#ifndef PEKIT_DECODE_H
#define PEKIT_DECODE_H

#include <stddef.h>
#include <stdint.h>

enum { PEKIT_DECODE_GZIP = 1, PEKIT_DECODE_DEFLATE = 2, PEKIT_DECODE_BROTLI = 3, PEKIT_DECODE_ZSTD = 4 };

typedef struct pekit_decoder pekit_decoder;

/// Where decoded bytes go: returns 0 to stop the transfer.
typedef int (*pekit_decode_sink)(void *context, const uint8_t *bytes, size_t count);

/// A decoder of `kind`; NULL when its library cannot be loaded.
pekit_decoder *pekit_decoder_new(int kind);

/// Decodes `count` bytes, handing what comes out to `sink`. Returns 0; -1 when the sink
/// stopped; or libcurl's code for what stopped it: 61 (a decoding error; pekit_decoder_error
/// may say which), 23 (bytes after the end of the stream).
int pekit_decoder_write(pekit_decoder *decoder, const uint8_t *bytes, size_t count, pekit_decode_sink sink, void *context);

/// The library's words for the last error, or NULL.
const char *pekit_decoder_error(const pekit_decoder *decoder);

void pekit_decoder_free(pekit_decoder *decoder);

#endif
