#include "text_coding.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

int mockidp_form_scan(const uint8_t *bytes, size_t count, int plus_is_space) {
    int found = 0;
    size_t i = 0;
    // '+' counts only as a space; without that, '%' stands in for it so the compare finds nothing new.
    const uint8_t plus = plus_is_space ? '+' : '%';
#if defined(__SSE2__)
    const __m128i percent = _mm_set1_epi8('%'), plus_sign = _mm_set1_epi8((char)plus), zero = _mm_setzero_si128();
    __m128i escapes = zero, nuls = zero, high = zero;
    for (; i + 16 <= count; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(bytes + i));
        escapes = _mm_or_si128(escapes, _mm_or_si128(_mm_cmpeq_epi8(v, percent), _mm_cmpeq_epi8(v, plus_sign)));
        nuls = _mm_or_si128(nuls, _mm_cmpeq_epi8(v, zero));
        high = _mm_or_si128(high, v);
    }
    if (_mm_movemask_epi8(escapes) != 0) found |= 1;
    if (_mm_movemask_epi8(nuls) != 0) found |= 2;
    if (_mm_movemask_epi8(high) != 0) found |= 4;
#elif defined(__ARM_NEON)
    const uint8x16_t percent = vdupq_n_u8('%'), plus_sign = vdupq_n_u8(plus), zero = vdupq_n_u8(0);
    uint8x16_t escapes = zero, nuls = zero, high = zero;
    for (; i + 16 <= count; i += 16) {
        uint8x16_t v = vld1q_u8(bytes + i);
        escapes = vorrq_u8(escapes, vorrq_u8(vceqq_u8(v, percent), vceqq_u8(v, plus_sign)));
        nuls = vorrq_u8(nuls, vceqq_u8(v, zero));
        high = vorrq_u8(high, v);
    }
    if (vmaxvq_u8(escapes) != 0) found |= 1;
    if (vmaxvq_u8(nuls) != 0) found |= 2;
    if (vmaxvq_u8(high) >= 0x80) found |= 4;
#endif
    for (; i < count; i++) {
        uint8_t b = bytes[i];
        if (b == '%' || b == plus) found |= 1;
        if (b == 0) found |= 2;
        if (b >= 0x80) found |= 4;
    }
    return found;
}
