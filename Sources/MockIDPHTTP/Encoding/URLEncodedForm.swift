import CTextCoding
import Glibc
import MockIDPText

/// Strict `application/x-www-form-urlencoded` and query-string coding (WHATWG URL §5, RFC 3986 §2.1).
///
/// Decoding is strict where browsers are lenient: a '%' not followed by two hex digits, decoded bytes that
/// are not UTF-8, and NUL characters are errors rather than passed through, so that a request carrying them
/// is refused instead of being half-understood.
package enum URLEncodedForm {
    /// Decodes `name=value` pairs separated by '&': '+' is a space, `%XX` a byte; order and duplicates are kept,
    /// a piece without '=' has an empty value, and empty pieces (`a=1&&b=2`, a trailing '&') are skipped.
    package static func decode(_ bytes: some Collection<UInt8>) throws(URLEncodingError) -> [(name: String, value: String)] {
        try withBuffer(bytes) { buffer throws(URLEncodingError) in try decodePairs(buffer, 0..<buffer.count) }
    }

    /// A request body, decoded where it lies. A caller in another module reaches the generic `decode(_:)`
    /// unspecialized, and with it `withContiguousStorageIfAvailable` through the protocol's witness table and a type
    /// metadata lookup on every call.
    package static func decode(_ bytes: [UInt8]) throws(URLEncodingError) -> [(name: String, value: String)] {
        try withBuffer(bytes) { buffer throws(URLEncodingError) in try decodePairs(buffer, 0..<buffer.count) }
    }

    /// Decodes a query string or form body given as text; see `decode(_:)` for bytes.
    package static func decode(_ string: String) throws(URLEncodingError) -> [(name: String, value: String)] {
        try decode(string.utf8)
    }

    /// Encodes pairs as `name=value&…`: RFC 3986 unreserved characters are kept, a space becomes '+', all else `%XX`.
    package static func encode(_ pairs: [(name: String, value: String)]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(pairs.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 })
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            PercentEncoding.append(pair.name.utf8, to: &out, spaceAsPlus: true)
            out.append(UInt8(ascii: "="))
            PercentEncoding.append(pair.value.utf8, to: &out, spaceAsPlus: true)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (a '+' stays a '+', as in a path); the result must be UTF-8 without NUL.
    package static func percentDecode(_ s: some StringProtocol) throws(URLEncodingError) -> String {
        try withBuffer(s.utf8) { buffer throws(URLEncodingError) in
            try decodeComponent(buffer, 0..<buffer.count, plusIsSpace: false)
        }
    }

    // MARK: - Decoding

    /// Runs `body` over contiguous bytes, copying only when the collection is not contiguous.
    private static func withBuffer<C: Collection<UInt8>, T>(
        _ bytes: C, _ body: (UnsafeBufferPointer<UInt8>) throws(URLEncodingError) -> T
    ) throws(URLEncodingError) -> T {
        let direct = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(URLEncodingError) -> T in try body(buffer) }
        }
        if let direct { return try direct.get() }
        return try Array(bytes).withUnsafeBufferPointer { buffer in
            Result { () throws(URLEncodingError) -> T in try body(buffer) }
        }.get()
    }

    /// Decodes the pairs in `buffer[range]`; `offset`s in errors are positions in `buffer`.
    static func decodePairs(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) throws(URLEncodingError) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        guard !range.isEmpty, let base = buffer.baseAddress else { return pairs }
        // The offset of the first `byte` in `from..<to`, or `to`: memchr, not a loop a byte at a time.
        func first(_ byte: UInt8, from: Int, to: Int) -> Int {
            guard from < to, let found = memchr(base + from, Int32(byte), to - from) else { return to }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        // One pair more than there are '&'s at most: room made once, not grown pair by pair.
        var separators = 0
        var at = first(UInt8(ascii: "&"), from: range.lowerBound, to: range.upperBound)
        while at < range.upperBound {
            separators += 1
            at = first(UInt8(ascii: "&"), from: at + 1, to: range.upperBound)
        }
        pairs.reserveCapacity(separators + 1)
        var start = range.lowerBound
        let end = range.upperBound
        while start < end {
            let pieceEnd = first(UInt8(ascii: "&"), from: start, to: end)
            if pieceEnd > start {
                let equals = first(UInt8(ascii: "="), from: start, to: pieceEnd)
                if equals < pieceEnd {
                    let name = try decodeComponent(buffer, start..<equals, plusIsSpace: true)
                    let value = try decodeComponent(buffer, (equals + 1)..<pieceEnd, plusIsSpace: true)
                    pairs.append((name: name, value: value))
                } else {
                    pairs.append((name: try decodeComponent(buffer, start..<pieceEnd, plusIsSpace: true), value: ""))
                }
            }
            start = pieceEnd + 1
        }
        return pairs
    }

    /// Decodes `buffer[range]`; `offset`s in errors are positions in `buffer`.
    static func decodeComponent(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, plusIsSpace: Bool
    ) throws(URLEncodingError) -> String {
        let slice = UnsafeBufferPointer(rebasing: buffer[range])
        // One pass, sixteen bytes at a time (`CTextCoding`): whether there is anything to decode, and whether the
        // text as it stands may be taken whole, rather than two passes a byte at a time.
        let found = slice.baseAddress.map { mockidp_form_scan($0, slice.count, plusIsSpace ? 1 : 0) } ?? 0
        if found & 1 == 0 {
            if found & 2 != 0 { throw URLEncodingError(.nulCharacter, offset: range.lowerBound) }
            if found & 4 == 0 { return String(decoding: slice, as: UTF8.self) }
            return try validated(slice, offset: range.lowerBound)
        }
        // Decoded into scratch memory (on the stack when small), then checked and made a string: one allocation, not
        // two. The text never grows in decoding.
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: slice.count) { bytes throws(URLEncodingError) in
            var count = 0
            var i = range.lowerBound
            while i < range.upperBound {
                let byte = buffer[i]
                if byte == UInt8(ascii: "%") {
                    guard i + 2 < range.upperBound,
                          let high = hexValue(buffer[i + 1]), let low = hexValue(buffer[i + 2])
                    else { throw URLEncodingError(.invalidPercentEscape, offset: i) }
                    bytes[count] = high << 4 | low
                    i += 3
                } else {
                    bytes[count] = plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
                    i += 1
                }
                count += 1
            }
            return try validated(UnsafeBufferPointer(rebasing: bytes[..<count]), offset: range.lowerBound)
        }
    }

    private static func validated(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int) throws(URLEncodingError) -> String {
        var ascii = true
        for byte in bytes {
            if byte == 0 { throw URLEncodingError(.nulCharacter, offset: offset) }
            if byte >= 0x80 { ascii = false }
        }
        // ASCII is valid UTF-8 as it stands; `String(validating:)` is generic here and runs unspecialized even then.
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw URLEncodingError(.invalidUTF8, offset: offset)
        }
        return string
    }

    @inline(__always)
    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
