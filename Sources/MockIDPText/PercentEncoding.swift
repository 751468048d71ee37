/// Percent-encoding (RFC 3986 §2.1): RFC 3986's unreserved characters kept, every other byte written `%XX` with
/// upper-case hex digits. Decoding is `URLEncodedForm`'s (MockIDPHTTP), which reads forms and paths.
package enum PercentEncoding {
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `s` percent-encoded as one component (a query value, a path segment): unreserved characters and the ASCII
    /// characters of `keeping` as they are, a space as `+` when `spaceAsPlus` (a form value), everything else as `%XX`.
    package static func encode(_ s: String, spaceAsPlus: Bool = false, keeping: String = "") -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        append(s.utf8, to: &out, spaceAsPlus: spaceAsPlus, keeping: keeping)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `bytes` percent-encoded to `out`: unreserved characters and those of `keeping` as they are, a space
    /// as `+` when `spaceAsPlus` (`application/x-www-form-urlencoded`), every other byte as `%XX`.
    package static func append(_ bytes: String.UTF8View, to out: inout [UInt8], spaceAsPlus: Bool = false, keeping: String = "") {
        for byte in bytes {
            if isUnreserved(byte) || (!keeping.isEmpty && byte < 0x80 && keeping.utf8.contains(byte)) {
                out.append(byte)
            } else if spaceAsPlus, byte == UInt8(ascii: " ") {
                out.append(UInt8(ascii: "+"))
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// RFC 3986 §2.3: ALPHA / DIGIT / "-" / "." / "_" / "~".
    @inline(__always)
    package static func isUnreserved(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
