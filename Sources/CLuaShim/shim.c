#include <stdatomic.h>
#include "CLuaShim.h"
#include <malloc.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

// ---- Allocator ----
typedef struct {
    size_t used;
    size_t limit;
    int enforce;
} pekit_alloc_state;

static void *pekit_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    pekit_alloc_state *st = (pekit_alloc_state *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        st->used -= old;
        free(ptr);
        return NULL;
    }
    // Shrinking never fails (the manual requires it); growing past the cap fails only while Lua runs.
    if (nsize > old && st->enforce && st->limit && st->used - old + nsize > st->limit) return NULL;
    void *p = realloc(ptr, nsize);
    if (p) st->used = st->used - old + nsize;
    return p;
}

lua_State *pekit_newstate(size_t limit) {
    pekit_alloc_state *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->limit = limit;
    lua_State *L = lua_newstate(pekit_alloc, st);
    if (!L) { free(st); return NULL; }
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

void pekit_tune_malloc(void) {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

void pekit_close(lua_State *L) {
    pekit_alloc_state *st = alloc_state(L);
    lua_close(L);
    free(st);
}

// ---- Trampoline ----
// Atomic: runtimes are created on any thread (ThreadSanitizer found the plain global racing).
static _Atomic(pekit_dispatch_fn) dispatcher = NULL;
void pekit_set_dispatcher(pekit_dispatch_fn fn) { atomic_store_explicit(&dispatcher, fn, memory_order_release); }

static int pekit_trampoline(lua_State *L) {
    void *context = lua_touserdata(L, lua_upvalueindex(1));
    // Host pushes run with the cap relaxed: an allocation failure inside an API call made from
    // Swift would raise through Swift frames.
    int previous = pekit_enforce_memory(L, 0);
    pekit_dispatch_fn dispatch = atomic_load_explicit(&dispatcher, memory_order_acquire);
    int n = dispatch ? dispatch(L, context) : (lua_pushliteral(L, "pekit: no dispatcher"), PEKIT_RAISE);
    pekit_enforce_memory(L, previous);
    if (n == PEKIT_RAISE) {  // the Swift frames are gone now
        if (lua_type(L, -1) == LUA_TSTRING) {  // name the caller's line, as luaL_error does
            luaL_where(L, 1);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        return lua_error(L);
    }
    return n;
}

void pekit_push_swift_function(lua_State *L, void *context) {
    lua_pushlightuserdata(L, context);
    lua_pushcclosure(L, pekit_trampoline, 1);
}

// ---- Protected calls ----
static int msghandler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
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
    return lua_pcall(L, 1, 1, 0);
}

// ---- Limits ----
static void budget_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    // Keep firing at every instruction, so code that catches the error with pcall cannot go on;
    // the host restores the previous hook when its protected call returns.
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
    luaL_error(L, "instruction budget exceeded (an endless loop?)");
}

void pekit_set_instruction_budget(lua_State *L, int count) {
    if (count > 0) lua_sethook(L, budget_hook, LUA_MASKCOUNT, count);
    else lua_sethook(L, NULL, 0, 0);
}

// Process-wide, like the signal: the state running code most recently is the one interrupted.
// Lock-free atomics, so both the signal handler and runtimes on other threads may touch them.
static _Atomic(lua_State *) interrupted_state = NULL;
static atomic_int interrupt_pending = 0;

static void interrupt_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    // Stays set (every instruction), so a pcall in the script cannot swallow the interrupt.
    lua_sethook(L, interrupt_hook, LUA_MASKCOUNT, 1);
    luaL_error(L, "interrupted");
}

static void on_sigint(int sig) {
    // As lua.c: a second Ctrl-C while the hook is pending kills the process the default way.
    signal(sig, SIG_DFL);
    atomic_store(&interrupt_pending, 1);
    lua_State *L = atomic_load(&interrupted_state);
    if (L)
        lua_sethook(L, interrupt_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

void pekit_catch_interrupts(lua_State *L) {
    atomic_store(&interrupt_pending, 0);
    atomic_store(&interrupted_state, L);
    signal(SIGINT, on_sigint);
}

void pekit_release_interrupts(void) {
    atomic_store(&interrupted_state, NULL);
    signal(SIGINT, SIG_DFL);
}

int pekit_interrupt_pending(void) { return atomic_load(&interrupt_pending); }
