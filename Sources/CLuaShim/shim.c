#include <stdatomic.h>
#include "CLuaShim.h"
#include "pool.h"
#include <unistd.h>
#include <errno.h>
#include <string.h>
#include <malloc.h>
#include <signal.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <limits.h>
#include <stdio.h>

// ---- Allocator and the per-state control block ----
// One per lua_State universe (its coroutines share it): the memory count and cap, and the
// instruction budget every thread of the state charges.
typedef struct {
    size_t used;
    size_t limit;
    size_t host;      // what Swift work for the call in progress holds outside Lua (charged)
    int enforce;
    int budgeted;     // a plugin's state: Lua code runs only within a budget
    int calls;        // budgeted calls in progress (nested ones share the outermost budget)
    long long budget;
    long long deadline;   // CLOCK_MONOTONIC nanoseconds when the outermost call must end (0: none)
    long long time_limit; // the call's wall-clock limit in nanoseconds, for the message
    unsigned long long made;  // bytes ever allocated (grown) in the state: work that makes bytes
    pekit_pool pool;  // the state's blocks of up to PEKIT_POOL_MAX bytes (pool.h says why)
    // A watched state (see "Limits"): its main thread, the thread running Lua code now (NULL
    // for the main one), and its place in the list the SIGINT handler reads.
    lua_State *main;
    _Atomic(lua_State *) running;
    int slot;
    // A string the host writes in place (pekit_room_begin/push): the block being written, and
    // while lua_pushlstring runs, the size of the allocation it is to serve.
    char *room;
    size_t room_size;
    int adopting;
    // A wall-clock limit on the Lua code of a state that has no budget (`pekit test --max-time`):
    // CLOCK_MONOTONIC nanoseconds (0: none), and the words that stop the code past it.
    long long limit_deadline;
    char limit_message[160];
    char limit_exempt[64];  // the chunk the limit does not stop (its source, "=pekit test")
} pekit_alloc_state;

static void pekit_hook(lua_State *L, lua_Debug *ar);

static inline int pooled(size_t size) {
#ifdef PEKIT_POOL_DISABLED
    (void)size;
    return 0;
#else
    return size >= 1 && size <= PEKIT_POOL_MAX;
#endif
}

static void release(pekit_alloc_state *st, void *block, size_t size) {
    if (pooled(size)) pekit_pool_free(&st->pool, block, size);
    else free(block);
}

/// `block` (of `old` bytes; NULL for none) made `size` bytes, from the pool or malloc by size.
static void *resize(pekit_alloc_state *st, void *block, size_t old, size_t size) {
    if (!block) return pooled(size) ? pekit_pool_alloc(&st->pool, size) : malloc(size);
    if (!pooled(old) && !pooled(size)) return realloc(block, size);
    if (pekit_pool_same_class(old, size)) return block;
    void *moved = pooled(size) ? pekit_pool_alloc(&st->pool, size) : malloc(size);
    if (!moved) {
        // Lua requires that shrinking never fails: the block is big enough to serve as the
        // smaller one (freed later into the pool, it is only never handed back to malloc).
        return size < old ? block : NULL;
    }
    memcpy(moved, block, size < old ? size : old);
    release(st, block, old);
    return moved;
}

static void *pekit_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    pekit_alloc_state *st = (pekit_alloc_state *)ud;
    size_t old = ptr ? osize : 0;  // with no block, osize is the kind of object Lua makes
    if (st->adopting && !ptr && osize == LUA_TSTRING && nsize == st->room_size) {
        // The string being pushed gets the block its bytes were written in (pekit_room_push).
        char *block = st->room;
        st->room = NULL;
        st->adopting = 0;
        st->used += nsize;
        return block;
    }
    if (nsize == 0) {
        if (ptr) {
            st->used -= old;
            release(st, ptr, old);
        }
        return NULL;
    }
    // Shrinking never fails (the manual requires it); growing past the cap fails only while Lua runs.
    if (nsize > old && st->enforce && st->limit && st->used + st->host - old + nsize > st->limit) return NULL;
    void *p = resize(st, ptr, old, nsize);
    if (p) {
        st->used = st->used - old + nsize;
        if (nsize > old) st->made += nsize - old;
    }
    return p;
}

static int watch(pekit_alloc_state *st);
static void unwatch(pekit_alloc_state *st);

lua_State *pekit_newstate(size_t limit, int budgeted) {
    pekit_alloc_state *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->limit = limit;
    st->budgeted = budgeted;
    st->slot = -1;
    lua_State *L = lua_newstate(pekit_alloc, st);
    if (!L) { free(st); return NULL; }
    st->main = L;
    // A budget is charged by the hook, so a budgeted state always has one (threads copy their
    // creator's, so every coroutine has it too). Any other state is watched instead, and gets
    // a hook only when Ctrl-C comes; one that cannot be (the list is full) keeps a hook.
    if (budgeted || !watch(st)) lua_sethook(L, pekit_hook, LUA_MASKCOUNT, PEKIT_HOOK_PERIOD);
    return L;
}

static pekit_alloc_state *alloc_state(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (pekit_alloc_state *)ud;
}

int pekit_enforce_memory(lua_State *L, int on) {
    pekit_alloc_state *st = alloc_state(L);
    int previous = st->enforce;
    st->enforce = on;
    return previous;
}
void pekit_set_memory_limit(lua_State *L, size_t limit) { alloc_state(L)->limit = limit; }
size_t pekit_memory_limit(lua_State *L) { return alloc_state(L)->limit; }
size_t pekit_memory_used(lua_State *L) { return alloc_state(L)->used; }
int pekit_memory_exceeded(lua_State *L) {
    pekit_alloc_state *st = alloc_state(L);
    return st->limit && st->used + st->host > st->limit;
}
int pekit_memory_charge(lua_State *L, size_t bytes) {
    pekit_alloc_state *st = alloc_state(L);
    st->host = bytes > SIZE_MAX - st->host ? SIZE_MAX : st->host + bytes;
    return st->limit && (st->host > st->limit || st->used > st->limit - st->host);
}

void pekit_tune_malloc(void) {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

// ---- Strings written in place ----
// Lua 5.4 makes a string only by copying bytes into a block it allocates. For a large result
// that copy costs as much as the work that made it (encoding 1 MB: the copy was a third of the
// call), so the host writes into a block laid out as Lua's string object and, while it pushes,
// the allocator hands that block to the string: lua_pushlstring then copies the bytes onto
// themselves, which glibc's memmove skips. Correctness does not depend on Lua's layout: if the
// string asks for any other size, the block is not taken and the bytes are copied as usual.

/// Bytes a long string's object holds before its characters, as this build of Lua lays it out,
/// measured once by pushing a string and seeing what it asked for (0: not measurable).
static size_t string_header(lua_State *L) {
    static _Atomic size_t measured = (size_t)-1;  // one layout for every state of the process
    size_t header = atomic_load_explicit(&measured, memory_order_relaxed);
    if (header != (size_t)-1) return header;
    header = 0;
    pekit_alloc_state *st = alloc_state(L);
    enum { probe = PEKIT_POOL_MAX + 64 };
    char *block = malloc(probe * 2);
    if (!block) return 0;
    // Guess the header 8 bytes at a time: the block is offered to a string allocation of
    // exactly guess + probe + 1 bytes, and the guess the probe's string takes is the header.
    memset(block, 'p', probe * 2);
    for (size_t guess = 0; guess < probe; guess += 8) {
        st->room = block;
        st->room_size = guess + probe + 1;
        st->adopting = 1;
        lua_pushlstring(L, block + guess, probe);
        int taken = !st->adopting;
        st->adopting = 0;
        size_t length = 0;
        const char *text = lua_tolstring(L, -1, &length);
        lua_pop(L, 1);
        if (taken) {
            // The block is Lua's now (it frees it with the string); only the offset is checked.
            if (text == block + guess && length == probe) header = guess;
            atomic_store_explicit(&measured, header, memory_order_relaxed);
            return header;
        }
    }
    st->room = NULL;
    free(block);
    atomic_store_explicit(&measured, 0, memory_order_relaxed);
    return 0;
}

_Static_assert(PEKIT_ROOM_MIN_CAPACITY == PEKIT_POOL_MAX + 1, "rooms are the blocks the pool does not serve");

size_t pekit_string_header(lua_State *L) { return string_header(L); }

char *pekit_room_begin(lua_State *L, size_t capacity) {
    pekit_alloc_state *st = alloc_state(L);
    free(st->room);  // one left by a push that raised
    st->room = NULL;
    size_t header = string_header(L);
    if (!header || capacity < PEKIT_ROOM_MIN_CAPACITY || capacity > SIZE_MAX / 2) return NULL;
    st->room = malloc(header + capacity + 1);
    return st->room ? st->room + header : NULL;
}

void pekit_room_push(lua_State *L, char *text, size_t length) {
    pekit_alloc_state *st = alloc_state(L);
    size_t header = string_header(L);
    if (!st->room || text != st->room + header) {
        lua_pushlstring(L, text, length);
        return;
    }
    size_t size = header + length + 1;
    if (length > PEKIT_POOL_MAX) {
        // Shrinking keeps the block where it is (glibc splits it); if it moved, the bytes moved too.
        char *shrunk = realloc(st->room, size);
        if (shrunk) st->room = shrunk;
        st->room_size = size;
        st->adopting = 1;
    }
    lua_pushlstring(L, st->room + header, length);
    st->adopting = 0;
    free(st->room);  // NULL when the string took it
    st->room = NULL;
}

void pekit_close(lua_State *L) {
    pekit_alloc_state *st = alloc_state(L);
    free(st->room);
    // Finalizers run here, with hooks off (as Lua runs every finalizer): sandboxed states
    // refuse __gc in setmetatable, so only pekit's own handles have one.
    unwatch(st);
    lua_close(L);
    pekit_pool_release(&st->pool);
    free(st);
}

// ---- Trampoline ----
// Atomic: runtimes are created on any thread (ThreadSanitizer found the plain global racing).
static _Atomic(pekit_dispatch_fn) dispatcher = NULL;
void pekit_set_dispatcher(pekit_dispatch_fn fn) { atomic_store_explicit(&dispatcher, fn, memory_order_release); }

static int interrupted(void);
static int stop(lua_State *L, const char *why);
static int past_limit(pekit_alloc_state *st);
static int stop_at_limit(lua_State *L, pekit_alloc_state *st, int level);
static int exempt(lua_State *L, pekit_alloc_state *st, int level);
static int spent(pekit_alloc_state *st);
static int stop_spent(lua_State *L, pekit_alloc_state *st);
#define PEKIT_BYTES_PER_STEP 8

int pekit_raise_here(lua_State *L) {
    if (lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/// A Swift function's call resumed after PEKIT_YIELD: the stack holds what the scheduler passed.
static int resumed(lua_State *L, int status, lua_KContext ctx) {
    (void)status; (void)ctx;
    if (interrupted()) return stop(L, "interrupted");
    int ok = lua_toboolean(L, 1);
    lua_remove(L, 1);
    if (!ok) return pekit_raise_here(L);
    return lua_gettop(L);
}

static int pekit_trampoline(lua_State *L) {
    void *context = lua_touserdata(L, lua_upvalueindex(1));
    // Lua grants a C function LUA_MINSTACK slots; a Swift function may push PEKIT_HOST_SLOTS
    // without asking (one that pushes more, a list's items, asks itself). Raised here, in C.
    luaL_checkstack(L, PEKIT_HOST_SLOTS, "calling a pekit function");
    // The control block, looked up once: this runs on every call from Lua into Swift.
    pekit_alloc_state *st = alloc_state(L);
    // Host pushes run with the cap relaxed: an allocation failure inside an API call made from
    // Swift would raise through Swift frames.
    int previous = st->enforce;
    st->enforce = 0;
    // What the call charges for its Swift work is let go when it returns (nested calls, from a
    // callback the call runs, add to it and take theirs off again).
    size_t host = st->host;
    unsigned long long made = st->made;
    pekit_dispatch_fn dispatch = atomic_load_explicit(&dispatcher, memory_order_acquire);
    int n = dispatch ? dispatch(L, context) : (lua_pushliteral(L, "pekit: no dispatcher"), PEKIT_RAISE);
    st->host = host;
    st->enforce = previous;
    // Ctrl-C during a call (a transfer polls for it and gives up): stop here, and at every
    // instruction after, even if the script wraps the call in pcall.
    if (interrupted()) return stop(L, "interrupted");
    // Past a time limit (a send it cut short, a sleep it ended): stopped here, in its words.
    if (!st->budgeted && past_limit(st) && !exempt(L, st, 1)) return stop_at_limit(L, st, 1);
    // In a plugin's state a call is charged a step and the bytes it made (the work it did
    // itself, a JSONPath query's nodes, it charged with pekit_budget_spend); a call that spent
    // the budget or passed the time limit stops the plugin, whatever error it returned.
    // An error the call raised for itself (its memory cap) stands unless the budget was
    // spent within the call (host work stopped by it says so in its own words).
    if (st->budgeted) {
        int failed = n == PEKIT_RAISE;
        if (!failed) st->budget -= 1 + (long long)((st->made - made) / PEKIT_BYTES_PER_STEP);
        if (spent(st)) {
            lua_settop(L, 0);
            return stop_spent(L, st);
        }
    }
    if (n == PEKIT_RAISE) return pekit_raise_here(L);  // the Swift frames are gone now
    if (n == PEKIT_YIELD) return lua_yieldk(L, 0, 0, resumed);
    return n;
}

void pekit_push_swift_function(lua_State *L, void *context) {
    lua_pushlightuserdata(L, context);
    lua_pushcclosure(L, pekit_trampoline, 1);
}

// ---- Protected calls ----
static int describe_body(lua_State *L) {
    if (luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
        lua_pop(L, 1);
        luaL_tolstring(L, 1, NULL);
        return 1;
    }
    // A table thrown as an error: show what is in it, as the REPL would print it.
    if (lua_type(L, 1) == LUA_TTABLE && lua_getfield(L, LUA_REGISTRYINDEX, "pekit.inspect") == LUA_TFUNCTION) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 1);
        lua_pushliteral(L, "error object: ");
        lua_insert(L, -2);
        lua_concat(L, 2);
        return 1;
    }
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    return 1;
}

int pekit_describe_error(lua_State *L) {
    if (lua_type(L, -1) == LUA_TSTRING) return LUA_OK;
    int value = lua_gettop(L);
    lua_pushcfunction(L, describe_body);
    lua_pushvalue(L, value);
    int previous = pekit_enforce_memory(L, 1);  // __tostring and the dump are Lua code
    int status = lua_pcall(L, 1, 1, 0);
    pekit_enforce_memory(L, previous);
    if (status != LUA_OK) {
        const char *why = lua_tostring(L, -1);
        lua_pushfstring(L, "(error object is a %s value; describing it failed: %s)", luaL_typename(L, value), why ? why : "?");
        lua_remove(L, -2);
    }
    lua_replace(L, value);
    return status;
}

static int msghandler(lua_State *L) {
    pekit_describe_error(L);
    luaL_traceback(L, L, lua_tostring(L, 1), 1);
    return 1;
}

int pekit_pcall_traceback(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, msghandler);
    lua_insert(L, base);
    int status = lua_pcall(L, nargs, nresults, base);
    lua_remove(L, base);
    return status;
}

int pekit_pcall(lua_State *L, int nargs, int nresults) { return lua_pcall(L, nargs, nresults, 0); }

static int tostring_body(lua_State *L) {
    luaL_tolstring(L, 1, NULL);
    return 1;
}

int pekit_tostring(lua_State *L, int i) {
    i = lua_absindex(L, i);
    lua_pushcfunction(L, tostring_body);
    lua_pushvalue(L, i);
    // A __tostring is Lua code: it runs under the state's cap like any other.
    int previous = pekit_enforce_memory(L, 1);
    int status = lua_pcall(L, 1, 1, 0);
    pekit_enforce_memory(L, previous);
    return status;
}

// ---- Limits ----
// Process-wide, like the signal: Ctrl-C stops whatever Lua code is running, in any state.
// Lock-free atomics, so both the signal handler and runtimes on other threads may touch them.
static atomic_int catching_interrupts = 0;
static atomic_int interrupt_pending = 0;

static int interrupted(void) {
    return atomic_load_explicit(&catching_interrupts, memory_order_relaxed)
        && atomic_load_explicit(&interrupt_pending, memory_order_relaxed);
}

// Raises and keeps the hook firing at every instruction of this thread, so a pcall or a
// coroutine.resume that catches the error cannot go on running.
static int stop(lua_State *L, const char *why) {
    lua_sethook(L, pekit_hook, LUA_MASKCOUNT, 1);
    return luaL_error(L, "%s", why);
}

static const char *budget_message = "instruction budget exceeded (an endless loop?)";

static long long monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/// Whether a budgeted state's call passed its wall-clock limit.
static int past_deadline(pekit_alloc_state *st) {
    return st->budgeted && st->deadline && monotonic_ns() >= st->deadline;
}

/// Whether a budgeted state's call ran out of steps or of time (never for an unbudgeted one).
static int spent(pekit_alloc_state *st) {
    return st->budgeted && (st->budget <= 0 || past_deadline(st));
}

/// Stops the call with the message for whichever limit it passed.
static int stop_spent(lua_State *L, pekit_alloc_state *st) {
    if (st->budget <= 0) return stop(L, budget_message);
    // The limit in the message as the user gave it: whole seconds, or milliseconds.
    char why[96];
    long long ms = st->time_limit / 1000000;
    if (ms % 1000 == 0) snprintf(why, sizeof why, "time limit exceeded (a plugin's call may run %lld s)", ms / 1000);
    else snprintf(why, sizeof why, "time limit exceeded (a plugin's call may run %lld ms)", ms);
    return stop(L, why);
}

// ---- A time limit for a state without a budget (pekit test's --max-time) ----

static int past_limit(pekit_alloc_state *st) {
    return st->limit_deadline && monotonic_ns() > st->limit_deadline;
}

/// Whether the Lua function `level` frames up runs the host's own code (the chunk the limit
/// exempts: pekit test's harness, which must go on to the next test).
static int exempt(lua_State *L, pekit_alloc_state *st, int level) {
    if (!st->limit_exempt[0]) return 0;
    lua_Debug ar;
    if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "S", &ar)) return 0;
    return strcmp(ar.source, st->limit_exempt) == 0;
}

/// Stops the code at its limit; from then on every instruction of it stops it again (the hook
/// runs at each), so code that catches the error with pcall cannot go on past the limit. The
/// exempt chunk runs on: it sets the next limit, or none.
static int stop_at_limit(lua_State *L, pekit_alloc_state *st, int level) {
    lua_sethook(L, pekit_hook, LUA_MASKCOUNT, 1);
    // Where the code was: the running function in a hook (level 0), the caller of a host call (1).
    luaL_where(L, level);
    lua_pushstring(L, st->limit_message);
    lua_concat(L, 2);
    return lua_error(L);
}

void pekit_time_limit(lua_State *L, long long nanoseconds, const char *message, const char *exempt_source) {
    pekit_alloc_state *st = alloc_state(L);
    if (st->budgeted) return;  // a plugin's calls have their own limit
    st->limit_deadline = nanoseconds > 0 ? monotonic_ns() + nanoseconds : 0;
    snprintf(st->limit_message, sizeof st->limit_message, "%s", message ? message : "time limit exceeded");
    snprintf(st->limit_exempt, sizeof st->limit_exempt, "%s", exempt_source ? exempt_source : "");
    // The hook reads the clock every PEKIT_HOOK_PERIOD instructions while a limit is set (a
    // watched state runs without one otherwise); threads made after this copy it.
    if (nanoseconds > 0) lua_sethook(st->main, pekit_hook, LUA_MASKCOUNT, PEKIT_HOOK_PERIOD);
}

double pekit_time_limit_left(lua_State *L) {
    pekit_alloc_state *st = alloc_state(L);
    if (!st->limit_deadline) return -1;
    long long left = st->limit_deadline - monotonic_ns();
    return left > 0 ? (double)left / 1e9 : 0;
}

static void pekit_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    if (interrupted()) stop(L, "interrupted");
    pekit_alloc_state *st = alloc_state(L);
    if (st->budgeted) {
        st->budget -= lua_gethookcount(L);
        if (spent(st)) stop_spent(L, st);
    } else if (past_limit(st)) {
        if (!exempt(L, st, 0)) stop_at_limit(L, st, 0);
        // The exempt chunk runs at the usual period, and is checked again there.
        lua_sethook(L, pekit_hook, LUA_MASKCOUNT, 1);
        return;
    }
    // Ctrl-C dealt with: a watched state runs without a hook again (unless a time limit needs
    // it); any other goes back to the usual period (after a stop, or with a new budget).
    if (st->slot >= 0 && !st->budgeted && !st->limit_deadline) lua_sethook(L, NULL, 0, 0);
    else if (lua_gethookcount(L) != PEKIT_HOOK_PERIOD) lua_sethook(L, pekit_hook, LUA_MASKCOUNT, PEKIT_HOOK_PERIOD);
}

int pekit_budget_begin(lua_State *L, long long count, long long nanoseconds) {
    pekit_alloc_state *st = alloc_state(L);
    if (!st->budgeted) return 0;
    if (st->calls++ == 0) {
        st->budget = count;
        st->time_limit = nanoseconds > 0 ? nanoseconds : 0;
        st->deadline = nanoseconds > 0 ? monotonic_ns() + nanoseconds : 0;
    }
    return 1;
}

long long pekit_budget_remaining(lua_State *L) {
    pekit_alloc_state *st = alloc_state(L);
    if (!st->budgeted) return LLONG_MAX;
    return st->budget > 0 ? st->budget : 0;
}

int pekit_budget_spend(lua_State *L, long long steps) {
    pekit_alloc_state *st = alloc_state(L);
    if (st->budgeted && steps > 0) st->budget -= steps;
    return spent(st) || interrupted();
}

int pekit_budget_expired(lua_State *L) {
    return past_deadline(alloc_state(L)) || interrupted();
}

void pekit_budget_end(lua_State *L) {
    pekit_alloc_state *st = alloc_state(L);
    // Spent again once the outermost call returns: a finalizer that the collector runs while
    // the host pushes values (outside any call) is stopped at its first hook.
    if (st->calls > 0 && --st->calls == 0) st->budget = 0;
}

void pekit_charge(lua_State *L, long long steps) {
    if (interrupted()) stop(L, "interrupted");
    pekit_alloc_state *st = alloc_state(L);
    if (st->budgeted) {
        st->budget -= steps;
        if (spent(st)) stop_spent(L, st);
    }
}

// ---- Metering the standard library in a budgeted state ----
// The hook counts VM instructions, but one instruction that calls a C function can do any amount
// of work: string.rep("x", 3e7) makes 30 MB, table.insert(t, 1, v) moves every item,
// table.move(a, 1, 1e9, 2) walks a billion slots. In a plugin's state these functions are
// wrapped: each call is charged one step, what it scans (by the kind below) before it runs, and
// a step for every PEKIT_BYTES_PER_STEP bytes it made after; the wall clock is read then too.
enum { SCAN_NONE, SCAN_STRING, SCAN_TABLE, SCAN_SORT, SCAN_COUNT, SCAN_RANGE };

static long long scan_cost(lua_State *L, int kind) {
    switch (kind) {
    case SCAN_STRING:  // the subject string's bytes
        return lua_type(L, 1) == LUA_TSTRING ? (long long)(lua_rawlen(L, 1) / PEKIT_BYTES_PER_STEP) : 0;
    case SCAN_TABLE:   // the list's items (insert and remove shift them, concat reads them)
        return lua_type(L, 1) == LUA_TTABLE ? (long long)lua_rawlen(L, 1) : 0;
    case SCAN_SORT: {  // n log n comparisons
        long long n = lua_type(L, 1) == LUA_TTABLE ? (long long)lua_rawlen(L, 1) : 0, log = 1;
        for (long long k = n; k > 1; k >>= 1) log++;
        return n * log;
    }
    case SCAN_COUNT: {  // string.rep of an empty string (and separator) loops its count, making nothing
        int ok = 0;
        lua_Integer n = lua_tointegerx(L, 2, &ok);
        if (!ok || n <= 0 || lua_type(L, 1) != LUA_TSTRING || lua_rawlen(L, 1) > 0) return 0;
        if (lua_type(L, 3) == LUA_TSTRING && lua_rawlen(L, 3) > 0) return 0;
        return (long long)n;  // a non-empty one makes its count's bytes at least, charged as made
    }
    case SCAN_RANGE: {  // table.move(a, f, e, ...): every slot from f to e
        int ok1 = 0, ok2 = 0;
        lua_Integer f = lua_tointegerx(L, 2, &ok1), e = lua_tointegerx(L, 3, &ok2);
        if (!ok1 || !ok2 || e < f) return 0;
        lua_Unsigned span = (lua_Unsigned)e - (lua_Unsigned)f;
        return span > (lua_Unsigned)LLONG_MAX ? LLONG_MAX : (long long)span + 1;
    }
    default: return 0;
    }
}

static int metered(lua_State *L) {
    lua_CFunction f = lua_tocfunction(L, lua_upvalueindex(1));
    int kind = (int)lua_tointeger(L, lua_upvalueindex(2));
    pekit_alloc_state *st = alloc_state(L);
    long long cost = scan_cost(L, kind);
    pekit_charge(L, 1 + (cost < LLONG_MAX - 1 ? cost : LLONG_MAX - 1));
    unsigned long long made = st->made;
    // The function runs in this call's frame: its arguments are where it expects them, and it
    // uses no upvalues of its own (pekit_meter_library wraps only such functions).
    int n = f(L);
    unsigned long long grown = st->made - made;
    if (grown >= PEKIT_BYTES_PER_STEP) pekit_charge(L, (long long)(grown / PEKIT_BYTES_PER_STEP));
    return n;
}

static void meter(lua_State *L, const char *library, const char *name, int kind) {
    if (!library) lua_pushglobaltable(L);
    else if (lua_getglobal(L, library) != LUA_TTABLE) { lua_pop(L, 1); return; }
    int table = lua_gettop(L);
    lua_getfield(L, table, name);
    lua_CFunction f = lua_tocfunction(L, -1);
    int has_upvalues = lua_getupvalue(L, -1, 1) != NULL;
    if (has_upvalues) lua_pop(L, 1);
    lua_pop(L, 1);
    if (f && !has_upvalues) {
        lua_pushcfunction(L, f);
        lua_pushinteger(L, kind);
        lua_pushcclosure(L, metered, 2);
        lua_setfield(L, table, name);
    }
    lua_pop(L, 1);
}

void pekit_meter_library(lua_State *L) {
    static const struct { const char *library, *name; int kind; } rows[] = {
        {"string", "find", SCAN_STRING}, {"string", "match", SCAN_STRING}, {"string", "gmatch", SCAN_STRING},
        {"string", "gsub", SCAN_STRING}, {"string", "rep", SCAN_COUNT}, {"string", "byte", SCAN_NONE},
        {"string", "sub", SCAN_NONE}, {"string", "upper", SCAN_NONE}, {"string", "lower", SCAN_NONE},
        {"string", "reverse", SCAN_NONE}, {"string", "format", SCAN_NONE}, {"string", "pack", SCAN_NONE},
        {"string", "unpack", SCAN_STRING}, {"string", "char", SCAN_NONE},
        {"table", "insert", SCAN_TABLE}, {"table", "remove", SCAN_TABLE}, {"table", "sort", SCAN_SORT},
        {"table", "concat", SCAN_TABLE}, {"table", "unpack", SCAN_NONE}, {"table", "move", SCAN_RANGE},
        {"utf8", "len", SCAN_STRING}, {"utf8", "codepoint", SCAN_NONE}, {"utf8", "offset", SCAN_STRING},
        {"utf8", "char", SCAN_NONE},
        {NULL, "tostring", SCAN_NONE}, {NULL, "tonumber", SCAN_STRING},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) meter(L, rows[i].library, rows[i].name, rows[i].kind);
}

// The SIGINT handler before pekit_catch_interrupts (the CLI's, which removes temporary files).
static void (*previous_sigint)(int) = SIG_DFL;

// ---- Watched states ----
// A count hook makes Lua hand every instruction to the debug hook (measured: a loop of
// arithmetic runs 2 to 2.6 times slower, in plain lua5.4 as in pekit), so a state without a
// budget runs with none and is given one when Ctrl-C comes, as lua.c does. A hook belongs to one
// thread, so the handler must know which thread of the state runs Lua code: coroutine.resume,
// coroutine.wrap (pekit_watch_coroutines) and pekit's task scheduler (pekit_running_begin/end)
// say so as they switch. lua_sethook may be called asynchronously (the manual says so, and
// lua.c does); what the handler reads of a state is kept alive until it is done:
// handlers_active holds back a state's close and a thread's release.
#define WATCH_SLOTS 64
static _Atomic(pekit_alloc_state *) watched[WATCH_SLOTS];
static atomic_int handlers_active = 0;

static void wait_for_handlers(void) {
    while (atomic_load(&handlers_active) > 0) { }
}

static int watch(pekit_alloc_state *st) {
    for (int i = 0; i < WATCH_SLOTS; i++) {
        pekit_alloc_state *expected = NULL;
        if (atomic_compare_exchange_strong(&watched[i], &expected, st)) { st->slot = i; return 1; }
    }
    return 0;
}

static void unwatch(pekit_alloc_state *st) {
    if (st->slot < 0) return;
    atomic_store(&watched[st->slot], NULL);
    st->slot = -1;
    wait_for_handlers();
}

lua_State *pekit_running_begin(lua_State *co) {
    pekit_alloc_state *st = alloc_state(co);
    if (st->slot < 0) return NULL;
    return atomic_exchange(&st->running, co);
}

void pekit_running_end(lua_State *co, lua_State *previous) {
    pekit_alloc_state *st = alloc_state(co);
    if (st->slot < 0) return;
    atomic_store(&st->running, previous);
    // A handler that read `co` may still be setting its hook: wait, so `co` outlives that.
    wait_for_handlers();
    // Ctrl-C stopped the coroutine (or came as it finished): stop the thread that resumed it too.
    if (interrupted()) lua_sethook(previous ? previous : st->main, pekit_hook, LUA_MASKCOUNT, 1);
}

// Calls upvalue 1 (Lua's coroutine.resume, or a function its coroutine.wrap made) with this
// call's arguments, `co` said to be the running thread meanwhile; leaves the results or the error
// on the stack and returns the lua_pcall status.
static int call_running(lua_State *L, lua_State *co) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_State *previous = pekit_running_begin(co);
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    pekit_running_end(co, previous);
    return status;
}

// coroutine.resume in a watched state: upvalue 1 is the original.
static int watched_resume(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTHREAD);  // here, so the message names coroutine.resume
    if (call_running(L, lua_tothread(L, 1)) != LUA_OK) return lua_error(L);
    return lua_gettop(L);
}

// A function made by coroutine.wrap in a watched state: upvalue 1 is the original's function,
// upvalue 2 its coroutine.
static int watched_wrap_call(lua_State *L) {
    // The original names its caller's line in a string error, but its caller is this C
    // function now, which has none: name the script's, as it would have.
    if (call_running(L, lua_tothread(L, lua_upvalueindex(2))) != LUA_OK) return pekit_raise_here(L);
    return lua_gettop(L);
}

// Whether the function on top, made by Lua's coroutine.wrap, holds its coroutine as upvalue 1
// (as Lua 5.4's does); pushes it (or nil).
static int push_wrapped_coroutine(lua_State *L) {
    if (lua_getupvalue(L, -1, 1) == NULL) { lua_pushnil(L); return 0; }
    if (lua_type(L, -1) == LUA_TTHREAD) return 1;
    lua_pop(L, 1);
    lua_pushnil(L);
    return 0;
}

// coroutine.wrap in a watched state: upvalue 1 is the original.
static int watched_wrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);  // here, so the message names coroutine.wrap
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 1, 1);
    if (!push_wrapped_coroutine(L)) { lua_pop(L, 1); return 1; }  // checked when installed; never here
    lua_pushcclosure(L, watched_wrap_call, 2);
    return 1;
}

static int no_op(lua_State *L) { (void)L; return 0; }

int pekit_watch_coroutines(lua_State *L) {
    pekit_alloc_state *st = alloc_state(L);
    if (st->slot < 0 || st->budgeted) return 0;
    if (lua_getglobal(L, "coroutine") != LUA_TTABLE) { lua_pop(L, 1); return 0; }
    lua_getfield(L, -1, "wrap");
    lua_pushcfunction(L, no_op);
    lua_call(L, 1, 1);
    int knows = push_wrapped_coroutine(L);
    lua_pop(L, 2);
    if (!knows) {
        // A coroutine library that does not keep the coroutine where Lua 5.4's does: its
        // threads could not be found, so the state keeps a hook, as a budgeted one does.
        unwatch(st);
        lua_sethook(L, pekit_hook, LUA_MASKCOUNT, PEKIT_HOOK_PERIOD);
        lua_pop(L, 1);
        return 0;
    }
    lua_getfield(L, -1, "resume");
    lua_pushcclosure(L, watched_resume, 1);
    lua_setfield(L, -2, "resume");
    lua_getfield(L, -1, "wrap");
    lua_pushcclosure(L, watched_wrap, 1);
    lua_setfield(L, -2, "wrap");
    lua_pop(L, 1);
    return 1;
}

static void hook_running_threads(void) {
    atomic_fetch_add(&handlers_active, 1);
    for (int i = 0; i < WATCH_SLOTS; i++) {
        pekit_alloc_state *st = atomic_load(&watched[i]);
        if (!st) continue;
        lua_State *running = atomic_load(&st->running);
        if (running && running != st->main) lua_sethook(running, pekit_hook, LUA_MASKCOUNT, 1);
        lua_sethook(st->main, pekit_hook, LUA_MASKCOUNT, 1);
    }
    atomic_fetch_sub(&handlers_active, 1);
}

static void on_sigint(int sig) {
    // As lua.c: a second Ctrl-C while the first is pending ends the process, through the
    // handler that was there before (so temporary files are still removed).
    signal(sig, previous_sigint);
    atomic_store(&interrupt_pending, 1);
    hook_running_threads();
}

void pekit_catch_interrupts(void) {
    atomic_store(&interrupt_pending, 0);
    atomic_store(&catching_interrupts, 1);
    void (*was)(int) = signal(SIGINT, on_sigint);
    if (was != on_sigint && was != SIG_ERR) previous_sigint = was;
}

void pekit_release_interrupts(void) {
    atomic_store(&catching_interrupts, 0);
    signal(SIGINT, previous_sigint);
}

int pekit_interrupt_pending(void) { return atomic_load(&interrupt_pending); }

