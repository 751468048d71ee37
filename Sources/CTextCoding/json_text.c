#include "text_coding.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

static inline int needs_escape(uint8_t b) { return b < 0x20 || b == '"' || b == '\\' || b == '<'; }

size_t mockidp_json_first_escape(const uint8_t *bytes, size_t count) {
    size_t i = 0;
#if defined(__SSE2__)
    // Unsigned `b < 0x20` as a signed compare: flipping the top bit maps 0...255 onto -128...127 in order.
    const __m128i flip = _mm_set1_epi8((char)0x80), below = _mm_set1_epi8((char)(0x20 ^ 0x80));
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), less = _mm_set1_epi8('<');
    for (; i + 16 <= count; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(bytes + i));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(_mm_xor_si128(v, flip), below), _mm_cmpeq_epi8(v, quote)),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, less)));
        int mask = _mm_movemask_epi8(hit);
        if (mask != 0) return i + (size_t)__builtin_ctz((unsigned)mask);
    }
#elif defined(__ARM_NEON)
    const uint8x16_t space = vdupq_n_u8(0x20), quote = vdupq_n_u8('"'), backslash = vdupq_n_u8('\\'), less = vdupq_n_u8('<');
    for (; i + 16 <= count; i += 16) {
        uint8x16_t v = vld1q_u8(bytes + i);
        uint8x16_t hit = vorrq_u8(vorrq_u8(vcltq_u8(v, space), vceqq_u8(v, quote)),
                                  vorrq_u8(vceqq_u8(v, backslash), vceqq_u8(v, less)));
        if (vmaxvq_u8(hit) != 0) break;  // the byte loop below finds which
    }
#endif
    for (; i < count; i++) {
        if (needs_escape(bytes[i])) return i;
    }
    return count;
}
