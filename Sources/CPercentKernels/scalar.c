// The scalar loops: every CPU's path, and the SIMD loops' tails.
#include "kernels.h"
#include <string.h>

size_t pk_encode_scalar(const uint8_t *src, size_t n, uint8_t *dst, const pk_encode_rule *rule, size_t i, size_t o) {
    const uint32_t *table = rule->table;
    // Branch-free: store the entry's four bytes, advance by its count (dst has 3 bytes to spare).
    for (; i < n; i++) {
        uint32_t entry = table[src[i]];
        uint8_t bytes[4] = {(uint8_t)entry, (uint8_t)(entry >> 8), (uint8_t)(entry >> 16), 0};
        memcpy(dst + o, bytes, 4);
        o += entry >> 24;
    }
    return o;
}

size_t pk_count_scalar(const uint8_t *src, size_t n, const pk_encode_rule *rule, size_t i, size_t counted) {
    const uint32_t *table = rule->table;
    // Four independent sums, so the loop is not one long chain of additions.
    size_t a = 0, b = 0, c = 0, d = 0;
    for (; i + 4 <= n; i += 4) {
        a += table[src[i]] >> 24;
        b += table[src[i + 1]] >> 24;
        c += table[src[i + 2]] >> 24;
        d += table[src[i + 3]] >> 24;
    }
    for (; i < n; i++) a += table[src[i]] >> 24;
    return counted + a + b + c + d;
}

size_t pk_decode_scalar(const uint8_t *src, size_t n, uint8_t *dst, int flags, size_t i, size_t o) {
    const uint8_t *hex = pk_shared_tables()->hex_value;
    int plus = flags & PK_DECODE_PLUS, strict = flags & PK_DECODE_STRICT;
    while (i < n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        // Whole words while no byte is special (the SWAR zero-byte test for '%' and '+'). The
        // output is never ahead of the input, so a word stored at o fits where one was read at i.
        const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
        while (i + 8 <= n) {
            uint64_t word;
            memcpy(&word, src + i, 8);
            uint64_t x = word ^ (ones * '%');
            uint64_t special = (x - ones) & ~x & highs;
            if (plus) {
                x = word ^ (ones * '+');
                special |= (x - ones) & ~x & highs;
            }
            memcpy(dst + o, &word, 8);
            if (special) {
                // The lowest flag is the first special byte (higher ones may be borrows).
                size_t plain = (size_t)__builtin_ctzll(special) >> 3;
                i += plain;
                o += plain;
                break;
            }
            i += 8;
            o += 8;
        }
#endif
        // Byte by byte while the bytes are special, then back to words.
        while (i < n) {
            uint8_t byte = src[i];
            if (byte == '%') {
                if (i + 2 < n && (hex[src[i + 1]] | hex[src[i + 2]]) < 16) {
                    dst[o++] = (uint8_t)(hex[src[i + 1]] << 4 | hex[src[i + 2]]);
                    i += 3;
                    continue;
                }
                if (strict) return PK_DECODE_INVALID;
                dst[o] = '%';
            } else if (byte == '+' && plus) {
                dst[o] = ' ';
            } else {
                dst[o] = byte;
                o++, i++;
                break;
            }
            o++, i++;
        }
    }
    return o;
}
