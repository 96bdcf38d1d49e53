#ifndef PEKIT_CLUASHIM_VALUES_H
#define PEKIT_CLUASHIM_VALUES_H
// The values pekit's Lua modules hand to scripts, built in C (Sources/CLuaShim/Values/): each
// file here has one Swift owner in PekitLua, the module that calls it and the only one that may:
//   urlvalue.c     pekit.url's values and their fields  Modules/URLModule.swift
//   response.c     pekit.http's response table          Modules/HTTPModule.swift
//   cookie.c       pekit.cookies' cookie tables         Modules/CookiesModule+Values.swift
//   cookie_list.c  jar:receive's `stored` list          Modules/CookiesModule+Values.swift, CookieRecords.swift
// They are C for speed alone (literal field names Lua's string cache finds without hashing; no
// trampoline for a field read); what they build is what the Swift owner documents.
#include <lua.h>
#include <lauxlib.h>
#include <stddef.h>
#include <stdint.h>

// ---- pekit.url values (urlvalue.c) ----
// A URL value is a userdata holding what the host made it from (its spans) with the href as its
// user value 1; each field (href, origin, protocol, …, hash) is a range of the href or not one.
#define PEKIT_URL_FIELDS 11
typedef struct { uint32_t start, end; } pekit_url_range;
// Where field `field` (pekit_url_field's numbering) is in the href of `count` bytes of the URL
// value whose memory is `value` (its size already checked): 1 and `*range`, or 0 when that field
// is not a range of the href (or the offsets do not fit it, which a forged value's need not).
typedef int (*pekit_url_ranger)(const void *value, size_t count, int field, pekit_url_range *range);
// The index of a field name (href, origin, protocol, …, hash), or -1.
int pekit_url_field(const char *name, size_t length);
// Pops the URL metatable and the Swift fallback function (in that order, fallback on top) and
// pushes the __index function that reads ranges itself (asking `ranger` where they are) and
// calls the fallback for the rest. A URL value's userdata is `size` bytes; no other is read.
void pekit_push_url_index(lua_State *L, pekit_url_ranger ranger, size_t size);
// Parses the string `input` (`length` bytes) and pushes its URL value: 1; or pushes nothing and
// returns 0 for the fallback to answer (an invalid URL's message is the fallback's to write).
typedef int (*pekit_url_parser)(lua_State *L, const char *input, size_t length);
// Pops the Swift function for pekit.url.parse and pushes the C function that calls `parser`
// for a single string argument without the trampoline, and that function for everything else.
void pekit_push_url_parse(lua_State *L, pekit_url_parser parser);

// pekit.http's response table, one per request, built in one call: its field names are C
// literals, which Lua's string cache finds without hashing them again each time.
typedef struct { const char *bytes; size_t length; } pekit_span;
// Sets field `key` of the table at the top to the span's bytes (the text fields of both tables).
static inline void pekit_set_span(lua_State *L, const char *key, pekit_span span) {
    lua_pushlstring(L, span.length ? span.bytes : "", span.length);
    lua_setfield(L, -2, key);
}
typedef struct {
    long long status, bytes, attempts;
    pekit_span reason, http_version, url, method, body, remote_address;
    long long remote_port;
    double dns, connect, tls, first_byte, total;
} pekit_response_fields;
// Pushes a table with status, reason, http_version, url, method, body, bytes, address
// ("ip:port", "[ipv6]:port"), timing and attempts set; `room` more fields are made space for.
void pekit_push_response(lua_State *L, const pekit_response_fields *fields, int room);
// Sets item `n` of the table at the top to the pair {name, value}.
void pekit_push_pair(lua_State *L, lua_Integer n, const char *name, size_t name_length, const char *value, size_t value_length);

// A cookie's table (pekit.cookies), built in one call for the same reason as the response's.
typedef struct {
    pekit_span name, value, domain, path, same_site, partition_key;
    double creation, last_access, expires;
    int has_expires, host_only, secure, http_only, partitioned;
} pekit_cookie_fields;
// Pushes a table with name, value, domain, path, creation, last_access, host_only, secure,
// http_only and partitioned set, and expires, same_site and partition_key when the cookie has them.
void pekit_push_cookie(lua_State *L, const pekit_cookie_fields *fields);
// jar:receive's `stored`, its cookie tables made when it is first read (cookie_list.c).
/// Sets up the metatable and the weak table of pending lists; pushes {pending =, settle =,
/// globals = {rawget, rawset, rawlen, getmetatable, setmetatable}} for the prelude. Once per
/// state, before the prelude runs.
void pekit_open_cookie_lists(lua_State *L);
/// The records of the cookies one call stored (a growing buffer: reset `used` and `count` to
/// start again, `pekit_cookie_records_free` when done).
typedef struct { unsigned char *bytes; size_t used, capacity; lua_Integer count; } pekit_cookie_records;
/// Appends a cookie's record (its numbers and flags, then its text); 0 when memory ran out
/// (nothing appended).
int pekit_cookie_records_append(pekit_cookie_records *records, const pekit_cookie_fields *fields);
void pekit_cookie_records_free(pekit_cookie_records *records);
/// Pushes a list of the cookies in `records` whose tables are made on its first read; a plain
/// empty table when there are none.
void pekit_push_cookie_list(lua_State *L, const pekit_cookie_records *records);
/// Makes the tables of the list at `index` if it is one not read yet; nothing for another value.
void pekit_cookie_list_settle(lua_State *L, int index);

#endif
