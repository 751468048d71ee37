#if canImport(Glibc)
import Glibc
#endif
import MockIDPConfiguration
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
        static let lock = ".lock"
        static let identityHeader = "identity-header"
    }

    /// The CA certificate clients trust (`<state-dir>/ca.pem`).
    public var caCertificatePath: String { url(File.caCertificate) }

    /// `name` inside the directory, joined as NSString's `appendingPathComponent` joined it.
    private func url(_ name: String) -> String {
        path.isEmpty ? name : path.hasSuffix("/") ? path + name : path + "/" + name
    }

    /// Creates the directory if it does not exist: it and each missing parent with mode 0700, as Foundation's
    /// `createDirectory(withIntermediateDirectories:attributes:)` made them. Plain POSIX calls, like `read` and
    /// `write`: a first start then runs none of FileManager's and URL's code, whose pages (Foundation's code is not
    /// laid out by scripts/link-order) would stay in a first start's idle RSS.
    func ensureExists() throws(StateDirectoryError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw StateDirectoryError("\(path) exists and is not a directory") }
            return
        }
        if let reason = Self.makeDirectories(path) {
            throw StateDirectoryError("cannot create the state directory \(path): \(reason)")
        }
    }

    /// `mkdir -p`, each directory made with mode 0700; why not, when it cannot.
    private static func makeDirectories(_ path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR ? nil : "\(path) is not a directory" }
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if let slash = trimmed.lastIndex(of: "/"), slash != trimmed.startIndex,
           let reason = makeDirectories(String(trimmed[..<slash])) {
            return reason
        }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { return String(cString: strerror(errno)) }
        // Exactly 0700 whatever the umask, as the attributes Foundation set.
        _ = chmod(path, 0o700)
        return nil
    }

    /// Runs `body` holding an exclusive `flock(2)` on `<state-dir>/.lock`, so that two processes starting at once on
    /// one new directory (`serve` twice, or `serve` and `token`) create its keys once and both use them, instead of each
    /// publishing a key of its own. The lock ends with the process, also when it crashes.
    func withLock<Result>(_ body: () throws(StateDirectoryError) -> Result) throws(StateDirectoryError) -> Result {
        let lockPath = url(File.lock)
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StateDirectoryError("cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StateDirectoryError("cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// The file's text; nil when it is missing, cannot be read or is not UTF-8.
    func read(_ name: String) -> String? {
        guard case .success(let bytes) = FileContents.read(url(name), limit: Int.max) else { return nil }
        // As Foundation's `String(data:encoding: .utf8)` read them: a byte order mark at the start is dropped.
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return String(validating: bytes[start...], as: UTF8.self)
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

    /// The App Service identity header secret (`<state-dir>/identity-header`, mode 0600): read, or generated
    /// (32 random bytes, base64url) and saved, so it stays the same across starts on the same directory.
    public func identityHeader() throws(StateDirectoryError) -> String {
        try ensureExists()
        return try withLock { () throws(StateDirectoryError) -> String in
            if let saved = read(File.identityHeader)?.trimmingSpaces().filter({ $0 != "\n" && $0 != "\r" }), !saved.isEmpty {
                return saved
            }
            let secret = Base64URL.encode(SecureRandom.bytes(32))
            try write(File.identityHeader, secret + "\n", secret: true)
            return secret
        }
    }

    /// The token-signing key: loaded, or generated (RSA-2048 with a self-signed certificate) and saved, so that
    /// `serve` and `token` on the same directory sign with the same key.
    public func signingKey() throws(StateDirectoryError) -> SigningKey {
        try ensureExists()
        return try withLock { () throws(StateDirectoryError) -> SigningKey in try loadOrCreateSigningKey() }
    }

    private func loadOrCreateSigningKey() throws(StateDirectoryError) -> SigningKey {
        if let keyPEM = read(File.signingKey) {
            let privateKey: PrivateKey
            do { privateKey = try PrivateKey(pem: keyPEM) } catch {
                throw StateDirectoryError("the signing key in \(path) cannot be read (\(error)); delete the folder for fresh keys")
            }
            if let certPEM = read(File.signingCertificate), let certificate = try? Certificate(pem: certPEM),
               certificate.publicKey.isSame(as: privateKey.publicKey) {
                return SigningKey(privateKey: privateKey, certificate: certificate)
            }
            // The key without its certificate (a crash between the two writes): certify the key that is there.
            do {
                let certificate = try Certificate.selfSigned(key: privateKey, commonName: "accounts.accesscontrol.windows.net",
                                                             validityDays: 3650)
                try write(File.signingCertificate, certificate.pem, secret: false)
                return SigningKey(privateKey: privateKey, certificate: certificate)
            } catch let error as StateDirectoryError {
                throw error
            } catch {
                throw StateDirectoryError("cannot certify the signing key in \(path): \(error)")
            }
        }
        do {
            let key = try SigningKey.generate()
            // The certificate first: a crash before the key is written leaves no key, and the next start makes both.
            try write(File.signingCertificate, key.certificate.pem, secret: false)
            try write(File.signingKey, try key.privateKey.pkcs8PEM, secret: true)
            return key
        } catch let error as StateDirectoryError {
            throw error
        } catch {
            throw StateDirectoryError("cannot create a signing key: \(error)")
        }
    }

    /// The CA certificate's path, the CA created first when the directory has none yet, exactly as `serve`
    /// creates it (so `mockidp env` can name a file that the next `serve` on this directory keeps using).
    public func certificateAuthorityPath() throws(StateDirectoryError) -> String {
        try ensureExists()
        try withLock { () throws(StateDirectoryError) in
            do {
                _ = try certificateAuthority()
            } catch let error as StateDirectoryError {
                throw error
            } catch {
                throw StateDirectoryError("cannot create the local certificate authority: \(error)")
            }
        }
        return caCertificatePath
    }

    /// The TLS identity for `names`: the CA (created once, with a random identifier in its subject) and a server
    /// certificate naming every host; re-issued by the same CA when the names change or it nears expiry.
    func tlsIdentity(dnsNames: [String], ipAddresses: [String], now: Int) throws(StateDirectoryError) -> (chainPEM: String, keyPEM: String) {
        try ensureExists()
        return try withLock { () throws(StateDirectoryError) -> (chainPEM: String, keyPEM: String) in
            try loadOrCreateTLSIdentity(dnsNames: dnsNames, ipAddresses: ipAddresses, now: now)
        }
    }

    private func loadOrCreateTLSIdentity(dnsNames: [String], ipAddresses: [String], now: Int) throws(StateDirectoryError)
        -> (chainPEM: String, keyPEM: String) {
        do {
            let (ca, caKey) = try certificateAuthority()
            // The certificate must be for the key beside it: a crash between writing a new key and its certificate
            // leaves an older certificate that TLS would refuse to pair with the key.
            if let certPEM = read(File.serverCertificate), let keyPEM = read(File.serverKey),
               let leaf = try? Certificate(pem: certPEM), leaf.isIssued(by: ca),
               let key = try? PrivateKey(pem: keyPEM), leaf.publicKey.isSame(as: key.publicKey),
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
            let ca = try Certificate(pem: certPEM), key = try PrivateKey(pem: keyPEM)
            if ca.publicKey.isSame(as: key.publicKey) { return (ca, key) }
            // A CA key whose certificate was never written (a crash): start the CA afresh; nothing trusts it yet.
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
