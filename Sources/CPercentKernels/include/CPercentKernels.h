// Percent-encoding and decoding kernels (issue 47): a scalar loop for every CPU, and SSSE3 and
// AVX-512 (VBMI2) loops chosen at first use on x86-64. PercentEncoder and PercentDecoder call
// these; the Swift general decoding loop is what they are held to (PercentKernelTests, the
// `decoder` fuzz target).
#ifndef PEKIT_PERCENT_KERNELS_H
#define PEKIT_PERCENT_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/// The instruction sets a kernel may use.
typedef enum {
    PK_LEVEL_SCALAR = 0,
    PK_LEVEL_SSSE3 = 1,
    PK_LEVEL_AVX512 = 2,  // AVX-512 F, BW, VBMI, VBMI2 and BMI2, with the OS saving ZMM state
} pk_level;

/// What an encoder does with each byte.
typedef struct {
    /// Bit b of copy_low (b < 64) or of copy_high (b - 64, b < 128): byte b is copied as it is.
    uint64_t copy_low, copy_high;
    /// Nonzero: a space (not in the copy set) is written as '+'.
    uint8_t space_plus;
    /// Nonzero: hex digits are upper case.
    uint8_t upper;
    /// Per byte, the bytes written packed little-endian in the low 24 bits and their count in
    /// the top 8 (the scalar loop's table, built from the fields above by pk_encode_rule_init).
    uint32_t table[256];
    /// For the SIMD loops, also from the fields above: 0xFF for each byte below 128 that is
    /// copied, and per low nibble the bits of the high nibbles (0-7) whose byte is copied.
    uint8_t copy_flags[128];
    uint8_t nibble_rows[16];
} pk_encode_rule;

/// Fills `rule->table` from the other fields.
void pk_encode_rule_init(pk_encode_rule *rule);

/// The best level this CPU runs (found once, at the first call).
pk_level pk_best_level(void);

/// Encodes `n` bytes at `src` into `dst`, which has room for 3 * n + 3 bytes, or for the encoded
/// length + 64 (no loop stores further past its last byte); returns the count written. `level`
/// above pk_best_level() is lowered to it.
size_t pk_encode(pk_level level, const uint8_t *src, size_t n, uint8_t *dst, const pk_encode_rule *rule);

/// The length pk_encode writes for the same arguments, found without writing: one pass at a
/// multiple of the encoder's speed (the popcount of each block's escape mask), so a caller can
/// size its output exactly instead of for the worst case.
size_t pk_encoded_count(pk_level level, const uint8_t *src, size_t n, const pk_encode_rule *rule);

/// Decoding flags.
enum {
    PK_DECODE_PLUS = 1,    // '+' is a space
    PK_DECODE_STRICT = 2,  // a '%' that starts no escape fails the whole decode
};

/// The value pk_decode returns when strict decoding meets a '%' that starts no escape.
#define PK_DECODE_INVALID ((size_t)-1)

/// Decodes `n` bytes at `src` into `dst` (room for n bytes); returns the count written or
/// PK_DECODE_INVALID. `level` above pk_best_level() is lowered to it.
size_t pk_decode(pk_level level, const uint8_t *src, size_t n, uint8_t *dst, int flags);

#endif
