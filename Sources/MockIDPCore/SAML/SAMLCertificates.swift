import MockIDPJOSE
import MockIDPXML
import Synchronization

/// Where SAML apps' signing certificates are kept between runs: the server's state directory, or nowhere (tests,
/// `mockidp token`).
package protocol SAMLCertificateVault: Sendable {
    /// The app's saved keys and certificates, the one that signs first; empty when none are saved or readable.
    func load(tenantID: String, clientID: String) -> [XMLSigningKey]
    /// Saves the app's keys and certificates, the one that signs first; nil, or why they could not be saved.
    func save(_ keys: [XMLSigningKey], tenantID: String, clientID: String) -> String?
}

/// Keeps nothing: each run makes its own certificates.
package struct NoSAMLCertificateVault: SAMLCertificateVault {
    /// A vault that keeps nothing.
    package init() {}
    package func load(tenantID: String, clientID: String) -> [XMLSigningKey] { [] }
    package func save(_ keys: [XMLSigningKey], tenantID: String, clientID: String) -> String? { nil }
}

/// Each SAML app's signing certificates, under their own lock: as Entra's, self-signed, RSA-2048,
/// `CN=Microsoft Azure Federated SSO Certificate`, valid three years, made at an app's first use and kept in the
/// vault; a rotation makes a new one that signs from then on, the old ones published until retired
/// (https://learn.microsoft.com/en-us/entra/identity/enterprise-apps/tutorial-manage-certificates-for-federated-single-sign-on).
package final class SAMLCertificates: Sendable {
    /// The certificate's subject name.
    package static let commonName = "Microsoft Azure Federated SSO Certificate"
    /// Three years.
    package static let validityDays = 3 * 365

    private let vault: any SAMLCertificateVault
    /// By `tenantID/clientID`: the keys, the one that signs first.
    private let keys = Mutex<[String: [XMLSigningKey]]>([:])

    init(vault: any SAMLCertificateVault) { self.vault = vault }

    /// The app's keys, the one that signs first: those already in use, else those the vault kept, else a new one
    /// (made outside the lock: an RSA key takes a while; a race keeps the first one stored).
    package func keys(tenantID: String, clientID: String) throws(XMLError) -> [XMLSigningKey] {
        let existing = existing(tenantID: tenantID, clientID: clientID)
        if !existing.isEmpty { return existing }
        let made = [try Self.make()]
        let name = Self.name(tenantID, clientID)
        let (stored, isNew) = keys.withLock { all -> ([XMLSigningKey], Bool) in
            if let raced = all[name] { return (raced, false) }
            all[name] = made
            return (made, true)
        }
        if isNew { _ = vault.save(stored, tenantID: tenantID, clientID: clientID) }
        return stored
    }

    /// The app's keys if it has any yet (in use, or kept by the vault), the one that signs first; never makes one.
    package func existing(tenantID: String, clientID: String) -> [XMLSigningKey] {
        let name = Self.name(tenantID, clientID)
        if let known = keys.withLock({ $0[name] }) { return known }
        let found = vault.load(tenantID: tenantID, clientID: clientID)
        guard !found.isEmpty else { return [] }
        return keys.withLock { all in
            if let raced = all[name] { return raced }
            all[name] = found
            return found
        }
    }

    /// A new key signs the app's Responses from now on; the previous ones stay published until `retire`. Returns the
    /// keys, the new one first, and why they could not be saved, if so.
    package func rotate(tenantID: String, clientID: String) throws(XMLError) -> (keys: [XMLSigningKey], saveProblem: String?) {
        let current = try keys(tenantID: tenantID, clientID: clientID)
        let new = try Self.make()
        let name = Self.name(tenantID, clientID)
        let all = keys.withLock { all -> [XMLSigningKey] in
            let next = [new] + (all[name] ?? current)
            all[name] = next
            return next
        }
        return (all, vault.save(all, tenantID: tenantID, clientID: clientID))
    }

    /// Every app keeps only the key that signs; returns the SHA-1 thumbprints (hex) of the certificates retired.
    @discardableResult
    package func retire() -> [String] {
        let (retired, kept) = keys.withLock { all -> ([String], [(String, [XMLSigningKey])]) in
            var retired: [String] = []
            var kept: [(String, [XMLSigningKey])] = []
            for (name, list) in all where list.count > 1 {
                retired += list.dropFirst().map { Self.thumbprint($0.certificate) }
                all[name] = Array(list.prefix(1))
                kept.append((name, Array(list.prefix(1))))
            }
            return (retired, kept)
        }
        for (name, list) in kept {
            let parts = name.split(separator: "/", maxSplits: 1).map(String.init)
            if parts.count == 2 { _ = vault.save(list, tenantID: parts[0], clientID: parts[1]) }
        }
        return retired
    }

    /// A certificate's SHA-1 thumbprint in upper-case hexadecimal, as Entra shows it.
    package static func thumbprint(_ certificate: Certificate) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in certificate.sha1Thumbprint { out += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: out, as: UTF8.self)
    }

    private static func name(_ tenantID: String, _ clientID: String) -> String { tenantID + "/" + clientID.lowercased() }

    /// A new RSA-2048 key and its certificate (also `saml-foreign-key`'s key, published nowhere).
    static func make() throws(XMLError) -> XMLSigningKey {
        do {
            let key = try PrivateKey.generateRSA(bits: 2048)
            let certificate = try Certificate.selfSigned(key: key, commonName: commonName, validityDays: validityDays)
            return try XMLSigningKey(privateKey: key, certificate: certificate)
        } catch let error as XMLError {
            throw error
        } catch {
            throw XMLError("a SAML signing certificate could not be made: \(error)")
        }
    }
}
