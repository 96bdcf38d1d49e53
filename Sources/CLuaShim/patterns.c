// string.find, match, gmatch and gsub with Lua 5.4's pattern language, written for pekit so that
// matching can be stopped: Lua's own matcher runs in C where no count hook fires, so a pattern
// such as ("a*"):rep(20) .. "b" against a long string of a's would run for hours in a plugin
// that has a budget of a fraction of a second, and Ctrl-C could not stop it. Here every
// matching step is counted and charged to the state's budget (pekit_charge) in batches.
// Results and error messages are Lua's: Tests/PekitLuaTests/PatternTests.swift compares them
// with the lua5.4 interpreter on thousands of patterns.
#include "CLuaShim.h"
#include <ctype.h>
#include <string.h>

#define ESC '%'
#define SPECIALS "^$*+?.([%-"
#define MAX_CAPTURES 32
#define MAX_DEPTH 200          // recursion depth of one match, as Lua's MAXCCALLS
#define CHARGE_EVERY 1024      // steps between calls to pekit_charge
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)

typedef struct {
    const char *src_init, *src_end, *p_end;
    lua_State *L;
    int depth;      // recursion left
    int level;      // captures open or closed
    long long steps;
    struct { const char *init; ptrdiff_t len; } capture[MAX_CAPTURES];
} Matcher;

static void step(Matcher *m) {
    if (++m->steps >= CHARGE_EVERY) {
        long long steps = m->steps;
        m->steps = 0;
        pekit_charge(m->L, steps);
    }
}

static const char *match(Matcher *m, const char *s, const char *p);

// ---- character classes ----

static int class_matches(int c, int cl) {
    int r;
    switch (tolower(cl)) {
        case 'a': r = isalpha(c); break;
        case 'c': r = iscntrl(c); break;
        case 'd': r = isdigit(c); break;
        case 'g': r = isgraph(c); break;
        case 'l': r = islower(c); break;
        case 'p': r = ispunct(c); break;
        case 's': r = isspace(c); break;
        case 'u': r = isupper(c); break;
        case 'w': r = isalnum(c); break;
        case 'x': r = isxdigit(c); break;
        case 'z': r = (c == 0); break;  // deprecated in Lua 5.2, still accepted by 5.4
        default: return cl == c;  // %. %% %] ...: the character itself
    }
    if (isupper(cl)) r = !r;
    return r;
}

// `p` is at '[', `ec` at the closing ']'.
static int set_matches(int c, const char *p, const char *ec) {
    int found = 1;
    if (*(p + 1) == '^') { found = 0; p++; }
    while (++p < ec) {
        if (*p == ESC) {
            p++;
            if (class_matches(c, (unsigned char)*p)) return found;
        } else if (*(p + 1) == '-' && p + 2 < ec) {
            p += 2;
            if ((unsigned char)*(p - 2) <= c && c <= (unsigned char)*p) return found;
        } else if ((unsigned char)*p == c) {
            return found;
        }
    }
    return !found;
}

// The end of the single-character class starting at `p`.
static const char *class_end(Matcher *m, const char *p) {
    switch (*p++) {
        case ESC:
            if (p == m->p_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
            return p + 1;
        case '[':
            if (*p == '^') p++;
            do {  // a ']' right after '[' (or "[^") is a member, not the end
                if (p == m->p_end) luaL_error(m->L, "malformed pattern (missing ']')");
                if (*(p++) == ESC && p < m->p_end) p++;
            } while (*p != ']');
            return p + 1;
        default:
            return p;
    }
}

static int single_matches(Matcher *m, const char *s, const char *p, const char *ep) {
    if (s >= m->src_end) return 0;
    int c = (unsigned char)*s;
    switch (*p) {
        case '.': return 1;
        case ESC: return class_matches(c, (unsigned char)*(p + 1));
        case '[': return set_matches(c, p, ep - 1);
        default: return (unsigned char)*p == c;
    }
}

// ---- the matcher ----

static const char *balance(Matcher *m, const char *s, const char *p) {
    if (p >= m->p_end - 1) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= m->src_end || *s != *p) return NULL;
    int open = *p, close = *(p + 1), depth = 1;
    while (++s < m->src_end) {
        step(m);
        if (*s == close) {
            if (--depth == 0) return s + 1;
        } else if (*s == open) {
            depth++;
        }
    }
    return NULL;
}

static const char *greedy(Matcher *m, const char *s, const char *p, const char *ep) {
    ptrdiff_t i = 0;
    while (single_matches(m, s + i, p, ep)) { i++; step(m); }
    while (i >= 0) {  // back off one at a time until the rest matches
        const char *r = match(m, s + i, ep + 1);
        if (r) return r;
        i--;
    }
    return NULL;
}

static const char *lazy(Matcher *m, const char *s, const char *p, const char *ep) {
    for (;;) {
        const char *r = match(m, s, ep + 1);
        if (r) return r;
        if (!single_matches(m, s, p, ep)) return NULL;
        s++;
        step(m);
    }
}

static const char *open_capture(Matcher *m, const char *s, const char *p, ptrdiff_t what) {
    if (m->level >= MAX_CAPTURES) luaL_error(m->L, "too many captures");
    m->capture[m->level].init = s;
    m->capture[m->level].len = what;
    m->level++;
    const char *r = match(m, s, p);
    if (!r) m->level--;
    return r;
}

static const char *close_capture(Matcher *m, const char *s, const char *p) {
    int l = -1;
    for (int i = m->level - 1; i >= 0; i--)
        if (m->capture[i].len == CAP_UNFINISHED) { l = i; break; }
    if (l < 0) luaL_error(m->L, "invalid pattern capture");
    m->capture[l].len = s - m->capture[l].init;
    const char *r = match(m, s, p);
    if (!r) m->capture[l].len = CAP_UNFINISHED;
    return r;
}

static const char *back_reference(Matcher *m, const char *s, int digit) {
    int l = digit - '1';
    if (l < 0 || l >= m->level || m->capture[l].len == CAP_UNFINISHED)
        luaL_error(m->L, "invalid capture index %%%d", l + 1);
    size_t len = (size_t)m->capture[l].len;
    step(m);
    if ((size_t)(m->src_end - s) >= len && memcmp(m->capture[l].init, s, len) == 0) return s + len;
    return NULL;
}

static const char *match(Matcher *m, const char *s, const char *p) {
    if (m->depth-- == 0) luaL_error(m->L, "pattern too complex");
    step(m);
    while (p != m->p_end) {
        switch (*p) {
            case '(':
                s = *(p + 1) == ')' ? open_capture(m, s, p + 2, CAP_POSITION) : open_capture(m, s, p + 1, CAP_UNFINISHED);
                goto done;
            case ')':
                s = close_capture(m, s, p + 1);
                goto done;
            case '$':
                if (p + 1 != m->p_end) goto single;  // '$' not at the end is an ordinary character
                if (s != m->src_end) s = NULL;
                goto done;
            case ESC:
                switch (*(p + 1)) {
                    case 'b':
                        s = balance(m, s, p + 2);
                        if (!s) goto done;
                        p += 4;
                        continue;
                    case 'f': {
                        p += 2;
                        if (*p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
                        const char *ep = class_end(m, p);
                        int before = (s == m->src_init) ? '\0' : (unsigned char)*(s - 1);
                        int here = s < m->src_end ? (unsigned char)*s : '\0';
                        if (!set_matches(before, p, ep - 1) && set_matches(here, p, ep - 1)) { p = ep; continue; }
                        s = NULL;
                        goto done;
                    }
                    case '0': case '1': case '2': case '3': case '4':
                    case '5': case '6': case '7': case '8': case '9':
                        s = back_reference(m, s, (unsigned char)*(p + 1));
                        if (!s) goto done;
                        p += 2;
                        continue;
                    default:
                        goto single;
                }
            default:
            single: {
                const char *ep = class_end(m, p);
                if (!single_matches(m, s, p, ep)) {
                    if (*ep == '*' || *ep == '?' || *ep == '-') { p = ep + 1; continue; }  // zero occurrences
                    s = NULL;
                    goto done;
                }
                switch (*ep) {
                    case '?': {
                        const char *r = match(m, s + 1, ep + 1);
                        if (r) { s = r; goto done; }
                        p = ep + 1;
                        continue;
                    }
                    case '+': s = greedy(m, s + 1, p, ep); goto done;
                    case '*': s = greedy(m, s, p, ep); goto done;
                    case '-': s = lazy(m, s, p, ep); goto done;
                    default: s++; p = ep; continue;
                }
            }
        }
    }
done:
    m->depth++;
    return s;
}

// ---- captures ----

// Capture `l` (or the whole match when there are none and l is 0): its start and length, or
// CAP_POSITION after pushing the position.
static ptrdiff_t capture_at(Matcher *m, int l, const char *s, const char *e, const char **start) {
    if (l >= m->level) {
        if (l != 0) luaL_error(m->L, "invalid capture index %%%d", l + 1);
        *start = s;
        return e - s;
    }
    ptrdiff_t len = m->capture[l].len;
    *start = m->capture[l].init;
    if (len == CAP_UNFINISHED) luaL_error(m->L, "unfinished capture");
    if (len == CAP_POSITION) lua_pushinteger(m->L, (m->capture[l].init - m->src_init) + 1);
    return len;
}

static void push_capture(Matcher *m, int l, const char *s, const char *e) {
    const char *start;
    ptrdiff_t len = capture_at(m, l, s, e, &start);
    if (len != CAP_POSITION) lua_pushlstring(m->L, start, (size_t)len);
}

// Pushes the captures (or the whole match when s is given and there are none); returns how many.
static int push_captures(Matcher *m, const char *s, const char *e) {
    int n = (m->level == 0 && s) ? 1 : m->level;
    luaL_checkstack(m->L, n, "too many captures");
    for (int i = 0; i < n; i++) push_capture(m, i, s, e);
    return n;
}

static void prepare(Matcher *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
    m->L = L;
    m->src_init = s;
    m->src_end = s + ls;
    m->p_end = p + lp;
    m->steps = 0;
}

static void reset(Matcher *m) {
    m->level = 0;
    m->depth = MAX_DEPTH;
}

// ---- the library functions ----

// A 1-based start position from a relative one, as string.find reads its `init`.
static size_t start_position(lua_Integer pos, size_t len) {
    if (pos > 0) return (size_t)pos;
    if (pos == 0) return 1;
    if (pos < -(lua_Integer)len) return 1;
    return len + (size_t)pos + 1;
}

static int has_specials(const char *p, size_t lp) {
    size_t upto = 0;
    do {  // the pattern may hold NULs: look at each NUL-terminated piece
        if (strpbrk(p + upto, SPECIALS)) return 1;
        upto += strlen(p + upto) + 1;
    } while (upto <= lp);
    return 0;
}

static const char *find_plain(Matcher *m, const char *s, size_t ls, const char *p, size_t lp) {
    if (lp == 0) return s;
    if (lp > ls) return NULL;
    const char *end = s + (ls - lp) + 1;
    while (s < end) {
        const char *hit = memchr(s, *p, (size_t)(end - s));
        if (!hit) return NULL;
        m->steps += (long long)lp;
        step(m);
        if (memcmp(hit + 1, p + 1, lp - 1) == 0) return hit;
        s = hit + 1;
    }
    return NULL;
}

static int find_or_match(lua_State *L, int find) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_position(luaL_optinteger(L, 3, 1), ls);
    if (init > ls + 1) { lua_pushnil(L); return 1; }
    Matcher m;
    prepare(&m, L, s, ls, p, lp);
    if (find && (lua_toboolean(L, 4) || !has_specials(p, lp))) {
        const char *hit = find_plain(&m, s + init - 1, ls - init + 1, p, lp);
        if (hit) {
            lua_pushinteger(L, (hit - s) + 1);
            lua_pushinteger(L, (lua_Integer)((hit - s) + lp));
            return 2;
        }
    } else {
        const char *s1 = s + init - 1;
        int anchored = (*p == '^');
        if (anchored) { p++; lp--; prepare(&m, L, s, ls, p, lp); }
        do {
            reset(&m);
            const char *e = match(&m, s1, p);
            if (e) {
                if (find) {
                    lua_pushinteger(L, (s1 - s) + 1);
                    lua_pushinteger(L, e - s);
                    return push_captures(&m, NULL, 0) + 2;
                }
                return push_captures(&m, s1, e);
            }
        } while (s1++ < m.src_end && !anchored);
    }
    lua_pushnil(L);
    return 1;
}

static int pattern_find(lua_State *L) { return find_or_match(L, 1); }
static int pattern_match(lua_State *L) { return find_or_match(L, 0); }

typedef struct {
    const char *src, *p, *last;
    Matcher m;
} Iteration;

static int gmatch_next(lua_State *L) {
    Iteration *it = (Iteration *)lua_touserdata(L, lua_upvalueindex(3));
    it->m.L = L;  // the state calling the iterator (a coroutine may)
    for (const char *src = it->src; src <= it->m.src_end; src++) {
        reset(&it->m);
        const char *e = match(&it->m, src, it->p);
        if (e && e != it->last) {
            it->src = it->last = e;
            return push_captures(&it->m, src, e);
        }
    }
    return 0;
}

static int pattern_gmatch(lua_State *L) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = start_position(luaL_optinteger(L, 3, 1), ls);
    if (init > ls + 1) init = ls + 2;  // past the end: nothing matches, not even an empty match
    lua_settop(L, 2);  // the string and pattern stay alive as upvalues
    Iteration *it = (Iteration *)lua_newuserdatauv(L, sizeof *it, 0);
    prepare(&it->m, L, s, ls, p, lp);
    it->src = s + init - 1;
    it->p = p;
    it->last = NULL;
    lua_pushcclosure(L, gmatch_next, 3);
    return 1;
}

// Appends the replacement string (argument 3) with its %0-%9 and %% expanded.
static void add_template(Matcher *m, luaL_Buffer *b, const char *s, const char *e) {
    lua_State *L = m->L;
    size_t l;
    const char *news = lua_tolstring(L, 3, &l);
    const char *p;
    while ((p = memchr(news, ESC, l)) != NULL) {
        luaL_addlstring(b, news, (size_t)(p - news));
        p++;
        if (*p == ESC) {
            luaL_addchar(b, *p);
        } else if (*p == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (isdigit((unsigned char)*p)) {
            const char *start;
            ptrdiff_t len = capture_at(m, *p - '1', s, e, &start);
            if (len == CAP_POSITION) luaL_addvalue(b);
            else luaL_addlstring(b, start, (size_t)len);
        } else {
            luaL_error(L, "invalid use of '%c' in replacement string", ESC);
        }
        l -= (size_t)(p + 1 - news);
        news = p + 1;
    }
    luaL_addlstring(b, news, l);
}

// Appends the replacement of the match s..e; returns whether it changed the text.
static int add_replacement(Matcher *m, luaL_Buffer *b, const char *s, const char *e, int kind) {
    lua_State *L = m->L;
    switch (kind) {
        case LUA_TFUNCTION: {
            lua_pushvalue(L, 3);
            int n = push_captures(m, s, e);
            lua_call(L, n, 1);
            break;
        }
        case LUA_TTABLE:
            push_capture(m, 0, s, e);
            lua_gettable(L, 3);
            break;
        default:
            add_template(m, b, s, e);
            return 1;
    }
    if (!lua_toboolean(L, -1)) {  // nil or false: keep the original text
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return 1;
}

static int pattern_gsub(lua_State *L) {
    size_t srcl, lp;
    const char *src = luaL_checklstring(L, 1, &srcl);
    const char *p = luaL_checklstring(L, 2, &lp);
    const char *last = NULL;
    int kind = lua_type(L, 3);
    lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)srcl + 1);
    int anchored = (*p == '^');
    lua_Integer n = 0;
    int changed = 0;
    luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE,
                     3, "string/function/table");
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (anchored) { p++; lp--; }
    Matcher m;
    prepare(&m, L, src, srcl, p, lp);
    while (n < max) {
        reset(&m);
        const char *e = match(&m, src, p);
        if (e && e != last) {
            n++;
            changed = add_replacement(&m, &b, src, e, kind) | changed;
            src = last = e;
        } else if (src < m.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchored) break;
    }
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, src, (size_t)(m.src_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

int pekit_pattern_ranges(lua_State *L) {
    size_t srcl, lp;
    const char *s = luaL_checklstring(L, 1, &srcl);
    const char *p = luaL_checklstring(L, 2, &lp);
    const char *src = s;
    int anchored = (*p == '^');
    lua_Integer n = 0;
    if (anchored) { p++; lp--; }
    lua_newtable(L);
    Matcher m;
    prepare(&m, L, s, srcl, p, lp);
    while (1) {
        reset(&m);
        const char *e = match(&m, src, p);
        if (e == src) return luaL_error(L, "the delimiter pattern matches an empty string at position %d", (int)(src - s) + 1);
        if (e) {
            lua_pushinteger(L, (lua_Integer)(src - s) + 1);
            lua_rawseti(L, -2, ++n);
            lua_pushinteger(L, (lua_Integer)(e - s));
            lua_rawseti(L, -2, ++n);
            src = e;
        } else if (src < m.src_end) {
            src++;
        } else {
            break;
        }
        if (anchored) break;
    }
    return 1;
}

void pekit_open_patterns(lua_State *L) {
    static const luaL_Reg functions[] = {
        {"find", pattern_find}, {"match", pattern_match}, {"gmatch", pattern_gmatch}, {"gsub", pattern_gsub}, {NULL, NULL},
    };
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    if (lua_getfield(L, -1, LUA_STRLIBNAME) == LUA_TTABLE) luaL_setfuncs(L, functions, 0);
    lua_pop(L, 2);
}
