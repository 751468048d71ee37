#include "text_coding.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint8_t standard_alphabet[64] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const uint8_t url_alphabet[64] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

#if defined(__x86_64__)
/// Whether the processor has SSSE3 (`pshufb`): 1 or 0, and -1 until first asked. `cpuid` traps to the hypervisor on
/// a virtual machine, so it is asked once; two threads asking at once store the same answer.
static int has_ssse3 = -1;

static int ssse3(void) {
    int known = __atomic_load_n(&has_ssse3, __ATOMIC_RELAXED);
    if (known >= 0) return known;
    unsigned a, b, c, d;
    int answer = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) != 0;
    __atomic_store_n(&has_ssse3, answer, __ATOMIC_RELAXED);
    return answer;
}

/// Twelve bytes to sixteen characters a step (Wojciech Muła's method, as in aklomp/base64): each group of three
/// bytes is spread over four lanes holding one 6-bit index each, and each index is moved to its character by adding
/// the offset of its range (A-Z, a-z, 0-9, the two last characters) from a 16-entry table. Reads sixteen bytes a step,
/// so it stops while fewer than sixteen remain; returns the bytes it encoded (a multiple of twelve).
__attribute__((target("ssse3")))
static size_t encode_blocks(const uint8_t *bytes, size_t count, uint8_t *out, int url) {
    const __m128i spread = _mm_set_epi8(10, 11, 9, 10, 7, 8, 6, 7, 4, 5, 3, 4, 1, 2, 0, 1);
    const __m128i high_mask = _mm_set1_epi32(0x0fc0fc00), high_multiplier = _mm_set1_epi32(0x04000040);
    const __m128i low_mask = _mm_set1_epi32(0x003f03f0), low_multiplier = _mm_set1_epi32(0x01000010);
    // The offset from each range's first index to its first character: A-Z, a-z, ten times 0-9, then index 62's and
    // index 63's own character.
    const __m128i offsets = url ? _mm_setr_epi8(65, 71, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, '-' - 62, '_' - 63, 0, 0)
                                : _mm_setr_epi8(65, 71, -4, -4, -4, -4, -4, -4, -4, -4, -4, -4, '+' - 62, '/' - 63, 0, 0);
    const __m128i fifty_one = _mm_set1_epi8(51), twenty_five = _mm_set1_epi8(25);
    size_t i = 0;
    for (; i + 16 <= count; i += 12, out += 16) {
        __m128i in = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(bytes + i)), spread);
        __m128i indices = _mm_or_si128(_mm_mulhi_epu16(_mm_and_si128(in, high_mask), high_multiplier),
                                       _mm_mullo_epi16(_mm_and_si128(in, low_mask), low_multiplier));
        // Which range: 0 for 0-25; 1 for 26-51; 2-11 for 52-61; 12 and 13 for 62 and 63.
        __m128i range = _mm_sub_epi8(_mm_subs_epu8(indices, fifty_one), _mm_cmpgt_epi8(indices, twenty_five));
        _mm_storeu_si128((__m128i *)(void *)out, _mm_add_epi8(indices, _mm_shuffle_epi8(offsets, range)));
    }
    return i;
}
#endif

size_t mockidp_base64_encode(const uint8_t *bytes, size_t count, uint8_t *out, int url, int pad) {
    const uint8_t *table = url ? url_alphabet : standard_alphabet;
    uint8_t *start = out;
    size_t i = 0;
#if defined(__x86_64__)
    if (count >= 16 && ssse3()) {
        i = encode_blocks(bytes, count, out, url);
        out += i / 3 * 4;
    }
#endif
    for (; i + 3 <= count; i += 3, out += 4) {
        uint32_t n = (uint32_t)bytes[i] << 16 | (uint32_t)bytes[i + 1] << 8 | bytes[i + 2];
        out[0] = table[n >> 18];
        out[1] = table[n >> 12 & 63];
        out[2] = table[n >> 6 & 63];
        out[3] = table[n & 63];
    }
    size_t rest = count - i;
    if (rest > 0) {
        uint32_t n = (uint32_t)bytes[i] << 16 | (rest == 2 ? (uint32_t)bytes[i + 1] << 8 : 0);
        *out++ = table[n >> 18];
        *out++ = table[n >> 12 & 63];
        if (rest == 2) *out++ = table[n >> 6 & 63];
        else if (pad) *out++ = '=';
        if (pad) *out++ = '=';
    }
    return (size_t)(out - start);
}
