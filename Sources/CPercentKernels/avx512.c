// AVX-512 loops (F, BW, VBMI, VBMI2, BMI2): 64 bytes classified at once; an encoded block is
// written as `%HL` triplets by vpermb and the unused bytes dropped by vpcompressb; a decoded
// block has its escapes found as '%' with hex digits at +1 and +2, the decoded byte blended in
// and the digits compressed out.
#include "kernels.h"
#if defined(__x86_64__)
#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2,popcnt")))

// Slot j of sixteen triplets (j < 48) reads input byte j / 3 (pk_tables' triplet_index): the
// first from `first`, the two digits from the block's pair of digit halves.
static const uint64_t first_slots = 0x249249249249u;            // j % 3 == 0
static const uint64_t high_slots = first_slots << 1;           // j % 3 == 1
static const uint64_t low_slots = first_slots << 2;            // j % 3 == 2

AVX512 size_t pk_encode_avx512(const uint8_t *src, size_t n, uint8_t *dst, const pk_encode_rule *rule) {
    // The copy set as 128 bytes of 0xFF or 0, looked up by vpermi2b on the low seven bits.
    const pk_tables *t = pk_shared_tables();
    const __m512i copy_low = _mm512_loadu_si512(rule->copy_flags), copy_high = _mm512_loadu_si512(rule->copy_flags + 64);
    const __m512i digits = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(rule->upper ? "0123456789ABCDEF" : "0123456789abcdef")));
    const __m512i nibble = _mm512_set1_epi8(0x0F);
    __m512i index[4];
    for (int k = 0; k < 4; k++) index[k] = _mm512_loadu_si512(t->triplet_index[k]);
    size_t i = 0, o = 0;
    // A quarter's triplets are stored as a whole 64-byte register (no mask to make for the
    // store, which would cost a port the shuffles need), so up to 48 bytes past what it means
    // to write; with 69 bytes left the last one stays inside 3n + 3 bytes of room.
    while (i + 69 <= n) {
        __m512i x = _mm512_loadu_si512(src + i);
        __m512i hit = _mm512_permutex2var_epi8(copy_low, x, copy_high);
        __mmask64 copy = _mm512_test_epi8_mask(hit, hit) & ~_mm512_movepi8_mask(x);
        if (copy == ~(__mmask64)0) {
            _mm512_storeu_si512(dst + o, x);
            i += 64, o += 64;
            continue;
        }
        __mmask64 spaces = rule->space_plus ? _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(' ')) & ~copy : 0;
        uint64_t escaped = ~(copy | spaces);
        __m512i first = _mm512_mask_mov_epi8(_mm512_set1_epi8('%'), copy, x);
        first = _mm512_mask_mov_epi8(first, spaces, _mm512_set1_epi8('+'));
        __m512i high = _mm512_permutexvar_epi8(_mm512_and_si512(_mm512_srli_epi16(x, 4), nibble), digits);
        __m512i low = _mm512_shuffle_epi8(digits, _mm512_and_si512(x, nibble));
        // Both digits of half the block in one register, so each quarter takes one two-source
        // shuffle: [high 0-31, low 0-31] and [high 32-63, low 32-63].
        __m512i pairs[2] = {
            _mm512_inserti64x4(high, _mm512_castsi512_si256(low), 1),
            _mm512_shuffle_i64x2(high, low, _MM_SHUFFLE(3, 2, 3, 2)),
        };
        for (int k = 0; k < 4; k++) {
            uint64_t e = escaped >> (16 * k) & 0xFFFF;
            // Each escaped byte keeps its two digit slots.
            uint64_t keep = first_slots | _pdep_u64(e, high_slots) | _pdep_u64(e, low_slots);
            __m512i slots = _mm512_permutex2var_epi8(first, index[k], pairs[k >> 1]);
            _mm512_storeu_si512(dst + o, _mm512_maskz_compress_epi8(keep, slots));
            o += (size_t)_mm_popcnt_u64(keep);
        }
        i += 64;
    }
    return pk_encode_scalar(src, n, dst, rule, i, o);
}

AVX512 size_t pk_count_avx512(const uint8_t *src, size_t n, const pk_encode_rule *rule) {
    const __m512i copy_low = _mm512_loadu_si512(rule->copy_flags), copy_high = _mm512_loadu_si512(rule->copy_flags + 64);
    const __m512i space = _mm512_set1_epi8(' ');
    const int plus = rule->space_plus;
    size_t i = 0, escaped = 0;
    // Each byte writes one byte, and an escaped one two more: n + 2 * (bytes escaped).
    for (; i + 64 <= n; i += 64) {
        __m512i x = _mm512_loadu_si512(src + i);
        __m512i hit = _mm512_permutex2var_epi8(copy_low, x, copy_high);
        __mmask64 kept = _mm512_test_epi8_mask(hit, hit) & ~_mm512_movepi8_mask(x);
        if (plus) kept |= _mm512_cmpeq_epi8_mask(x, space);
        escaped += (size_t)_mm_popcnt_u64(~kept);
    }
    return pk_count_scalar(src, n, rule, i, i + 2 * escaped);
}

AVX512 size_t pk_decode_avx512(const uint8_t *src, size_t n, uint8_t *dst, int flags) {
    // Hex values for bytes 0-127 (0x80 for non-digits), looked up by vpermi2b.
    const uint8_t *hex = pk_shared_tables()->hex_value;
    const __m512i hex_low = _mm512_loadu_si512(hex), hex_high = _mm512_loadu_si512(hex + 64);
    const __m512i top = _mm512_set1_epi8((char)0x80), nibble = _mm512_set1_epi8(0x0F);
    const int strict = flags & PK_DECODE_STRICT, plus = flags & PK_DECODE_PLUS;
    size_t i = 0, o = 0;
    // The digits of an escape in a block's last two bytes are read from past it and dropped
    // from the next block (`carried`), so that the input advances by 64 bytes whatever it holds.
    uint64_t carried = 0;
    while (i + 66 <= n) {
        __m512i x = _mm512_loadu_si512(src + i);
        __mmask64 percents = _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('%'));
        __mmask64 plusses = plus ? _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('+')) : 0;
        if ((percents | plusses | carried) == 0) {
            _mm512_storeu_si512(dst + o, x);
            i += 64, o += 64;
            continue;
        }
        __m512i x1 = _mm512_loadu_si512(src + i + 1), x2 = _mm512_loadu_si512(src + i + 2);
        __m512i v1 = _mm512_permutex2var_epi8(hex_low, x1, hex_high);
        __m512i v2 = _mm512_permutex2var_epi8(hex_low, x2, hex_high);
        // A digit has neither the byte's nor the value's top bit.
        __mmask64 digit1 = _mm512_testn_epi8_mask(_mm512_or_si512(v1, x1), top);
        __mmask64 digit2 = _mm512_testn_epi8_mask(_mm512_or_si512(v2, x2), top);
        // Escapes never overlap: their digits are never '%'.
        uint64_t escapes = percents & digit1 & digit2;
        if (strict && (percents & ~escapes)) return PK_DECODE_INVALID;
        __m512i decoded = _mm512_or_si512(_mm512_slli_epi16(_mm512_and_si512(v1, nibble), 4), _mm512_and_si512(v2, nibble));
        __m512i out = _mm512_mask_mov_epi8(x, escapes, decoded);
        out = _mm512_mask_mov_epi8(out, plusses, _mm512_set1_epi8(' '));
        uint64_t keep = ~(escapes << 1 | escapes << 2 | carried);
        _mm512_storeu_si512(dst + o, _mm512_maskz_compress_epi8(keep, out));
        o += (size_t)_mm_popcnt_u64(keep);
        carried = escapes >> 62 | escapes >> 63;
        i += 64;
    }
    i += (size_t)_mm_popcnt_u64(carried);
    return pk_decode_scalar(src, n, dst, flags, i, o);
}
#endif
