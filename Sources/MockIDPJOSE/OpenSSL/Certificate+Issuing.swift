import COpenSSL

extension Certificate {
    /// A self-signed end-entity certificate for a token signing key, published as the key's `x5c`
    /// (CA:FALSE, keyUsage digitalSignature; Entra's keys carry such a certificate).
    package static func selfSigned(key: PrivateKey, commonName: String, validityDays: Int) throws(OpenSSLError) -> Certificate {
        try issue(
            subject: [("CN", commonName)], publicKey: key.publicKey, issuer: nil, signer: key, validityDays: validityDays,
            extensions: [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature"),
                (NID_subject_key_identifier, "hash"),
            ])
    }

    /// A self-signed certificate authority that may issue end-entity certificates only
    /// (basicConstraints critical CA:TRUE pathlen:0; keyUsage critical keyCertSign, cRLSign; a key identifier).
    package static func certificateAuthority(
        key: PrivateKey, commonName: String, organization: String?, validityDays: Int
    ) throws(OpenSSLError) -> Certificate {
        try issue(
            subject: (organization.map { [("O", $0)] } ?? []) + [("CN", commonName)],
            publicKey: key.publicKey, issuer: nil, signer: key, validityDays: validityDays,
            extensions: [
                (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
                (NID_key_usage, "critical,keyCertSign,cRLSign"),
                (NID_subject_key_identifier, "hash"),
            ])
    }

    /// A TLS server certificate for `publicKey`, issued by `issuer` (whose private key is `issuerKey`):
    /// CA:FALSE; keyUsage critical digitalSignature (and keyEncipherment for RSA); extendedKeyUsage serverAuth;
    /// subjectAltName with every DNS name and IP address (real `IP:` entries, as TLS clients require);
    /// subject and authority key identifiers.
    package static func serverCertificate(
        publicKey: PublicKey, commonName: String, dnsNames: [String], ipAddresses: [String],
        issuer: Certificate, issuerKey: PrivateKey, validityDays: Int
    ) throws(OpenSSLError) -> Certificate {
        try LibCrypto.check(
            X509_check_private_key(issuer.certificate.pointer, issuerKey.key.pointer) == 1, "X509_check_private_key")
        let keyUsage = publicKey.key.kind == .rsa
            ? "critical,digitalSignature,keyEncipherment" : "critical,digitalSignature"
        return try issue(
            subject: [("CN", commonName)], publicKey: publicKey, issuer: issuer, signer: issuerKey,
            validityDays: validityDays,
            extensions: [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, keyUsage),
                (NID_ext_key_usage, "serverAuth"),
                (NID_subject_key_identifier, "hash"),
                (NID_authority_key_identifier, "keyid:always"),
            ],
            alternativeNames: (dnsNames: dnsNames, ipAddresses: ipAddresses))
    }

    /// Builds, signs (SHA-256) and decodes a v3 certificate. The serial is 16 random bytes, kept positive;
    /// validity runs from one hour ago (tolerating clock skew) to `validityDays` from now.
    private static func issue(
        subject: [(type: String, value: String)], publicKey: PublicKey, issuer: Certificate?, signer: PrivateKey,
        validityDays: Int, extensions: [(nid: Int32, value: String)],
        alternativeNames: (dnsNames: [String], ipAddresses: [String])? = nil
    ) throws(OpenSSLError) -> Certificate {
        guard (-36_500...36_500).contains(validityDays) else {
            throw LibCrypto.failure("Certificate", "validity of \(validityDays) days is outside ±100 years")
        }
        let certificate = OwnedCertificate(try LibCrypto.check(X509_new(), "X509_new"))
        let x509 = certificate.pointer
        try LibCrypto.check(X509_set_version(x509, Int(X509_VERSION_3)) == 1, "X509_set_version")

        var serial = SecureRandom.bytes(16)
        serial[0] &= 0x7F  // INTEGER is signed: a clear top bit keeps the serial positive (RFC 5280 §4.1.2.2)
        let serialNumber = try LibCrypto.bignum(serial)
        defer { BN_free(serialNumber) }
        try LibCrypto.check(BN_to_ASN1_INTEGER(serialNumber, X509_get_serialNumber(x509)) != nil, "BN_to_ASN1_INTEGER")

        try LibCrypto.check(X509_gmtime_adj(X509_getm_notBefore(x509), -3_600) != nil, "X509_gmtime_adj")
        try LibCrypto.check(X509_gmtime_adj(X509_getm_notAfter(x509), validityDays * 86_400) != nil, "X509_gmtime_adj")

        let name = try LibCrypto.check(X509_NAME_new(), "X509_NAME_new")
        defer { X509_NAME_free(name) }
        for (type, value) in subject {
            let bytes = Array(value.utf8)
            let status = bytes.withUnsafeBufferPointer {
                X509_NAME_add_entry_by_txt(name, type, MBSTRING_UTF8, $0.baseAddress, Int32($0.count), -1, 0)
            }
            try LibCrypto.check(status == 1, "X509_NAME_add_entry_by_txt")
        }
        try LibCrypto.check(X509_set_subject_name(x509, name) == 1, "X509_set_subject_name")
        let issuerName = try issuer.map { issuer throws(OpenSSLError) in
            try LibCrypto.check(X509_get_subject_name(issuer.certificate.pointer), "X509_get_subject_name")
        } ?? name
        try LibCrypto.check(X509_set_issuer_name(x509, issuerName) == 1, "X509_set_issuer_name")
        try LibCrypto.check(X509_set_pubkey(x509, publicKey.key.pointer) == 1, "X509_set_pubkey")

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.certificate.pointer ?? x509, x509, nil, nil, 0)
        for (nid, value) in extensions {
            let extensionValue = try LibCrypto.check(X509V3_EXT_conf_nid(nil, &context, nid, value), "X509V3_EXT_conf_nid")
            defer { X509_EXTENSION_free(extensionValue) }
            try LibCrypto.check(X509_add_ext(x509, extensionValue, -1) == 1, "X509_add_ext")
        }
        if let alternativeNames, !(alternativeNames.dnsNames.isEmpty && alternativeNames.ipAddresses.isEmpty) {
            try addAlternativeNames(to: x509, dnsNames: alternativeNames.dnsNames, ipAddresses: alternativeNames.ipAddresses)
        }

        let digest = try MessageDigest.sha256.get()
        try LibCrypto.check(X509_sign(x509, signer.key.pointer, digest.pointer) > 0, "X509_sign")
        return try Certificate(owning: certificate)
    }

    /// Adds subjectAltName from GENERAL_NAME values built one by one, so a name can never be read as
    /// configuration syntax (a comma in a name would otherwise start a new entry).
    private static func addAlternativeNames(
        to x509: OpaquePointer, dnsNames: [String], ipAddresses: [String]
    ) throws(OpenSSLError) {
        let names = try LibCrypto.check(OPENSSL_sk_new_null(), "OPENSSL_sk_new_null")
        defer { GENERAL_NAMES_free(names) }
        for dnsName in dnsNames {
            // Letters, digits, hyphens, dots, underscores and a wildcard: internationalised names must arrive as
            // A-labels (punycode), since the IA5String is ASCII.
            guard !dnsName.isEmpty, dnsName.utf8.allSatisfy(isDNSNameCharacter) else {
                throw LibCrypto.failure("Certificate.serverCertificate", "\"\(dnsName)\" is not an ASCII DNS name")
            }
            let string = try LibCrypto.check(ASN1_IA5STRING_new(), "ASN1_IA5STRING_new")
            let bytes = Array(dnsName.utf8)
            let status = bytes.withUnsafeBufferPointer { ASN1_STRING_set(string, $0.baseAddress, Int32($0.count)) }
            do {
                try LibCrypto.check(status == 1, "ASN1_STRING_set")
            } catch {
                ASN1_IA5STRING_free(string)
                throw error
            }
            try append(string, type: GEN_DNS, to: names)
        }
        for address in ipAddresses {
            let octets: UnsafeMutablePointer<ASN1_OCTET_STRING>
            do {
                octets = try LibCrypto.check(a2i_IPADDRESS(address), "a2i_IPADDRESS")
            } catch {
                throw LibCrypto.failure("Certificate.serverCertificate", "\"\(address)\" is not an IP address")
            }
            try append(octets, type: GEN_IPADD, to: names)
        }
        try LibCrypto.check(
            X509_add1_ext_i2d(x509, NID_subject_alt_name, UnsafeMutableRawPointer(names), 0, UInt(X509V3_ADD_DEFAULT)) == 1,
            "X509_add1_ext_i2d")
    }

    private static func isDNSNameCharacter(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"): true
        default: false
        }
    }

    /// Wraps `value` (which the list then owns, or which is freed on failure) in a GENERAL_NAME of `type`.
    private static func append(
        _ value: UnsafeMutablePointer<ASN1_STRING>, type: Int32, to names: OpaquePointer
    ) throws(OpenSSLError) {
        let general: UnsafeMutablePointer<GENERAL_NAME>
        do {
            general = try LibCrypto.check(GENERAL_NAME_new(), "GENERAL_NAME_new")
        } catch {
            ASN1_STRING_free(value)
            throw error
        }
        GENERAL_NAME_set0_value(general, type, UnsafeMutableRawPointer(value))
        do {
            try LibCrypto.check(OPENSSL_sk_push(names, UnsafeRawPointer(general)) > 0, "OPENSSL_sk_push")
        } catch {
            GENERAL_NAME_free(general)
            throw error
        }
    }
}
