// SSSE3 loops: sixteen bytes classified at once against the set with two nibble tables
// (pshufb), all-copied blocks stored whole, the rest expanded four bytes per shuffle.
#include "kernels.h"
#if defined(__x86_64__)
#include <immintrin.h>

#define SSSE3 __attribute__((target("ssse3,popcnt")))

SSSE3 size_t pk_encode_ssse3(const uint8_t *src, size_t n, uint8_t *dst, const pk_encode_rule *rule) {
    const pk_tables *t = pk_shared_tables();
    // The copy set as two nibble tables: row[low nibble] has bit h set when byte h*16+low is
    // copied (h < 8: only ASCII can be), column[h] is 1 << h (0 for h >= 8).
    const __m128i row = _mm_loadu_si128((const __m128i *)rule->nibble_rows);
    const __m128i column = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, (char)128, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m128i digits = _mm_loadu_si128((const __m128i *)(rule->upper ? "0123456789ABCDEF" : "0123456789abcdef"));
    const __m128i nibble = _mm_set1_epi8(0x0F), zero = _mm_setzero_si128();
    const __m128i percent = _mm_set1_epi8('%'), plus = _mm_set1_epi8('+'), space = _mm_set1_epi8(' ');
    size_t i = 0, o = 0;
    // Each group of four stores sixteen bytes at o <= 3i: with 17 bytes left the last group's
    // store stays inside the 3n + 3 bytes of room.
    while (i + 17 <= n) {
        __m128i x = _mm_loadu_si128((const __m128i *)(src + i));
        __m128i low = _mm_and_si128(x, nibble), high = _mm_and_si128(_mm_srli_epi16(x, 4), nibble);
        __m128i hit = _mm_and_si128(_mm_shuffle_epi8(row, low), _mm_shuffle_epi8(column, high));
        __m128i copy = _mm_xor_si128(_mm_cmpeq_epi8(hit, zero), _mm_set1_epi8(-1));
        unsigned copied = (unsigned)_mm_movemask_epi8(copy);
        if (copied == 0xFFFF) {
            _mm_storeu_si128((__m128i *)(dst + o), x);
            i += 16, o += 16;
            continue;
        }
        __m128i spaces = rule->space_plus ? _mm_andnot_si128(copy, _mm_cmpeq_epi8(x, space)) : zero;
        __m128i kept = _mm_or_si128(copy, spaces);
        unsigned escaped = ~(unsigned)_mm_movemask_epi8(kept) & 0xFFFF;
        // The first byte written for each input byte: itself, '+' for a space, or '%'.
        __m128i first = _mm_or_si128(_mm_and_si128(copy, x), _mm_andnot_si128(kept, percent));
        first = _mm_or_si128(first, _mm_and_si128(spaces, plus));
        __m128i hi = _mm_shuffle_epi8(digits, high), lo = _mm_shuffle_epi8(digits, low);
        // Groups of four as [first x4, high digit x4, low digit x4, 0 x4].
        __m128i fh_low = _mm_unpacklo_epi32(first, hi), fh_high = _mm_unpackhi_epi32(first, hi);
        __m128i l_low = _mm_unpacklo_epi32(lo, zero), l_high = _mm_unpackhi_epi32(lo, zero);
        __m128i group[4] = {
            _mm_unpacklo_epi64(fh_low, l_low), _mm_unpackhi_epi64(fh_low, l_low),
            _mm_unpacklo_epi64(fh_high, l_high), _mm_unpackhi_epi64(fh_high, l_high),
        };
        for (int g = 0; g < 4; g++) {
            unsigned mask = escaped >> (4 * g) & 15;
            __m128i control = _mm_loadu_si128((const __m128i *)t->expand4[mask]);
            _mm_storeu_si128((__m128i *)(dst + o), _mm_shuffle_epi8(group[g], control));
            o += t->expand4_length[mask];
        }
        i += 16;
    }
    return pk_encode_scalar(src, n, dst, rule, i, o);
}

SSSE3 size_t pk_count_ssse3(const uint8_t *src, size_t n, const pk_encode_rule *rule) {
    const __m128i row = _mm_loadu_si128((const __m128i *)rule->nibble_rows);
    const __m128i column = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, (char)128, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m128i nibble = _mm_set1_epi8(0x0F), zero = _mm_setzero_si128(), space = _mm_set1_epi8(' ');
    const int plus = rule->space_plus;
    size_t i = 0, escaped = 0;
    // Each byte writes one byte, and an escaped one two more: n + 2 * (bytes escaped).
    for (; i + 16 <= n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(src + i));
        __m128i low = _mm_and_si128(x, nibble), high = _mm_and_si128(_mm_srli_epi16(x, 4), nibble);
        __m128i hit = _mm_and_si128(_mm_shuffle_epi8(row, low), _mm_shuffle_epi8(column, high));
        __m128i missed = _mm_cmpeq_epi8(hit, zero);
        if (plus) missed = _mm_andnot_si128(_mm_cmpeq_epi8(x, space), missed);
        escaped += (size_t)__builtin_popcount((unsigned)_mm_movemask_epi8(missed));
    }
    return pk_count_scalar(src, n, rule, i, i + 2 * escaped);
}

// Per byte: its hex value (0 where it is not a digit) and whether it is one.
SSSE3 static inline __m128i hex_digits(__m128i x, __m128i *valid) {
    __m128i digit = _mm_sub_epi8(x, _mm_set1_epi8('0'));
    __m128i is_digit = _mm_cmpeq_epi8(_mm_min_epu8(digit, _mm_set1_epi8(9)), digit);
    __m128i letter = _mm_sub_epi8(_mm_or_si128(x, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
    __m128i is_letter = _mm_cmpeq_epi8(_mm_min_epu8(letter, _mm_set1_epi8(5)), letter);
    *valid = _mm_or_si128(is_digit, is_letter);
    return _mm_or_si128(_mm_and_si128(is_digit, digit), _mm_and_si128(is_letter, _mm_add_epi8(letter, _mm_set1_epi8(10))));
}

SSSE3 size_t pk_decode_ssse3(const uint8_t *src, size_t n, uint8_t *dst, int flags) {
    const pk_tables *t = pk_shared_tables();
    const int strict = flags & PK_DECODE_STRICT;
    const __m128i percent = _mm_set1_epi8('%'), plus = _mm_set1_epi8('+'), space = _mm_set1_epi8(' ');
    const __m128i eight = _mm_set1_epi8(8);
    size_t i = 0, o = 0;
    // The digits of an escape in a block's last two bytes are read from past it and dropped
    // from the next block (`carried`), so that the input advances by 16 bytes whatever it holds.
    unsigned carried = 0;
    while (i + 18 <= n) {
        __m128i x = _mm_loadu_si128((const __m128i *)(src + i));
        __m128i percents = _mm_cmpeq_epi8(x, percent);
        __m128i plusses = flags & PK_DECODE_PLUS ? _mm_cmpeq_epi8(x, plus) : _mm_setzero_si128();
        if ((_mm_movemask_epi8(_mm_or_si128(percents, plusses)) | carried) == 0) {
            _mm_storeu_si128((__m128i *)(dst + o), x);
            i += 16, o += 16;
            continue;
        }
        __m128i valid1, valid2;
        __m128i high = hex_digits(_mm_loadu_si128((const __m128i *)(src + i + 1)), &valid1);
        __m128i low = hex_digits(_mm_loadu_si128((const __m128i *)(src + i + 2)), &valid2);
        // Escapes never overlap: their digits are never '%'.
        __m128i escapes = _mm_and_si128(percents, _mm_and_si128(valid1, valid2));
        unsigned escaped = (unsigned)_mm_movemask_epi8(escapes);
        if (strict && ((unsigned)_mm_movemask_epi8(percents) & ~escaped)) return PK_DECODE_INVALID;
        __m128i decoded = _mm_or_si128(_mm_slli_epi16(high, 4), low);
        __m128i out = _mm_or_si128(_mm_and_si128(escapes, decoded), _mm_andnot_si128(escapes, x));
        out = _mm_or_si128(_mm_and_si128(plusses, space), _mm_andnot_si128(plusses, out));
        unsigned keep = ~(escaped << 1 | escaped << 2 | carried) & 0xFFFF;
        __m128i front = _mm_shuffle_epi8(out, _mm_loadu_si128((const __m128i *)t->pack8[keep & 0xFF]));
        _mm_storel_epi64((__m128i *)(dst + o), front);
        o += (size_t)__builtin_popcount(keep & 0xFF);
        __m128i back = _mm_shuffle_epi8(out, _mm_add_epi8(_mm_loadu_si128((const __m128i *)t->pack8[keep >> 8]), eight));
        _mm_storel_epi64((__m128i *)(dst + o), back);
        o += (size_t)__builtin_popcount(keep >> 8);
        carried = (escaped >> 14 | escaped >> 15) & 3;
        i += 16;
    }
    i += (size_t)__builtin_popcount(carried);
    return pk_decode_scalar(src, n, dst, flags, i, o);
}
#endif
