import MockIDPCore
import MockIDPJOSE
import MockIDPXML

/// SAML apps' signing certificates in the state directory, one file per app (`saml-{tenant}-{clientId}.pem`, mode
/// 0600): for each certificate, the key that signs first, its PKCS#8 private key then its certificate. Written as the
/// token-signing key is (docs/configuration.md, "State directory"): atomically, under the directory's lock.
struct SAMLCertificateFiles: SAMLCertificateVault {
    let state: StateDirectory

    static func fileName(tenantID: String, clientID: String) -> String { "saml-\(tenantID)-\(clientID.lowercased()).pem" }

    func load(tenantID: String, clientID: String) -> [XMLSigningKey] {
        let name = Self.fileName(tenantID: tenantID, clientID: clientID)
        guard (try? state.ensureExists()) != nil,
              let text = try? state.withLock({ () throws(StateDirectoryError) -> String? in state.read(name) }) else { return [] }
        let blocks = Self.pemBlocks(text)
        guard blocks.count % 2 == 0 else { return [] }
        var keys: [XMLSigningKey] = []
        for index in stride(from: 0, to: blocks.count, by: 2) {
            guard let key = try? PrivateKey(pem: blocks[index]), let certificate = try? Certificate(pem: blocks[index + 1]),
                  certificate.publicKey.isSame(as: key.publicKey),
                  let signing = try? XMLSigningKey(privateKey: key, certificate: certificate) else { return [] }
            keys.append(signing)
        }
        return keys
    }

    func save(_ keys: [XMLSigningKey], tenantID: String, clientID: String) -> String? {
        var text = ""
        for key in keys {
            guard let pem = try? key.privateKey.pkcs8PEM else { return "a private key could not be written as PEM" }
            text += pem + key.certificate.pem
        }
        do {
            try state.ensureExists()
            try state.withLock { () throws(StateDirectoryError) in
                try state.write(Self.fileName(tenantID: tenantID, clientID: clientID), text, secret: true)
            }
            return nil
        } catch {
            return error.description
        }
    }

    /// The PEM blocks of `text`, each from its BEGIN line to its END line.
    static func pemBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("-----BEGIN ") { current = [] }
            current.append(line)
            if line.hasPrefix("-----END ") { blocks.append(current.joined(separator: "\n") + "\n") }
        }
        return blocks
    }
}
