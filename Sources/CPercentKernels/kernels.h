// What the kernel files share: the per-level loops and the tables built once at first use.
#ifndef PEKIT_PERCENT_KERNELS_INTERNAL_H
#define PEKIT_PERCENT_KERNELS_INTERNAL_H

#include "CPercentKernels.h"

typedef struct {
    // Each byte's value as a hex digit, 0x80 for a byte that is not one.
    uint8_t hex_value[256];
    // SSSE3 encode: for the escape mask of four bytes, the pshufb control that writes each
    // byte, or '%' and its two digits, from [first x4, high digit x4, low digit x4], and the
    // length written.
    uint8_t expand4[16][16];
    uint8_t expand4_length[16];
    // SSSE3 decode: for the keep mask of eight bytes, the pshufb control that packs the kept
    // bytes to the front.
    uint8_t pack8[256][16];
    // AVX-512 encode: for each quarter of a 64-byte block, the vpermi2b index that spreads its
    // sixteen bytes into triplets: slot j reads byte j / 3 from the first bytes when j % 3 == 0,
    // else its high (j % 3 == 1) or low digit from the register of its half's digit pairs.
    uint8_t triplet_index[4][64];
} pk_tables;

// Built once (pthread_once) by the first kernel call.
const pk_tables *pk_shared_tables(void);

// The scalar loops, also the SIMD loops' tails. `start` bytes of src are done, `written` bytes
// of dst written; return the total written.
size_t pk_encode_scalar(const uint8_t *src, size_t n, uint8_t *dst, const pk_encode_rule *rule, size_t start, size_t written);
size_t pk_decode_scalar(const uint8_t *src, size_t n, uint8_t *dst, int flags, size_t start, size_t written);
// The encoded length of src[start..<n], added to `counted`.
size_t pk_count_scalar(const uint8_t *src, size_t n, const pk_encode_rule *rule, size_t start, size_t counted);

#if defined(__x86_64__)
size_t pk_encode_ssse3(const uint8_t *src, size_t n, uint8_t *dst, const pk_encode_rule *rule);
size_t pk_decode_ssse3(const uint8_t *src, size_t n, uint8_t *dst, int flags);
size_t pk_encode_avx512(const uint8_t *src, size_t n, uint8_t *dst, const pk_encode_rule *rule);
size_t pk_count_ssse3(const uint8_t *src, size_t n, const pk_encode_rule *rule);
size_t pk_count_avx512(const uint8_t *src, size_t n, const pk_encode_rule *rule);
size_t pk_decode_avx512(const uint8_t *src, size_t n, uint8_t *dst, int flags);
#endif

#endif
