// Reading a field of a pekit.url value without the Lua-to-Swift trampoline. A URL value is a
// userdata of the offsets the URL is made from, with its href (a Lua string) as user value 1;
// `u.href` or `u.host` is a plain C call to Swift for the field's range (the ranger, which
// alone knows the offsets' layout and rules) and a lua_pushlstring. Ranges are asked for when a
// field is read, not stored when a value is made: most values have one or two fields read, and
// storing all eleven cost more than a parse's tenth. Anything else (query, methods, a field
// that is not a range of the href, errors) goes to the Swift function given as the fallback.
#include "CLuaShim.h"
#include <string.h>

static const char *const field_names[PEKIT_URL_FIELDS] = {
    "href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"
};

int pekit_url_field(const char *name, size_t length) {
    for (int i = 0; i < PEKIT_URL_FIELDS; i++) {
        if (strlen(field_names[i]) == length && memcmp(field_names[i], name, length) == 0) return i;
    }
    return -1;
}

// Calls upvalue 2, the Swift function, with this call's arguments and returns what it returns.
static int call_fallback(lua_State *L) {
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_insert(L, 1);
    // The fallback's error names no place (its caller is this C function): name the script's
    // line, as a call from the script to Swift would.
    if (lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0) != LUA_OK) return pekit_raise_here(L);
    return lua_gettop(L);
}

// __index: upvalue 1 is the URL metatable, upvalue 2 the Swift fallback, upvalue 3 the ranger,
// upvalue 4 the size of a URL value.
static int url_index(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING && lua_type(L, 1) == LUA_TUSERDATA && lua_getmetatable(L, 1)) {
        // The size is checked too: debug.setmetatable can give this metatable to any userdata.
        int is_url = lua_rawequal(L, -1, lua_upvalueindex(1)) && lua_rawlen(L, 1) == (size_t)lua_tointeger(L, lua_upvalueindex(4));
        lua_pop(L, 1);
        size_t length;
        const char *key = lua_tolstring(L, 2, &length);
        int field = is_url ? pekit_url_field(key, length) : -1;
        if (field >= 0 && lua_getiuservalue(L, 1, 1) == LUA_TSTRING) {
            size_t href_length;
            const char *href = lua_tolstring(L, -1, &href_length);
            if (field == 0) return 1;  // "href": the user value itself
            pekit_url_ranger ranger = (pekit_url_ranger)lua_touserdata(L, lua_upvalueindex(3));
            pekit_url_range range;
            // The ranger checks the offsets, which a forged value's memory need not hold.
            if (ranger(lua_touserdata(L, 1), href_length, field, &range)) {
                if (range.start == 0 && range.end == href_length) return 1;  // the href itself
                if (range.start <= range.end && range.end <= href_length) {
                    lua_pushlstring(L, href + range.start, range.end - range.start);
                    return 1;
                }
            }
        }
        lua_settop(L, 2);
    }
    return call_fallback(L);
}

// pekit.url.parse: upvalue 1 is the Swift parser for one string argument, upvalue 2 the Swift
// function that does everything (a base, other arguments, the message for an invalid URL).
static int url_parse(lua_State *L) {
    if (lua_type(L, 1) == LUA_TSTRING && lua_isnoneornil(L, 2) && lua_gettop(L) <= 2) {
        size_t length;
        const char *input = lua_tolstring(L, 1, &length);
        pekit_url_parser parser = (pekit_url_parser)lua_touserdata(L, lua_upvalueindex(1));
        // As for every call into Swift: its pushes are counted against the cap, not refused
        // (a refusal would raise through Swift frames); LuaRuntime.enter checks the cap after.
        int previous = pekit_enforce_memory(L, 0);
        int pushed = parser(L, input, length);
        pekit_enforce_memory(L, previous);
        if (pushed > 0) return 1;
        lua_settop(L, 1);  // not a URL, or past the cap: the Swift function says why (or raises the memory error)
    }
    return call_fallback(L);
}

void pekit_push_url_parse(lua_State *L, pekit_url_parser parser) {
    lua_pushlightuserdata(L, (void *)parser);
    lua_insert(L, -2);
    lua_pushcclosure(L, url_parse, 2);
}

void pekit_push_url_index(lua_State *L, pekit_url_ranger ranger, size_t size) {
    lua_pushlightuserdata(L, (void *)ranger);
    lua_pushinteger(L, (lua_Integer)size);
    lua_pushcclosure(L, url_index, 4);
}
