// The entry points: the CPU's level, found once, and the tables the loops share.
#include "kernels.h"
#include <pthread.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

static pk_tables tables;
static pk_level best = PK_LEVEL_SCALAR;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#if defined(__x86_64__)
// XGETBV without the xsave target attribute: which register states the OS saves on a switch.
static uint64_t enabled_state(void) {
    uint32_t low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return (uint64_t)high << 32 | low;
}

static pk_level detect(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return PK_LEVEL_SCALAR;
    int ssse3 = (c >> 9) & 1 && (c >> 23) & 1, osxsave = (c >> 27) & 1;
    // SSSE3 with POPCNT (the loops count mask bits).
    pk_level level = ssse3 ? PK_LEVEL_SSSE3 : PK_LEVEL_SCALAR;
    if (!osxsave || !__get_cpuid_count(7, 0, &a, &b, &c, &d)) return level;
    int f = (b >> 16) & 1, bw = (b >> 30) & 1, bmi2 = (b >> 8) & 1, vbmi = (c >> 1) & 1, vbmi2 = (c >> 6) & 1;
    // XMM, YMM, opmask, ZMM0-15 upper halves and ZMM16-31.
    if (f && bw && bmi2 && vbmi && vbmi2 && (enabled_state() & 0xE6) == 0xE6) level = PK_LEVEL_AVX512;
    return level;
}
#endif

static void build(void) {
    for (int byte = 0; byte < 256; byte++) {
        int value = byte >= '0' && byte <= '9' ? byte - '0'
                  : byte >= 'A' && byte <= 'F' ? byte - 'A' + 10
                  : byte >= 'a' && byte <= 'f' ? byte - 'a' + 10 : 0x80;
        tables.hex_value[byte] = (uint8_t)value;
    }
    for (int mask = 0; mask < 16; mask++) {
        int o = 0;
        for (int k = 0; k < 4; k++) {
            tables.expand4[mask][o++] = (uint8_t)k;
            if (mask >> k & 1) {
                tables.expand4[mask][o++] = (uint8_t)(4 + k);
                tables.expand4[mask][o++] = (uint8_t)(8 + k);
            }
        }
        tables.expand4_length[mask] = (uint8_t)o;
        while (o < 16) tables.expand4[mask][o++] = 0x80;
    }
    for (int mask = 0; mask < 256; mask++) {
        int o = 0;
        for (int k = 0; k < 8; k++) if (mask >> k & 1) tables.pack8[mask][o++] = (uint8_t)k;
        while (o < 16) tables.pack8[mask][o++] = 0x80;
    }
    for (int chunk = 0; chunk < 4; chunk++) {
        for (int j = 0; j < 64; j++) {
            // The byte's place in the block (for `first`), and in its half (for the digit pair:
            // high digits at 64 + 0-31, low at 64 + 32-63).
            int byte = chunk * 16 + (j < 48 ? j / 3 : 0), half = byte % 32;
            int slot = j >= 48 || j % 3 == 0 ? byte : j % 3 == 1 ? 64 + half : 96 + half;
            tables.triplet_index[chunk][j] = (uint8_t)slot;
        }
    }
#if defined(__x86_64__)
    best = detect();
#endif
}

const pk_tables *pk_shared_tables(void) {
    pthread_once(&once, build);
    return &tables;
}

pk_level pk_best_level(void) {
    pthread_once(&once, build);
    return best;
}

void pk_encode_rule_init(pk_encode_rule *rule) {
    const char *digits = rule->upper ? "0123456789ABCDEF" : "0123456789abcdef";
    for (int low = 0; low < 16; low++) rule->nibble_rows[low] = 0;
    for (int byte = 0; byte < 256; byte++) {
        uint64_t word = byte < 64 ? rule->copy_low >> byte : byte < 128 ? rule->copy_high >> (byte - 64) : 0;
        if (byte < 128) {
            rule->copy_flags[byte] = word & 1 ? 0xFF : 0;
            if (word & 1) rule->nibble_rows[byte & 15] |= (uint8_t)(1 << (byte >> 4));
        }
        if (word & 1) {
            rule->table[byte] = 1u << 24 | (uint32_t)byte;
        } else if (byte == ' ' && rule->space_plus) {
            rule->table[byte] = 1u << 24 | '+';
        } else {
            rule->table[byte] = 3u << 24 | (uint32_t)(uint8_t)digits[byte & 15] << 16
                              | (uint32_t)(uint8_t)digits[byte >> 4] << 8 | '%';
        }
    }
}

// The level asked for, lowered to what this CPU runs.
static pk_level usable(pk_level level) {
    pk_level top = pk_best_level();
    return level > top ? top : level;
}

// Inputs shorter than this are encoded by the scalar loop at every level (the SIMD loops work a
// block at a time).
enum { PK_ENCODE_SHORT = 17 };

// The kernel of `level` for an input of at least PK_ENCODE_SHORT bytes.
__attribute__((noinline)) static size_t encode_at_level(pk_level level, const uint8_t *src, size_t n, uint8_t *dst, const pk_encode_rule *rule) {
    level = usable(level);
#if defined(__x86_64__)
    if (level == PK_LEVEL_AVX512 && n >= 69) return pk_encode_avx512(src, n, dst, rule);
    if (level >= PK_LEVEL_SSSE3) return pk_encode_ssse3(src, n, dst, rule);
#endif
    return pk_encode_scalar(src, n, dst, rule, 0, 0);
}

size_t pk_encode(pk_level level, const uint8_t *src, size_t n, uint8_t *dst, const pk_encode_rule *rule) {
    // Short input goes straight to the scalar loop, before the level is looked up: a query
    // encodes hundreds of thousands of short strings, and finding the level (a pthread_once
    // call, and the registers saved for it) was a seventh of that work. Both are tail calls.
    if (n < PK_ENCODE_SHORT) return pk_encode_scalar(src, n, dst, rule, 0, 0);
    return encode_at_level(level, src, n, dst, rule);
}

size_t pk_encoded_count(pk_level level, const uint8_t *src, size_t n, const pk_encode_rule *rule) {
    level = usable(level);
#if defined(__x86_64__)
    if (level == PK_LEVEL_AVX512 && n >= 64) return pk_count_avx512(src, n, rule);
    if (level >= PK_LEVEL_SSSE3 && n >= 16) return pk_count_ssse3(src, n, rule);
#endif
    return pk_count_scalar(src, n, rule, 0, 0);
}

size_t pk_decode(pk_level level, const uint8_t *src, size_t n, uint8_t *dst, int flags) {
    level = usable(level);
#if defined(__x86_64__)
    // Below a block (and the two bytes an escape's digits may reach past it), the scalar loop.
    if (level == PK_LEVEL_AVX512 && n >= 66) return pk_decode_avx512(src, n, dst, flags);
    if (level >= PK_LEVEL_SSSE3 && n >= 18) return pk_decode_ssse3(src, n, dst, flags);
#endif
    return pk_decode_scalar(src, n, dst, flags, 0, 0);
}
