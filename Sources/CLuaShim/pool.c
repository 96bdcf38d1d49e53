#include "pool.h"
#include <stdlib.h>

// 64 KB a chunk: a few hundred blocks, so chunks are rare, and little is left unused at exit.
#define CHUNK_SIZE (64 * 1024)
// A chunk's first 16 bytes link it to the next (16, not 8: blocks stay 16-byte aligned, as
// malloc's are and Lua expects of userdata memory).
#define CHUNK_HEADER 16

static inline size_t class_of(size_t size) { return (size - 1) >> 4; }

int pekit_pool_same_class(size_t a, size_t b) {
    return a >= 1 && b >= 1 && a <= PEKIT_POOL_MAX && b <= PEKIT_POOL_MAX && class_of(a) == class_of(b);
}

void *pekit_pool_alloc(pekit_pool *pool, size_t size) {
    size_t c = class_of(size);
    void *block = pool->free_list[c];
    if (block) {
        pool->free_list[c] = *(void **)block;
        return block;
    }
    size_t rounded = (c + 1) << 4;
    if ((size_t)(pool->end - pool->next) < rounded) {
        char *chunk = malloc(CHUNK_SIZE);
        if (!chunk) return NULL;
        *(void **)chunk = pool->chunks;
        pool->chunks = chunk;
        // What is left of the old chunk is smaller than this block; at most 240 bytes a chunk.
        pool->next = chunk + CHUNK_HEADER;
        pool->end = chunk + CHUNK_SIZE;
    }
    block = pool->next;
    pool->next += rounded;
    return block;
}

void pekit_pool_free(pekit_pool *pool, void *block, size_t size) {
    size_t c = class_of(size);
    *(void **)block = pool->free_list[c];
    pool->free_list[c] = block;
}

void pekit_pool_release(pekit_pool *pool) {
    void *chunk = pool->chunks;
    while (chunk) {
        void *next = *(void **)chunk;
        free(chunk);
        chunk = next;
    }
    *pool = (pekit_pool){0};
}
