#ifndef PEKIT_CLUASHIM_H
#define PEKIT_CLUASHIM_H
// The C side of pekit's Lua bridge. Swift never raises a Lua error (a longjmp through Swift
// frames leaks or corrupts memory): Swift functions return PEKIT_RAISE after pushing an error
// value, and the C trampoline here raises it once the Swift frames are gone.
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stddef.h>
#include <stdint.h>

// ---- Lua macros, one wrapper each (Swift cannot import function-like macros) ----
static inline int pekit_upvalueindex(int i) { return lua_upvalueindex(i); }              // lua_upvalueindex is a macro
static inline int pekit_registryindex(void) { return LUA_REGISTRYINDEX; }                 // expression macro Swift skips
static inline void pekit_pop(lua_State *L, int n) { lua_pop(L, n); }                      // lua_pop is lua_settop
static inline void pekit_newtable(lua_State *L) { lua_newtable(L); }                      // lua_newtable is lua_createtable
static inline void pekit_insert(lua_State *L, int i) { lua_insert(L, i); }                // lua_insert is lua_rotate
static inline void pekit_remove(lua_State *L, int i) { lua_remove(L, i); }                // lua_remove is lua_rotate + pop
static inline void pekit_replace(lua_State *L, int i) { lua_replace(L, i); }              // lua_replace is copy + pop
static inline int pekit_isnoneornil(lua_State *L, int i) { return lua_isnoneornil(L, i); } // type-test macro
static inline lua_Integer pekit_tointeger(lua_State *L, int i, int *isnum) { return lua_tointegerx(L, i, isnum); } // lua_tointeger is a macro
static inline lua_Number pekit_tonumber(lua_State *L, int i, int *isnum) { return lua_tonumberx(L, i, isnum); }    // lua_tonumber is a macro
static inline void *pekit_newuserdata(lua_State *L, size_t size) { return lua_newuserdatauv(L, size, 1); }   // lua_newuserdata is a macro
static inline int pekit_getmetatable_named(lua_State *L, const char *name) { return luaL_getmetatable(L, name); } // macro over lua_getfield
static inline void pekit_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }        // macro over lua_rawgeti
static inline void **pekit_extraspace(lua_State *L) { return (void **)lua_getextraspace(L); } // macro; threads inherit it
static inline const char *pekit_typename_at(lua_State *L, int i) { return luaL_typename(L, i); } // macro
static inline size_t pekit_gc_bytes(lua_State *L) { return (size_t)lua_gc(L, LUA_GCCOUNT) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB); } // lua_gc is variadic
// The collector's work for `kb` KB of new memory, done now (lua_gc is variadic); returns whether a cycle ended.
static inline int pekit_gc_step(lua_State *L, int kb) { return lua_gc(L, LUA_GCSTEP, kb); }
// A whole collection now (lua_gc is variadic): handles Lua no longer reaches release their Swift objects.
static inline void pekit_gc_collect(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }

// ---- The allocator: a memory cap that applies only while Lua code runs ----
/// A new state whose allocations are counted; `limit` bytes (0 = none) are enforced while
/// `pekit_enforce_memory` is on. A `budgeted` state (a plugin's) runs Lua code only within
/// `pekit_budget_begin`/`end`. Returns NULL when the state cannot be created.
lua_State *pekit_newstate(size_t limit, int budgeted);
/// Turns the cap on (Lua running) or off (host pushes); returns the previous setting.
int pekit_enforce_memory(lua_State *L, int on);
void pekit_set_memory_limit(lua_State *L, size_t limit);
size_t pekit_memory_limit(lua_State *L);
size_t pekit_memory_used(lua_State *L);
/// Keeps large blocks (up to 32 MB) in the heap rather than an mmap each: scripts make and drop
/// large strings in loops, and a fresh mapping costs a page fault per page. Process-wide, so the
/// CLI calls it, not the library.
void pekit_tune_malloc(void);
/// The bytes before a long string's characters in this Lua's string object, measured at the
/// first call (0 when it could not be: strings are then always copied).
size_t pekit_string_header(lua_State *L);
/// Room for a string of up to `capacity` bytes that Lua will own without copying it: write the
/// bytes at the pointer returned, then pekit_room_push. NULL when the string would be too small
/// for this to pay (PEKIT_POOL_MAX bytes or fewer), malloc fails, or this Lua's string layout
/// could not be measured; the caller then writes elsewhere and pushes a copy.
char *pekit_room_begin(lua_State *L, size_t capacity);
/// The smallest capacity pekit_room_begin gives room for (callers skip the call below it).
#define PEKIT_ROOM_MIN_CAPACITY 257
/// Pushes the first `length` bytes at `text` as a Lua string: the block itself when `text` is the
/// room pekit_room_begin gave (its unused end given back), a copy otherwise.
void pekit_room_push(lua_State *L, char *text, size_t length);
/// Closes the state and frees the allocator's bookkeeping.
void pekit_close(lua_State *L);

// ---- The prelude, precompiled ----
/// The prelude as Lua bytecode (Data/prelude.c, made by scripts/prelude-bytecode) if it was made from
/// `source`, the prelude's text; its length in `length`: 0 when it was made from another text,
/// or pekit is built against another release of Lua than the one that made it.
const char *pekit_prelude_bytecode(const char *source, size_t source_length, size_t *length);
/// The hash prelude.c records of the text it was made from.
uint64_t pekit_prelude_hash(const char *text, size_t length);

// ---- Calling Swift from Lua ----
/// What a Swift function returns to raise the error value it pushed.
#define PEKIT_RAISE (-1)
/// What a Swift function returns to suspend the coroutine it runs in (it leaves nothing on the
/// stack). The scheduler resumes it with `true, results…` (the call returns the results) or
/// `false, error` (the call raises the error).
#define PEKIT_YIELD (-2)
/// Stack slots every Swift function finds free when called (the trampoline grows the stack).
#define PEKIT_HOST_SLOTS 64
typedef int (*pekit_dispatch_fn)(lua_State *L, void *context);
/// The one Swift entry point every exposed function goes through (set once at start-up).
void pekit_set_dispatcher(pekit_dispatch_fn fn);
/// Pushes a Lua function that calls the dispatcher with `context` (a retained Swift box).
void pekit_push_swift_function(lua_State *L, void *context);
/// Pushes a C function that does what Lua's `next` does (for a `__pairs` that walks the table itself).
void pekit_push_next(lua_State *L);

// ---- Calling Lua from Swift ----
/// lua_pcall with a message handler that adds a traceback to string errors. Never raises.
int pekit_pcall_traceback(lua_State *L, int nargs, int nresults);
/// lua_pcall with no message handler (the error value is returned as it is).
int pekit_pcall(lua_State *L, int nargs, int nresults);
/// Raises the error value on top; a string is first prefixed with the calling script's line
/// (luaL_where at level 1), as luaL_error does. For a C function passing on the error of a
/// function it called, whose own message could name no line (its caller was C).
int pekit_raise_here(lua_State *L);
/// Replaces the error value on top with its text (unless it is a string already): its
/// __tostring, or for a table "error object: " and a readable dump, run protected and under the
/// state's memory cap. Never raises; returns nonzero when describing failed (the text says so).
int pekit_describe_error(lua_State *L);
/// Converts the value at `i` with tostring semantics (calling __tostring) under protection;
/// pushes the string, or the error message and returns nonzero.
int pekit_tostring(lua_State *L, int i);

/// Whether Swift code pushed the state past its memory cap during the call in progress (host
/// pushes are counted, not refused): the dispatcher then raises the memory error itself.
int pekit_memory_exceeded(lua_State *L);
/// Charges `bytes` that Swift work for the call in progress holds outside Lua (a tree being
/// built, an output buffer, a table about to be made at its full size) to the state's cap, as
/// it grows; returns nonzero when the state is now over its cap (the work should stop: the
/// dispatcher raises the memory error). The charge ends with the call.
int pekit_memory_charge(lua_State *L, size_t bytes);

// ---- Limits for plugins and scripts ----
// Every state made by pekit_newstate carries a count hook (every PEKIT_HOOK_PERIOD instructions)
// that every coroutine inherits. It charges one instruction budget shared by all the state's
// threads, so a coroutine cannot start a fresh one, and it stops the code on Ctrl-C; once either
// fires it fires at every instruction, so pcall and coroutine.resume cannot swallow it.
#define PEKIT_HOOK_PERIOD 1000
// A state without a budget has no hook while it runs (a count hook slows every instruction);
// it gets one when Ctrl-C comes, on the thread running Lua code then. These say which thread
// that is. pekit_watch_coroutines makes coroutine.resume and coroutine.wrap say it; call it
// once, after the standard libraries are open (returns 0 when the state keeps a hook instead).
int pekit_watch_coroutines(lua_State *L);
/// Before resuming `co` from C: returns what to give pekit_running_end after.
lua_State *pekit_running_begin(lua_State *co);
/// After the resume of `co` returned (and before `co` can be collected).
void pekit_running_end(lua_State *co, lua_State *previous);
/// In a budgeted state, starts a budget of `count` instructions (and pattern-matching steps)
/// for the call about to be made, unless a call is in progress (nested calls share the
/// outermost budget). Returns 1 when `pekit_budget_end` must follow, 0 for an unbudgeted state.
/// `nanoseconds` (0: none) bounds the outermost call's wall-clock time as well: past it the call
/// is stopped with "time limit exceeded" at the next hook, charge or return from a host call.
int pekit_budget_begin(lua_State *L, long long count, long long nanoseconds);
/// What is left of the budget of the call in progress (LLONG_MAX in an unbudgeted state), for
/// host work that charges its own steps (a JSONPath query's nodes).
long long pekit_budget_remaining(lua_State *L);
/// Charges `steps` of host work, never raising: returns nonzero when the budget is spent, the
/// time limit passed or Ctrl-C came (the work should stop; the trampoline raises when the host
/// function returns).
int pekit_budget_spend(lua_State *L, long long steps);
/// Whether the call's time limit passed or Ctrl-C came (never raises).
int pekit_budget_expired(lua_State *L);
/// In a budgeted state, after the standard libraries are open: wraps the library functions
/// whose one call can do unbounded work (string.rep, table.insert, table.move, …) so that each
/// call is charged what it scans and the bytes it makes.
void pekit_meter_library(lua_State *L);
/// Ends a call begun by `pekit_budget_begin`; after the outermost, the budget is spent.
void pekit_budget_end(lua_State *L);
/// Charges `steps` of C-level work (pattern matching) to the budget; raises "instruction budget
/// exceeded" or "interrupted" like the hook does. Only for C functions called from Lua.
void pekit_charge(lua_State *L, long long steps);
/// A wall-clock limit on the Lua code of a state without a budget (`pekit test --max-time`):
/// from now, `nanoseconds` (0: none). Past it, the code is stopped with `message` at the next
/// hook or return from a host call, and at every instruction after (a pcall cannot keep it
/// going), except the code of the chunk whose source is `exempt_source` (the host's harness,
/// which sets the next limit; NULL: none).
void pekit_time_limit(lua_State *L, long long nanoseconds, const char *message, const char *exempt_source);
/// The seconds left before the state's time limit (0 once it has passed), or -1 for no limit:
/// the one clock the host's waits (a sleep, a poll) and sends are cut to.
double pekit_time_limit_left(lua_State *L);
/// Installs a SIGINT handler; from now on Ctrl-C stops the Lua code running in any state (as
/// lua.c does, but also inside coroutines and pattern matching).
void pekit_catch_interrupts(void);
/// Restores the default SIGINT behaviour.
void pekit_release_interrupts(void);
/// Whether Ctrl-C came since `pekit_catch_interrupts` (polled by transfers that run outside Lua,
/// and by the host to tell an interruption from an error that merely says "interrupted").
int pekit_interrupt_pending(void);


// ---- Pattern matching that can be stopped ----
/// Replaces string.find, match, gmatch and gsub in the state's string table (the one the
/// string metatable indexes) with pekit's own matcher: Lua 5.4's pattern language, the same
/// results, but every matching step is charged to the budget and checks for Ctrl-C, so a
/// pathological pattern is stopped instead of running unbounded in C.
void pekit_open_patterns(lua_State *L);

/// Lua function (s, pattern) -> {start1, end1, start2, end2, ...}: where each match of the Lua
/// pattern in s starts and ends (1-based, inclusive), left to right as gsub finds them, counted
/// against the budget like every match. A pattern that matches the empty string is an error.
/// For `pekit.query.decode`'s `delimiter = {pattern = ...}`.
int pekit_pattern_ranges(lua_State *L);

// The table builders of URL, response and cookie values (Values/): CLuaShimValues.h.
#include "CLuaShimValues.h"
#endif
