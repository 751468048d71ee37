import CTextCoding

/// Base64url without padding (RFC 4648 §5), as JOSE uses it; standard base64 for `x5c`.
package enum Base64URL {
    private static let urlAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let decodeTable: [Int8] = {
        var t = [Int8](repeating: -1, count: 256)
        for (i, c) in urlAlphabet.enumerated() { t[Int(c)] = Int8(i) }
        t[Int(UInt8(ascii: "+"))] = 62
        t[Int(UInt8(ascii: "/"))] = 63
        return t
    }()

    /// Base64url text, no padding.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: encodeBytes(bytes, url: true, pad: false), as: UTF8.self)
    }

    /// Base64url text of an array, no padding. This and the slice's overload are what the token path calls: a
    /// caller in another module reaches the generic `encode(_:)` unspecialized, with a witness-table call and a type
    /// metadata lookup every time.
    package static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { encodeBuffer($0) }
    }

    /// Base64url text of part of an array, no padding.
    package static func encode(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.withUnsafeBytes { encodeBuffer($0) }
    }

    /// Base64url text of part of an array, no padding, between ASCII `prefix` and `suffix`, made as one string
    /// (Entra's refresh hint `rh` is `0.{base64url}.`).
    package static func encode(_ bytes: ArraySlice<UInt8>, between prefix: StaticString, and suffix: StaticString) -> String {
        let text = textLength(of: bytes.count, pad: false)
        return String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + text + suffix.utf8CodeUnitCount) { out in
            var at = 0
            // `withUTF8Buffer`, not `utf8Start`: a one-character literal may be held as a scalar, without a pointer.
            prefix.withUTF8Buffer { for byte in $0 { out[at] = byte; at += 1 } }
            at += bytes.withUnsafeBytes { write($0, url: true, pad: false, to: UnsafeMutableBufferPointer(rebasing: out[at...])) }
            suffix.withUTF8Buffer { for byte in $0 { out[at] = byte; at += 1 } }
            return at
        }
    }

    private static func encodeBuffer(_ buffer: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: textLength(of: buffer.count, pad: false)) { write(buffer, url: true, pad: false, to: $0) }
    }

    /// Standard base64 text with padding (for `x5c` and PEM bodies).
    package static func encodeStandard(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: encodeBytes(bytes, url: false, pad: true), as: UTF8.self)
    }

    /// Decodes base64url or standard base64, padded or not; nil when the text is not base64.
    /// Whitespace is refused, except where `ignoringWhitespace` (PEM bodies, `x5c` with line breaks).
    /// Padding, when present, must complete the last group of four exactly, and the unused low bits of the last
    /// character must be zero (RFC 4648 §3.5), so every byte string has exactly one accepted unpadded form.
    package static func decode(_ text: some StringProtocol, ignoringWhitespace: Bool = false) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var acc: UInt32 = 0
        var bits = 0
        var symbols = 0
        var padding = 0
        for c in text.utf8 {
            if c == UInt8(ascii: "=") { padding += 1; continue }
            if ignoringWhitespace, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { continue }
            guard padding == 0 else { return nil }
            let v = decodeTable[Int(c)]
            guard v >= 0 else { return nil }
            symbols += 1
            acc = acc << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((acc >> UInt32(bits)) & 0xFF))
            }
        }
        // 6 leftover bits can never come from whole bytes; leftover bits that are set mean a non-canonical text.
        guard bits < 6, acc & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        if padding > 0, symbols % 4 == 0 || (symbols + padding) % 4 != 0 { return nil }
        return out
    }

    /// Whether `text` uses only the base64url alphabet, without padding: the form JOSE requires (RFC 7515 §2).
    static func isURLSafeUnpadded(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { c in
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }

    /// Appends the base64url text (no padding) of `bytes` to `out`, with no intermediate `String`.
    package static func append(_ bytes: some Collection<UInt8>, to out: inout [UInt8]) {
        appendBytes(bytes, url: true, pad: false, to: &out)
    }

    /// Appends the base64url text (no padding) of an array: see `encode(_:)` of an array for why it has its own.
    package static func append(_ bytes: [UInt8], to out: inout [UInt8]) {
        bytes.withUnsafeBytes { appendBuffer($0, url: true, pad: false, to: &out) }
    }

    private static func encodeBytes(_ bytes: some Collection<UInt8>, url: Bool, pad: Bool) -> [UInt8] {
        var out: [UInt8] = []
        appendBytes(bytes, url: url, pad: pad, to: &out)
        return out
    }

    /// Encodes from contiguous memory where the collection has it (arrays, slices, `Data`-like buffers): the
    /// token path's payloads and signatures; other collections are copied first.
    private static func appendBytes(_ bytes: some Collection<UInt8>, url: Bool, pad: Bool, to out: inout [UInt8]) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            appendBuffer(UnsafeRawBufferPointer(buffer), url: url, pad: pad, to: &out)
        }
        if done == nil {
            Array(bytes).withUnsafeBytes { appendBuffer($0, url: url, pad: pad, to: &out) }
        }
    }

    /// The text of `input`, written in place into `out`'s grown storage.
    private static func appendBuffer(_ input: UnsafeRawBufferPointer, url: Bool, pad: Bool, to out: inout [UInt8]) {
        let length = textLength(of: input.count, pad: pad)
        guard length > 0 else { return }
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: length))
        out.withUnsafeMutableBufferPointer { buffer in
            _ = write(input, url: url, pad: pad, to: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// The length of the text of `count` bytes.
    private static func textLength(of count: Int, pad: Bool) -> Int {
        let rest = count % 3
        return count / 3 * 4 + (rest == 0 ? 0 : pad ? 4 : rest + 1)
    }

    /// Writes the text of `input` at the start of `buffer`, which has room for it (`textLength`); returns its length.
    /// `mockidp_base64_encode` (`CTextCoding`) writes it twelve bytes at a time, where Swift went three bytes a step:
    /// the token path encodes each token's payload and signature.
    private static func write(_ input: UnsafeRawBufferPointer, url: Bool, pad: Bool,
                              to buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(buffer.count >= textLength(of: input.count, pad: pad), "base64: the buffer is too small")
        guard let bytes = input.baseAddress, let out = buffer.baseAddress, !input.isEmpty else { return 0 }
        return mockidp_base64_encode(bytes.assumingMemoryBound(to: UInt8.self), input.count, out, url ? 1 : 0, pad ? 1 : 0)
    }
}
