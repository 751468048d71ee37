/// IPv4 addresses as text.
package enum IPv4Text {
    /// `a.b.c.d` for an address in host byte order, as `inet_ntop` writes it. glibc's `inet_ntop` writes it with
    /// `sprintf`, which cost 2k instructions a request (every request's client address is written).
    package static func dotted(_ address: UInt32) -> String {
        String(unsafeUninitializedCapacity: 15) { out in
            var o = 0
            for shift in stride(from: 24, through: 0, by: -8) {
                let octet = Int(address >> UInt32(shift) & 0xFF)
                if shift != 24 { out[o] = UInt8(ascii: "."); o += 1 }
                if octet >= 100 { out[o] = UInt8(ascii: "0") + UInt8(octet / 100); o += 1 }
                if octet >= 10 { out[o] = UInt8(ascii: "0") + UInt8(octet / 10 % 10); o += 1 }
                out[o] = UInt8(ascii: "0") + UInt8(octet % 10)
                o += 1
            }
            return o
        }
    }
}
