import COpenSSL
import MockIDPText

/// An X.509 certificate: the `x5c` of a signing key, the local certificate authority, the HTTPS server's
/// certificate, or a client's certificate for assertions.
///
/// Everything a caller reads is decoded once, when the certificate is made, so reading is free and thread-safe.
package final class Certificate: @unchecked Sendable {
    let certificate: OwnedCertificate
    /// The DER encoding, exactly as read or as signed.
    package let der: [UInt8]
    /// The subject's public key.
    package let publicKey: PublicKey
    /// The subject's (last) common name, if it has one.
    package let subjectCommonName: String?
    /// The subject as RFC 4514 text, most specific first, e.g. `CN=mockidp CA, O=mockidp`.
    package let subjectText: String
    /// The start of validity, in Unix seconds.
    package let notBefore: Int
    /// The end of validity, in Unix seconds.
    package let notAfter: Int
    /// The DNS names as written and the IP addresses as text (`127.0.0.1`, `::1`) of the subjectAltName extension.
    package let subjectAlternativeNames: [String]
    /// Whether basicConstraints says `CA:TRUE`.
    package let isCertificateAuthority: Bool

    init(owning certificate: OwnedCertificate) throws(OpenSSLError) {
        let x509 = certificate.pointer
        self.certificate = certificate
        der = try LibCrypto.derBytes("i2d_X509") { i2d_X509(x509, $0) }
        publicKey = PublicKey(owning: OwnedKey(try LibCrypto.check(X509_get_pubkey(x509), "X509_get_pubkey")))
        let subject = try LibCrypto.check(X509_get_subject_name(x509), "X509_get_subject_name")
        let entries = try DistinguishedName.entries(of: subject)
        subjectCommonName = entries.last { $0.type == "CN" }?.value
        subjectText = DistinguishedName.text(of: entries)
        notBefore = try Self.unixTime(X509_get0_notBefore(x509), "X509_get0_notBefore")
        notAfter = try Self.unixTime(X509_get0_notAfter(x509), "X509_get0_notAfter")
        subjectAlternativeNames = try Self.alternativeNames(of: x509)
        isCertificateAuthority = X509_get_extension_flags(x509) & UInt32(EXFLAG_CA) != 0
    }

    /// Reads the first `-----BEGIN CERTIFICATE-----` block in PEM text (other blocks before it are skipped).
    package convenience init(pem: String) throws(OpenSSLError) {
        let x509 = try LibCrypto.withReadBIO(pem) { bio throws(OpenSSLError) in
            try LibCrypto.check(PEM_read_bio_X509(bio, nil, nil, nil), "PEM_read_bio_X509")
        }
        try self.init(owning: OwnedCertificate(x509))
    }

    /// Reads a DER certificate; every byte must belong to it.
    package convenience init(der: [UInt8]) throws(OpenSSLError) {
        let x509 = try LibCrypto.withBytes(der) { buffer throws(OpenSSLError) in
            guard let start = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                throw LibCrypto.failure("d2i_X509", "no bytes")
            }
            var cursor: UnsafePointer<UInt8>? = start
            let x509 = OwnedCertificate(try LibCrypto.check(d2i_X509(nil, &cursor, buffer.count), "d2i_X509"))
            guard cursor == start + buffer.count else { throw LibCrypto.failure("d2i_X509", "trailing bytes after the certificate") }
            return x509
        }
        try self.init(owning: x509)
    }

    /// Every `-----BEGIN CERTIFICATE-----` block in PEM text, in order (a server certificate and its chain, or
    /// a bundle of trusted certificates). Throws when there is none or when any block is not a certificate.
    package static func parseChain(pem: String) throws(OpenSSLError) -> [Certificate] {
        let count = PEMText.count(of: "-----BEGIN CERTIFICATE-----", in: pem)
        guard count > 0 else { throw LibCrypto.failure("Certificate.parseChain", "no certificate in the text") }
        let certificates = try LibCrypto.withReadBIO(pem) { bio throws(OpenSSLError) in
            var read: [OwnedCertificate] = []
            for _ in 0..<count {
                read.append(OwnedCertificate(try LibCrypto.check(PEM_read_bio_X509(bio, nil, nil, nil), "PEM_read_bio_X509")))
            }
            return read
        }
        var chain: [Certificate] = []
        for certificate in certificates { chain.append(try Certificate(owning: certificate)) }
        return chain
    }

    /// The certificate as PEM text (`-----BEGIN CERTIFICATE-----`, 64-character lines).
    package var pem: String { PEMText.encode(der, label: "CERTIFICATE") }

    /// SHA-1 over the DER: what `x5t` and Entra's `kid` are made of.
    package var sha1Thumbprint: [UInt8] { Digest.sha1(der) }

    /// SHA-256 over the DER: what `x5t#S256` is made of.
    package var sha256Thumbprint: [UInt8] { Digest.sha256(der) }

    /// Whether `issuer` issued this certificate: its subject name is this certificate's issuer name and its key
    /// verifies this certificate's signature. Validity dates, key usage and constraints are not checked (a
    /// self-signed signing certificate counts as issued by itself).
    package func isIssued(by issuer: Certificate) -> Bool {
        do {
            let issuerName = try LibCrypto.check(X509_get_issuer_name(certificate.pointer), "X509_get_issuer_name")
            let subjectName = try LibCrypto.check(X509_get_subject_name(issuer.certificate.pointer), "X509_get_subject_name")
            try LibCrypto.check(X509_NAME_cmp(issuerName, subjectName) == 0, "X509_NAME_cmp")
            try LibCrypto.check(X509_verify(certificate.pointer, issuer.publicKey.key.pointer) == 1, "X509_verify")
            return true
        } catch {
            return false
        }
    }

    // MARK: Decoding

    private static func unixTime(_ time: UnsafePointer<ASN1_TIME>?, _ operation: StaticString) throws(OpenSSLError) -> Int {
        var parts = tm()
        try LibCrypto.check(ASN1_TIME_to_tm(try LibCrypto.check(time, operation), &parts) == 1, "ASN1_TIME_to_tm")
        return CivilTime.unixSeconds(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    private static func alternativeNames(of x509: OpaquePointer) throws(OpenSSLError) -> [String] {
        var critical: Int32 = 0
        guard let decoded = X509_get_ext_d2i(x509, NID_subject_alt_name, &critical, nil) else {
            // -1: no such extension. Anything else: present but undecodable, or present twice.
            try LibCrypto.check(critical == -1, "X509_get_ext_d2i")
            return []
        }
        let names = OpaquePointer(decoded)
        defer { GENERAL_NAMES_free(names) }
        var result: [String] = []
        for index in 0..<max(0, OPENSSL_sk_num(names)) {
            let general = try LibCrypto.check(OPENSSL_sk_value(names, index), "OPENSSL_sk_value")
                .assumingMemoryBound(to: GENERAL_NAME.self)
            switch general.pointee.type {
            case GEN_DNS:
                result.append(String(decoding: bytes(of: general.pointee.d.dNSName), as: UTF8.self))
            case GEN_IPADD:
                if let text = IPAddressText.format(bytes(of: general.pointee.d.iPAddress)) { result.append(text) }
            default:
                continue  // e-mail, URI and directory names are not used here
            }
        }
        return result
    }

    private static func bytes(of string: UnsafeMutablePointer<ASN1_STRING>?) -> [UInt8] {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(max(0, ASN1_STRING_length(string)))))
    }
}

/// Owns one `X509` and frees it.
final class OwnedCertificate: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { X509_free(pointer) }
}
