// Small blocks for one Lua state, in size classes with a free list each.
//
// Lua tells its allocator the size of every block it frees, so a block needs no header and a
// freed one goes straight back on its class's list: no search, no coalescing. glibc's malloc
// keeps only a few blocks of each size in its per-thread cache, and the collector frees in
// bursts (a sweep step frees dozens of strings and userdata at once), so most of those frees
// and the allocations after them took malloc's slow path; measured on pekit.url.parse in a
// loop, malloc and free were 12% of the time.
//
// One pool belongs to one state (its coroutines share it), which one thread runs at a time, as
// with everything else in the state: no locking. Blocks are carved from chunks that go back to
// the system when the state closes. Built without the pool under AddressSanitizer, so that a
// use after free of Lua memory is still caught.
#ifndef PEKIT_POOL_H
#define PEKIT_POOL_H

#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PEKIT_POOL_DISABLED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PEKIT_POOL_DISABLED 1
#endif

/// Blocks up to this size come from the pool, in classes 16 bytes apart; larger ones from malloc.
#define PEKIT_POOL_MAX 256
#define PEKIT_POOL_CLASSES (PEKIT_POOL_MAX / 16)

typedef struct pekit_pool {
    void *free_list[PEKIT_POOL_CLASSES];
    char *next;       // the unused rest of the newest chunk
    char *end;
    void *chunks;     // every chunk, linked through its first word
} pekit_pool;

/// A block of `size` bytes (1 ... PEKIT_POOL_MAX), or NULL when memory is out.
void *pekit_pool_alloc(pekit_pool *pool, size_t size);
/// Gives back a block that `pekit_pool_alloc` returned for the same size class.
void pekit_pool_free(pekit_pool *pool, void *block, size_t size);
/// Whether two sizes fall in one class (a block of one serves the other).
int pekit_pool_same_class(size_t a, size_t b);
/// Frees every chunk; the pool's blocks are all invalid after.
void pekit_pool_release(pekit_pool *pool);

#endif
