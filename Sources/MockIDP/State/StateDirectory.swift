import Foundation
import MockIDPCore
import MockIDPJOSE

/// The state directory (`--state-dir`, default `./.mockidp`): the local CA, the TLS server certificate and the
/// token-signing key, created on first start and reused after. Private key files have mode 0600.
public struct StateDirectory: Sendable {
    /// The folder.
    public let path: String

    /// The state directory at `path` (created on first use).
    public init(path: String) { self.path = path }

    /// File names inside the directory.
    enum File {
        static let caCertificate = "ca.pem"
        static let caKey = "ca-key.pem"
        static let serverCertificate = "server.pem"
        static let serverKey = "server-key.pem"
        static let signingKey = "signing-key.pem"
        static let signingCertificate = "signing-cert.pem"
    }

    /// The CA certificate clients trust (`<state-dir>/ca.pem`).
    public var caCertificatePath: String { url(File.caCertificate) }

    private func url(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Creates the directory (0700) if it does not exist.
    func ensureExists() throws(StateDirectoryError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw StateDirectoryError("\(path) exists and is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StateDirectoryError("cannot create the state directory \(path): \(error.localizedDescription)")
        }
    }

    func read(_ name: String) -> String? {
        guard let data = FileManager.default.contents(atPath: url(name)) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// Writes a file atomically (temporary file, then rename); `secret` files get mode 0600 from their creation.
    func write(_ name: String, _ text: String, secret: Bool) throws(StateDirectoryError) {
        let target = url(name)
        let temporary = target + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, secret ? 0o600 : 0o644)
        guard fd >= 0 else { throw StateDirectoryError("cannot write \(target): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count, rename(temporary, target) == 0 else {
            unlink(temporary)
            throw StateDirectoryError("cannot write \(target): \(String(cString: strerror(errno)))")
        }
    }

    /// The token-signing key: loaded, or generated (RSA-2048 with a self-signed certificate) and saved, so that
    /// `serve` and `token` on the same directory sign with the same key.
    public func signingKey() throws(StateDirectoryError) -> SigningKey {
        try ensureExists()
        if let keyPEM = read(File.signingKey), let certPEM = read(File.signingCertificate) {
            do {
                return SigningKey(privateKey: try PrivateKey(pem: keyPEM), certificate: try Certificate(pem: certPEM))
            } catch {
                throw StateDirectoryError("the signing key in \(path) cannot be read (\(error)); delete the folder for fresh keys")
            }
        }
        do {
            let key = try SigningKey.generate()
            try write(File.signingKey, try key.privateKey.pkcs8PEM, secret: true)
            try write(File.signingCertificate, key.certificate.pem, secret: false)
            return key
        } catch let error as StateDirectoryError {
            throw error
        } catch {
            throw StateDirectoryError("cannot create a signing key: \(error)")
        }
    }

    /// The TLS identity for `names`: the CA (created once, with a random identifier in its subject) and a server
    /// certificate naming every host; re-issued by the same CA when the names change or it nears expiry.
    func tlsIdentity(dnsNames: [String], ipAddresses: [String], now: Int) throws(StateDirectoryError) -> (chainPEM: String, keyPEM: String) {
        try ensureExists()
        do {
            let (ca, caKey) = try certificateAuthority()
            if let certPEM = read(File.serverCertificate), let keyPEM = read(File.serverKey),
               let leaf = try? Certificate(pem: certPEM), leaf.isIssued(by: ca),
               Set(leaf.subjectAlternativeNames) == Set(dnsNames + ipAddresses), leaf.notAfter > now + 86400 * 7 {
                return (certPEM, keyPEM)
            }
            let key = try PrivateKey.generateECP256()
            let leaf = try Certificate.serverCertificate(publicKey: key.publicKey, commonName: dnsNames.first ?? "localhost",
                                                         dnsNames: dnsNames, ipAddresses: ipAddresses, issuer: ca,
                                                         issuerKey: caKey, validityDays: 397)
            let chain = leaf.pem + ca.pem
            let keyPEM = try key.pkcs8PEM
            try write(File.serverKey, keyPEM, secret: true)
            try write(File.serverCertificate, chain, secret: false)
            return (chain, keyPEM)
        } catch let error as StateDirectoryError {
            throw error
        } catch {
            throw StateDirectoryError("cannot create the TLS certificate: \(error)")
        }
    }

    private func certificateAuthority() throws -> (Certificate, PrivateKey) {
        if let certPEM = read(File.caCertificate), let keyPEM = read(File.caKey) {
            return (try Certificate(pem: certPEM), try PrivateKey(pem: keyPEM))
        }
        let key = try PrivateKey.generateECP256()
        let identifier = Base64URL.encode(SecureRandom.bytes(6))
        let ca = try Certificate.certificateAuthority(key: key, commonName: "mockidp local CA \(identifier)",
                                                      organization: "mockidp", validityDays: 3650)
        try write(File.caKey, try key.pkcs8PEM, secret: true)
        try write(File.caCertificate, ca.pem, secret: false)
        return (ca, key)
    }
}

/// The state directory cannot be used; says why in one sentence.
public struct StateDirectoryError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file.
    public var description: String
    init(_ description: String) { self.description = description }
}
