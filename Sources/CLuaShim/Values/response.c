// The response table of pekit.http, built in C: Swift gives the parts (pointers into its own
// strings and body, no copies) and this makes the table in one call, with literal field names
// (lua_setfield finds a literal in Lua's string cache; a Swift string would be hashed and
// interned on every response).
#include "CLuaShim.h"
#include <string.h>

// "ip:port", or "[ip]:port" for an IPv6 address (which holds colons).
static void push_address(lua_State *L, pekit_span ip, long long port) {
    char buffer[128];
    size_t n = 0, length = ip.length < 96 ? ip.length : 96;
    int bracket = length > 0 && memchr(ip.bytes, ':', length) != NULL;
    if (bracket) buffer[n++] = '[';
    if (length) memcpy(buffer + n, ip.bytes, length);
    n += length;
    if (bracket) buffer[n++] = ']';
    buffer[n++] = ':';
    char digits[24];
    size_t d = 0;
    unsigned long long value = port < 0 ? 0 : (unsigned long long)port;
    do { digits[d++] = (char)('0' + value % 10); value /= 10; } while (value && d < sizeof digits);
    if (port < 0) buffer[n++] = '-';
    while (d) buffer[n++] = digits[--d];
    lua_pushlstring(L, buffer, n);
}

void pekit_push_response(lua_State *L, const pekit_response_fields *r, int room) {
    lua_createtable(L, 0, 10 + room);
    lua_pushinteger(L, r->status); lua_setfield(L, -2, "status");
    pekit_set_span(L, "reason", r->reason);
    pekit_set_span(L, "http_version", r->http_version);
    pekit_set_span(L, "url", r->url);
    pekit_set_span(L, "method", r->method);
    pekit_set_span(L, "body", r->body);
    lua_pushinteger(L, r->bytes); lua_setfield(L, -2, "bytes");
    push_address(L, r->remote_address, r->remote_port); lua_setfield(L, -2, "address");
    lua_createtable(L, 0, 5);
    lua_pushnumber(L, r->dns); lua_setfield(L, -2, "dns");
    lua_pushnumber(L, r->connect); lua_setfield(L, -2, "connect");
    lua_pushnumber(L, r->tls); lua_setfield(L, -2, "tls");
    lua_pushnumber(L, r->first_byte); lua_setfield(L, -2, "first_byte");
    lua_pushnumber(L, r->total); lua_setfield(L, -2, "total");
    lua_setfield(L, -2, "timing");
    lua_pushinteger(L, r->attempts); lua_setfield(L, -2, "attempts");
}

void pekit_push_pair(lua_State *L, lua_Integer n, const char *name, size_t name_length, const char *value, size_t value_length) {
    lua_createtable(L, 2, 0);
    lua_pushlstring(L, name_length ? name : "", name_length);
    lua_rawseti(L, -2, 1);
    lua_pushlstring(L, value_length ? value : "", value_length);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, n);
}
