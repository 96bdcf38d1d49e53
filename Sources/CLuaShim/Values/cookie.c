// A cookie's table for pekit.cookies (jar:receive's results, jar:cookies, jar:all), built in
// C in one call: the field names are C literals, which Lua's string cache finds without hashing
// them again, and a received cookie's table is made for every Set-Cookie a script stores.
#include "CLuaShim.h"

static void set_flag(lua_State *L, const char *key, int flag) {
    lua_pushboolean(L, flag);
    lua_setfield(L, -2, key);
}

void pekit_push_cookie(lua_State *L, const pekit_cookie_fields *c) {
    lua_createtable(L, 0, 12);
    pekit_set_span(L, "name", c->name);
    pekit_set_span(L, "value", c->value);
    pekit_set_span(L, "domain", c->domain);
    pekit_set_span(L, "path", c->path);
    lua_pushnumber(L, c->creation); lua_setfield(L, -2, "creation");
    lua_pushnumber(L, c->last_access); lua_setfield(L, -2, "last_access");
    set_flag(L, "host_only", c->host_only);
    set_flag(L, "secure", c->secure);
    set_flag(L, "http_only", c->http_only);
    set_flag(L, "partitioned", c->partitioned);
    if (c->has_expires) { lua_pushnumber(L, c->expires); lua_setfield(L, -2, "expires"); }
    if (c->same_site.length) pekit_set_span(L, "same_site", c->same_site);
    if (c->partition_key.length) pekit_set_span(L, "partition_key", c->partition_key);
}
