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

// ---- The allocator: a memory cap that applies only while Lua code runs ----
/// A new state whose allocations are counted; `limit` bytes (0 = none) are enforced while
/// `pekit_enforce_memory` is on. Returns NULL when the state cannot be created.
lua_State *pekit_newstate(size_t limit);
/// Turns the cap on (Lua running) or off (host pushes); returns the previous setting.
int pekit_enforce_memory(lua_State *L, int on);
void pekit_set_memory_limit(lua_State *L, size_t limit);
size_t pekit_memory_limit(lua_State *L);
size_t pekit_memory_used(lua_State *L);
/// Keeps large blocks (up to 32 MB) in the heap rather than an mmap each: scripts make and drop
/// large strings in loops, and a fresh mapping costs a page fault per page. Process-wide, so the
/// CLI calls it, not the library.
void pekit_tune_malloc(void);
/// Closes the state and frees the allocator's bookkeeping.
void pekit_close(lua_State *L);

// ---- Calling Swift from Lua ----
/// What a Swift function returns to raise the error value it pushed.
#define PEKIT_RAISE (-1)
typedef int (*pekit_dispatch_fn)(lua_State *L, void *context);
/// The one Swift entry point every exposed function goes through (set once at start-up).
void pekit_set_dispatcher(pekit_dispatch_fn fn);
/// Pushes a Lua function that calls the dispatcher with `context` (a retained Swift box).
void pekit_push_swift_function(lua_State *L, void *context);

// ---- Calling Lua from Swift ----
/// lua_pcall with a message handler that adds a traceback to string errors. Never raises.
int pekit_pcall_traceback(lua_State *L, int nargs, int nresults);
/// lua_pcall with no message handler (the error value is returned as it is).
int pekit_pcall(lua_State *L, int nargs, int nresults);
/// Converts the value at `i` with tostring semantics (calling __tostring) under protection;
/// pushes the string, or the error message and returns nonzero.
int pekit_tostring(lua_State *L, int i);

// ---- Limits for plugins and scripts ----
/// Raises "instruction budget exceeded" once `count` VM instructions have run (0 clears).
void pekit_set_instruction_budget(lua_State *L, int count);
/// Installs a SIGINT handler that stops the running Lua code with "interrupted" (as lua.c does).
void pekit_catch_interrupts(lua_State *L);
/// Restores the default SIGINT behaviour.
void pekit_release_interrupts(void);
/// Whether Ctrl-C came since `pekit_catch_interrupts` (polled by transfers that run outside Lua).
int pekit_interrupt_pending(void);
#endif
