// pekit's decoding stages: libcurl 7.88's content_encoding.c readings of gzip, deflate, br and
// zstd, over the libraries loaded with dlopen (types from their headers only).
#include "pekit_decode.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <brotli/decode.h>
#include <zstd.h>

#define OUT_SIZE 16384  // libcurl's DSIZE

static struct {
    int (*inflateInit2_)(z_streamp, int, const char *, int);
    int (*inflate)(z_streamp, int);
    int (*inflateEnd)(z_streamp);
    const char *(*zlibVersion)(void);
    BrotliDecoderState *(*brCreate)(brotli_alloc_func, brotli_free_func, void *);
    BrotliDecoderResult (*brDecompress)(BrotliDecoderState *, size_t *, const uint8_t **, size_t *, uint8_t **, size_t *);
    void (*brDestroy)(BrotliDecoderState *);
    ZSTD_DStream *(*zCreate)(void);
    size_t (*zDecompress)(ZSTD_DStream *, ZSTD_outBuffer *, ZSTD_inBuffer *);
    size_t (*zFree)(ZSTD_DStream *);
    unsigned (*zIsError)(size_t);
    int zlib, brotli, zstd;  // 1 loaded, -1 not there
} lib;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

// One library's symbols and where each goes: the three libraries are loaded by one function
// from these tables.
struct symbol { const char *name; void **slot; };
static const struct symbol zlib_symbols[] = {
    {"inflateInit2_", (void **)&lib.inflateInit2_}, {"inflate", (void **)&lib.inflate},
    {"inflateEnd", (void **)&lib.inflateEnd}, {"zlibVersion", (void **)&lib.zlibVersion},
};
static const struct symbol brotli_symbols[] = {
    {"BrotliDecoderCreateInstance", (void **)&lib.brCreate}, {"BrotliDecoderDecompressStream", (void **)&lib.brDecompress},
    {"BrotliDecoderDestroyInstance", (void **)&lib.brDestroy},
};
static const struct symbol zstd_symbols[] = {
    {"ZSTD_createDStream", (void **)&lib.zCreate}, {"ZSTD_decompressStream", (void **)&lib.zDecompress},
    {"ZSTD_freeDStream", (void **)&lib.zFree}, {"ZSTD_isError", (void **)&lib.zIsError},
};

// Loads `soname` once (`*state`: 0 not tried, 1 loaded, -1 not there or missing a symbol) and
// fills every slot; whether it is usable. Under `lock`.
static int open_library(int *state, const char *soname, const struct symbol *symbols, size_t count) {
    if (!*state) {
        void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
        size_t found = 0;
        while (h && found < count && (*symbols[found].slot = dlsym(h, symbols[found].name))) found++;
        *state = h && found == count ? 1 : -1;
    }
    return *state == 1;
}

#define SYMBOLS(table) table, sizeof table / sizeof table[0]

static int load(int kind) {
    pthread_mutex_lock(&lock);
    int ok = 0;
    if (kind == PEKIT_DECODE_GZIP || kind == PEKIT_DECODE_DEFLATE) ok = open_library(&lib.zlib, "libz.so.1", SYMBOLS(zlib_symbols));
    else if (kind == PEKIT_DECODE_BROTLI) ok = open_library(&lib.brotli, "libbrotlidec.so.1", SYMBOLS(brotli_symbols));
    else if (kind == PEKIT_DECODE_ZSTD) ok = open_library(&lib.zstd, "libzstd.so.1", SYMBOLS(zstd_symbols));
    pthread_mutex_unlock(&lock);
    return ok;
}

struct pekit_decoder {
    int kind;
    int ended;       // the stream's end was read
    int raw;         // deflate: read as raw deflate (no zlib wrapper), as libcurl retries it
    int produced;    // any byte came out
    z_stream z;
    BrotliDecoderState *br;
    ZSTD_DStream *zs;
    char error[128];
    const char *message;
};

static int init_zlib(pekit_decoder *d, int bits) {
    memset(&d->z, 0, sizeof d->z);
    return lib.inflateInit2_(&d->z, bits, lib.zlibVersion(), (int)sizeof(z_stream)) == Z_OK;
}

pekit_decoder *pekit_decoder_new(int kind) {
    if (!load(kind)) return NULL;
    pekit_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->kind = kind;
    int ok = 1;
    switch (kind) {
    case PEKIT_DECODE_GZIP: ok = init_zlib(d, MAX_WBITS + 32); break;  // gzip, header detected
    case PEKIT_DECODE_DEFLATE: ok = init_zlib(d, MAX_WBITS); break;
    case PEKIT_DECODE_BROTLI: d->br = lib.brCreate(NULL, NULL, NULL); ok = d->br != NULL; break;
    case PEKIT_DECODE_ZSTD: d->zs = lib.zCreate(); ok = d->zs != NULL; break;
    default: ok = 0;
    }
    if (!ok) { free(d); return NULL; }
    return d;
}

static int zlib_write(pekit_decoder *d, const uint8_t *bytes, size_t count, pekit_decode_sink sink, void *context) {
    uint8_t out[OUT_SIZE];
    d->z.next_in = (Bytef *)bytes;
    d->z.avail_in = (uInt)count;
    do {
        d->z.next_out = out;
        d->z.avail_out = OUT_SIZE;
        int status = lib.inflate(&d->z, Z_SYNC_FLUSH);
        size_t made = OUT_SIZE - d->z.avail_out;
        if (made) { d->produced = 1; if (!sink(context, out, made)) return -1; }
        if (status == Z_STREAM_END) { d->ended = 1; return d->z.avail_in ? 23 : 0; }
        if (status == Z_DATA_ERROR && d->kind == PEKIT_DECODE_DEFLATE && !d->raw && !d->produced) {
            // Some servers send raw deflate: libcurl reads it again so when nothing came out yet.
            lib.inflateEnd(&d->z);
            if (!init_zlib(d, -MAX_WBITS)) return 61;
            d->raw = 1;
            return zlib_write(d, bytes, count, sink, context);
        }
        if (status == Z_BUF_ERROR && d->z.avail_in == 0) return 0;  // needs more input
        if (status != Z_OK && status != Z_BUF_ERROR) {
            if (d->z.msg) { strncpy(d->error, d->z.msg, sizeof d->error - 1); d->message = d->error; }
            return 61;
        }
    } while (d->z.avail_in > 0 || d->z.avail_out == 0);
    return 0;
}

static int brotli_write(pekit_decoder *d, const uint8_t *bytes, size_t count, pekit_decode_sink sink, void *context) {
    uint8_t out[OUT_SIZE];
    const uint8_t *in = bytes;
    size_t left = count;
    for (;;) {
        uint8_t *next = out;
        size_t room = OUT_SIZE;
        BrotliDecoderResult r = lib.brDecompress(d->br, &left, &in, &room, &next, NULL);
        size_t made = OUT_SIZE - room;
        if (made && !sink(context, out, made)) return -1;
        if (r == BROTLI_DECODER_RESULT_ERROR) return 61;
        if (r == BROTLI_DECODER_RESULT_SUCCESS) { d->ended = 1; return left ? 23 : 0; }
        if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) return 0;
    }
}

static int zstd_write(pekit_decoder *d, const uint8_t *bytes, size_t count, pekit_decode_sink sink, void *context) {
    uint8_t out[OUT_SIZE];
    ZSTD_inBuffer in = { bytes, count, 0 };
    for (;;) {
        ZSTD_outBuffer o = { out, OUT_SIZE, 0 };
        size_t result = lib.zDecompress(d->zs, &o, &in);
        if (o.pos && !sink(context, out, o.pos)) return -1;
        // libcurl 7.88 says nothing more of a zstd error than its code's words.
        if (lib.zIsError(result)) return 61;
        if (in.pos == in.size && o.pos < o.size) return 0;
    }
}

int pekit_decoder_write(pekit_decoder *d, const uint8_t *bytes, size_t count, pekit_decode_sink sink, void *context) {
    if (count == 0) return 0;
    if (d->ended) return 23;  // bytes after the stream's end: libcurl's write error
    switch (d->kind) {
    case PEKIT_DECODE_GZIP: case PEKIT_DECODE_DEFLATE: return zlib_write(d, bytes, count, sink, context);
    case PEKIT_DECODE_BROTLI: return brotli_write(d, bytes, count, sink, context);
    case PEKIT_DECODE_ZSTD: return zstd_write(d, bytes, count, sink, context);
    }
    return 61;
}

const char *pekit_decoder_error(const pekit_decoder *d) { return d->message; }

void pekit_decoder_free(pekit_decoder *d) {
    if (!d) return;
    if (d->kind == PEKIT_DECODE_GZIP || d->kind == PEKIT_DECODE_DEFLATE) lib.inflateEnd(&d->z);
    if (d->br) lib.brDestroy(d->br);
    if (d->zs) lib.zFree(d->zs);
    free(d);
}
