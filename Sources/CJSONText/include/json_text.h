#ifndef MOCKIDP_JSON_TEXT_H
#define MOCKIDP_JSON_TEXT_H

#include <stddef.h>
#include <stdint.h>

/// The offset of the first byte of `bytes[0..<count]` that must be escaped inside a JSON string (a control
/// character below 0x20, `"`, a backslash, or `<`), or `count` when there is none. Sixteen bytes at a time where the
/// processor has SSE2 (every x86-64) or NEON (every arm64). The one definition of what JSON text escapes:
/// `JSONText.appendEscaped` escapes exactly the bytes this finds.
size_t mockidp_json_first_escape(const uint8_t *bytes, size_t count);

#endif
