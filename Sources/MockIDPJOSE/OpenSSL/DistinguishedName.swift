import COpenSSL

/// Reading X.509 names (subject, issuer) into Swift values and RFC 4514 text.
enum DistinguishedName {
    /// One attribute of a name: its short type (`CN`, `O`, or a dotted OID), value, and the RDN it belongs to.
    struct Entry: Equatable {
        var type: String
        var value: String
        var set: Int32
    }

    /// The attributes of an `X509_NAME`, in encoded order (least specific first).
    static func entries(of name: OpaquePointer) throws(OpenSSLError) -> [Entry] {
        var result: [Entry] = []
        for index in 0..<max(0, X509_NAME_entry_count(name)) {
            let entry = try LibCrypto.check(X509_NAME_get_entry(name, index), "X509_NAME_get_entry")
            let object = try LibCrypto.check(X509_NAME_ENTRY_get_object(entry), "X509_NAME_ENTRY_get_object")
            let data = try LibCrypto.check(X509_NAME_ENTRY_get_data(entry), "X509_NAME_ENTRY_get_data")
            var utf8: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&utf8, data)
            try LibCrypto.check(length >= 0 && utf8 != nil, "ASN1_STRING_to_UTF8")
            defer { COpenSSL_free(utf8) }
            let value = String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
            result.append(Entry(type: try typeName(of: object), value: value, set: X509_NAME_ENTRY_set(entry)))
        }
        return result
    }

    private static func typeName(of object: OpaquePointer) throws(OpenSSLError) -> String {
        let nid = OBJ_obj2nid(object)
        if nid != NID_undef, let short = OBJ_nid2sn(nid) { return String(cString: short) }
        var buffer = [CChar](repeating: 0, count: 128)
        let length = buffer.withUnsafeMutableBufferPointer { OBJ_obj2txt($0.baseAddress, Int32($0.count), object, 1) }
        try LibCrypto.check(length > 0 && Int(length) < buffer.count, "OBJ_obj2txt")
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// RFC 4514 text, most specific RDN first, RDNs joined by ", " and multi-valued RDNs by "+".
    static func text(of entries: [Entry]) -> String {
        var rdns: [[Entry]] = []
        for entry in entries {
            if let last = rdns.last?.last, last.set == entry.set { rdns[rdns.count - 1].append(entry) } else { rdns.append([entry]) }
        }
        return rdns.reversed().map { rdn in
            rdn.map { "\($0.type)=\(escape($0.value))" }.joined(separator: "+")
        }.joined(separator: ", ")
    }

    /// RFC 4514 §2.4 escaping of an attribute value.
    static func escape(_ value: String) -> String {
        var out = ""
        let scalars = Array(value.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let special: Bool
            switch scalar {
            case "\"", "+", ",", ";", "<", ">", "\\": special = true
            case "#": special = index == 0
            case " ": special = index == 0 || index == scalars.count - 1
            default: special = false
            }
            if scalar == "\0" { out += "\\00"; continue }
            if special { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out
    }
}
