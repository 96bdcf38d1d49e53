// jar:receive's `stored` list, whose cookie tables are made when the list is first read. A
// crawler calls receive for every response and most often never reads what it stored; a
// table and its strings for each cookie were then a third of what receiving cost, and the
// garbage they made slowed every collection. The cookies wait as packed records in a
// userdata; the first read of any kind (index, length, pairs, next, assignment, a metatable
// call, inspect, a conversion to a value) makes every table at once, and the list is a plain
// table from then on.
#include "CLuaShim.h"
#include <stdlib.h>
#include <string.h>

// Registry keys (their addresses; each state has its own registry).
static const char list_meta_key = 0;     // the metatable of a list not yet read
static const char pending_key = 0;       // weak-keyed: list -> its records

// One cookie's record: this head, then the bytes of name, value, domain, path, same_site and
// partition_key.
typedef struct {
    double creation, last_access, expires;
    size_t lengths[6];
    unsigned char has_expires, host_only, secure, http_only, partitioned;
} record_head;

int pekit_cookie_records_append(pekit_cookie_records *records, const pekit_cookie_fields *c) {
    size_t size = sizeof(record_head) + c->name.length + c->value.length + c->domain.length + c->path.length + c->same_site.length
        + c->partition_key.length;
    if (records->capacity - records->used < size) {
        size_t capacity = records->capacity ? records->capacity : 4096;
        while (capacity - records->used < size) {
            if (capacity > SIZE_MAX / 2) return 0;
            capacity *= 2;
        }
        unsigned char *grown = realloc(records->bytes, capacity);
        if (!grown) return 0;
        records->bytes = grown;
        records->capacity = capacity;
    }
    unsigned char *out = records->bytes + records->used;
    records->used += size;
    records->count += 1;
    record_head head = {
        c->creation, c->last_access, c->expires,
        { c->name.length, c->value.length, c->domain.length, c->path.length, c->same_site.length, c->partition_key.length },
        (unsigned char)c->has_expires, (unsigned char)c->host_only, (unsigned char)c->secure,
        (unsigned char)c->http_only, (unsigned char)c->partitioned,
    };
    memcpy(out, &head, sizeof head);
    out += sizeof head;
    const pekit_span spans[6] = { c->name, c->value, c->domain, c->path, c->same_site, c->partition_key };
    for (int i = 0; i < 6; i++) {
        if (spans[i].length) memcpy(out, spans[i].bytes, spans[i].length);
        out += spans[i].length;
    }
    return 1;
}

void pekit_cookie_records_free(pekit_cookie_records *records) {
    free(records->bytes);
    *records = (pekit_cookie_records){ 0 };
}

// Makes the cookie tables of the list at `t` (absolute) if it has not been read yet; then it is
// a plain table.
static void settle(lua_State *L, int t) {
    if (!lua_getmetatable(L, t)) return;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &list_meta_key);
    int ours = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    if (!ours) return;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &pending_key);
    lua_pushvalue(L, t);
    lua_rawget(L, -2);
    // The records stay on the stack (alive) while the tables are made from them.
    size_t size = lua_rawlen(L, -1);
    const unsigned char *at = lua_touserdata(L, -1);
    if (at && size >= sizeof(lua_Integer)) {
        lua_Integer count;
        memcpy(&count, at, sizeof count);
        at += sizeof count;
        for (lua_Integer i = 1; i <= count; i++) {
            record_head head;
            memcpy(&head, at, sizeof head);
            at += sizeof head;
            pekit_span spans[6];
            for (int k = 0; k < 6; k++) { spans[k].bytes = (const char *)at; spans[k].length = head.lengths[k]; at += head.lengths[k]; }
            pekit_cookie_fields fields = {
                spans[0], spans[1], spans[2], spans[3], spans[4], spans[5],
                head.creation, head.last_access, head.expires,
                head.has_expires, head.host_only, head.secure, head.http_only, head.partitioned,
            };
            pekit_push_cookie(L, &fields);
            lua_rawseti(L, t, i);
        }
    }
    lua_pop(L, 1);
    lua_pushvalue(L, t);
    lua_pushnil(L);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_setmetatable(L, t);
}

void pekit_cookie_list_settle(lua_State *L, int index) {
    if (lua_type(L, index) == LUA_TTABLE) settle(L, lua_absindex(L, index));
}

static int list_next(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

// Also the `pekit` table's __pairs walker: the global `next` may have been replaced or removed.
void pekit_push_next(lua_State *L) { lua_pushcfunction(L, list_next); }

static int list_pairs(lua_State *L) {
    settle(L, 1);
    lua_pushcfunction(L, list_next);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

// For the prelude's next, getmetatable, setmetatable, raw access and inspect: settles a list
// not read yet, and does nothing to any other value.
static int list_settle(lua_State *L) {
    pekit_cookie_list_settle(L, 1);
    return 0;
}

// The base library's raw functions and metatable functions, the same but for making a list
// first: their checks and errors are the base library's (as C functions, errors name them).
static int settled_rawget(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    settle(L, 1);
    lua_settop(L, 2);
    lua_rawget(L, 1);
    return 1;
}

static int settled_rawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    settle(L, 1);
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

static int settled_rawlen(lua_State *L) {
    int t = lua_type(L, 1);
    luaL_argexpected(L, t == LUA_TTABLE || t == LUA_TSTRING, 1, "table or string");
    if (t == LUA_TTABLE) settle(L, 1);
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
    return 1;
}

static int settled_getmetatable(lua_State *L) {
    luaL_checkany(L, 1);
    if (lua_type(L, 1) == LUA_TTABLE) settle(L, 1);
    if (!lua_getmetatable(L, 1)) {
        lua_pushnil(L);
        return 1;
    }
    luaL_getmetafield(L, 1, "__metatable");
    return 1;
}

static int settled_setmetatable(lua_State *L) {
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    settle(L, 1);
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

void pekit_open_cookie_lists(lua_State *L) {
    static const luaL_Reg methods[] = {
        // A list's reads and writes are the raw ones once it is made, as on any table.
        {"__index", settled_rawget}, {"__newindex", settled_rawset}, {"__len", settled_rawlen}, {"__pairs", list_pairs}, {NULL, NULL},
    };
    lua_createtable(L, 0, 4);
    luaL_setfuncs(L, methods, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &list_meta_key);
    lua_createtable(L, 0, 0);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &pending_key);
    // The prelude's handles: {pending = the weak table, settle = function(t), globals = {…}}.
    lua_createtable(L, 0, 3);
    lua_insert(L, -2);
    lua_setfield(L, -2, "pending");
    lua_pushcfunction(L, list_settle);
    lua_setfield(L, -2, "settle");
    static const luaL_Reg globals[] = {
        {"rawget", settled_rawget}, {"rawset", settled_rawset}, {"rawlen", settled_rawlen},
        {"getmetatable", settled_getmetatable}, {"setmetatable", settled_setmetatable}, {NULL, NULL},
    };
    lua_createtable(L, 0, 5);
    luaL_setfuncs(L, globals, 0);
    lua_setfield(L, -2, "globals");
}

void pekit_push_cookie_list(lua_State *L, const pekit_cookie_records *records) {
    lua_createtable(L, 0, 0);
    lua_Integer count = records->count;
    if (count == 0) return;
    unsigned char *data = lua_newuserdatauv(L, sizeof count + records->used, 0);
    memcpy(data, &count, sizeof count);
    memcpy(data + sizeof count, records->bytes, records->used);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &pending_key);
    lua_pushvalue(L, -3);
    lua_pushvalue(L, -3);
    lua_rawset(L, -3);
    lua_pop(L, 2);
    lua_rawgetp(L, LUA_REGISTRYINDEX, &list_meta_key);
    lua_setmetatable(L, -2);
}
