#ifndef MOCKIDP_TEXT_CODING_H
#define MOCKIDP_TEXT_CODING_H

#include <stddef.h>
#include <stdint.h>

/// The offset of the first byte of `bytes[0..<count]` that must be escaped inside a JSON string (a control
/// character below 0x20, `"`, a backslash, or `<`), or `count` when there is none. Sixteen bytes at a time where the
/// processor has SSE2 (every x86-64) or NEON (every arm64). The one definition of what JSON text escapes:
/// `JSONText.appendEscaped` escapes exactly the bytes this finds.
size_t mockidp_json_first_escape(const uint8_t *bytes, size_t count);

/// Writes the base64 text (RFC 4648) of `bytes[0..<count]` at `out`, which has room for it (`count / 3 * 4` plus 4),
/// and returns its length: the URL and filename-safe alphabet (RFC 4648 §5) when `url` is nonzero, else the standard
/// one (RFC 4648 §4); `=` padding when `pad` is nonzero. Twelve bytes at a time where the processor has SSSE3 (checked
/// once, at run time), the rest three at a time.
size_t mockidp_base64_encode(const uint8_t *bytes, size_t count, uint8_t *out, int url, int pad);

/// What a form component (`application/x-www-form-urlencoded`, a query) holds, as bits: 1 when it has a `%` (or a
/// `+`, when `plus_is_space` is nonzero), that is, when it must be decoded; 2 when it has a NUL byte; 4 when it has
/// a byte past ASCII. Sixteen bytes at a time with SSE2 or NEON, in one pass.
int mockidp_form_scan(const uint8_t *bytes, size_t count, int plus_is_space);

#endif
