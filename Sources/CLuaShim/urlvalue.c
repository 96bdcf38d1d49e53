// Reading a field of a pekit.url value without entering Swift. A URL value is a userdata that
// starts with the byte range of each field in its href (the userdata's first user value, a Lua
// string), filled by Swift when the value is made or changed; `u.href` or `u.host` is then a
// lookup and a lua_pushlstring, as fast as reading a table. Anything else (query, methods,
// a field that is not a range of the href, errors) goes to the Swift function given as the
// fallback, so every rule about URLs stays in Swift.
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

// __index: upvalue 1 is the URL metatable, upvalue 2 the Swift fallback.
static int url_index(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING && lua_getmetatable(L, 1)) {
        int is_url = lua_rawequal(L, -1, lua_upvalueindex(1));
        lua_pop(L, 1);
        size_t length;
        const char *key = lua_tolstring(L, 2, &length);
        int field = is_url ? pekit_url_field(key, length) : -1;
        // The size is checked too: debug.setmetatable can give this metatable to any userdata.
        if (lua_type(L, 1) != LUA_TUSERDATA || lua_rawlen(L, 1) < sizeof(pekit_url_range) * PEKIT_URL_FIELDS) field = -1;
        if (field >= 0) {
            const pekit_url_range *range = (const pekit_url_range *)lua_touserdata(L, 1) + field;
            if (range->start != PEKIT_URL_NO_RANGE && lua_getiuservalue(L, 1, 1) == LUA_TSTRING) {
                size_t href_length;
                const char *href = lua_tolstring(L, -1, &href_length);
                if (range->start == 0 && range->end == href_length) return 1;  // the href itself
                if (range->start <= range->end && range->end <= href_length) {
                    lua_pushlstring(L, href + range->start, range->end - range->start);
                    return 1;
                }
            }
            lua_settop(L, 2);
        }
    }
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_insert(L, 1);
    if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
        // The fallback's error names no place (its caller is this C function): name the
        // script's line, as a call from the script to Swift would.
        if (lua_type(L, -1) == LUA_TSTRING) {
            luaL_where(L, 1);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        return lua_error(L);
    }
    return 1;
}

void pekit_push_url_index(lua_State *L) {
    lua_pushcclosure(L, url_index, 2);
}
