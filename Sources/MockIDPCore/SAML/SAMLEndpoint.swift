import MockIDPJOSE
import MockIDPText
import MockIDPXML

/// SAML 2.0 and WS-Federation enterprise apps (docs/saml.md): federation metadata, the apps' signing certificates and
/// their rotation, and SP-initiated sign-on; a value over the provider's stores.
package struct SAMLEndpoint {
    let provider: IdentityProvider

    /// The tenant's federation metadata, or with `appID` the same document carrying that SAML app's own certificates
    /// and signed by the app's current one: the bytes to send, the byte order mark first.
    package func metadata(tenant segment: String, appID: String?, context: RequestScope) -> Result<[UInt8], OAuthError> {
        let directory = context.directory
        guard let authority = Authority(segment: segment, directory: directory) else {
            return .failure(.tenantNotFound(segment, forDiscovery: true))
        }
        let cloud = context.cloud(for: authority.specificTenant)
        let tenantID = authority.specificTenant?.id ?? "{tenant}"
        var document = FederationMetadata(
            tenantID: tenantID, entityID: Self.entityID(tenantID, cloud: cloud),
            saml2URL: EndpointTable.url(.saml2, baseURL: context.baseURL, tenant: tenantID),
            wsfedURL: EndpointTable.url(.wsfed, baseURL: context.baseURL, tenant: tenantID),
            certificates: [], documentID: "_" + provider.newGUID())
        do {
            let signer: XMLSigningKey
            if let appID, !appID.isEmpty {
                guard let tenant = authority.specificTenant, let app = directory.app(appID, in: tenant), app.saml != nil else {
                    return .failure(.samlUnknownApp(appID, tenant: segment))
                }
                let keys = try provider.samlCertificates.keys(tenantID: tenant.id, clientID: app.clientID)
                guard let first = keys.first else { return .failure(.samlSigningFailed("the app has no SAML certificate")) }
                document.certificates = keys.map(\.certificate)
                signer = first
            } else {
                document.certificates = directory.signingKeys.map(\.certificate)
                let active = directory.activeKey
                signer = try XMLSigningKey(privateKey: active.privateKey, certificate: active.certificate)
            }
            return .success(try document.signed(by: signer))
        } catch {
            return .failure(.samlSigningFailed("the federation metadata could not be signed: \(error.reason)"))
        }
    }

    /// A new signing certificate for the SAML app `clientID` of `tenant`, signing from now on; the certificates'
    /// SHA-1 thumbprints, the new one first.
    package func rotateCertificate(tenant segment: String, clientID: String, directory: Directory) -> Result<[String], OAuthError> {
        guard let tenant = directory.tenant(segment) else { return .failure(.tenantNotFound(segment, forDiscovery: false)) }
        guard let app = directory.app(clientID, in: tenant), app.saml != nil else {
            return .failure(.samlUnknownApp(clientID, tenant: segment))
        }
        do {
            let rotated = try provider.samlCertificates.rotate(tenantID: tenant.id, clientID: app.clientID)
            if let problem = rotated.saveProblem { return .failure(.samlSigningFailed("the new certificate could not be saved: \(problem)")) }
            return .success(rotated.keys.map { SAMLCertificates.thumbprint($0.certificate) })
        } catch {
            return .failure(.samlSigningFailed("a SAML signing certificate could not be made: \(error.reason)"))
        }
    }

    /// What the inspector shows of the SAML app `app` of `tenant` (docs/saml.md, "Inspector"): its entity ID, the
    /// URLs a service provider is set up with, its certificates (none until its first use) and the last Response it
    /// was sent, as sent.
    package func inspection(of app: Application, in tenant: Tenant, context: RequestScope) -> JSONValue {
        let base = context.baseURL
        let metadata = EndpointTable.url(.federationMetadata, baseURL: base, tenant: tenant.id)
        let saml2 = EndpointTable.url(.saml2, baseURL: base, tenant: tenant.id)
        let appID = PercentEncoding.encode(app.clientID)
        let certificates: [JSONValue] = provider.samlCertificates.existing(tenantID: tenant.id, clientID: app.clientID)
            .enumerated().map { index, key in
                ["thumbprint": .string(SAMLCertificates.thumbprint(key.certificate)), "notAfter": .int(key.certificate.notAfter),
                 "signing": .bool(index == 0)]
            }
        let last = provider.samlResponses.last(tenantID: tenant.id, clientID: app.clientID)
        return ["entityId": .string(Self.entityID(tenant.id, cloud: context.cloud(for: tenant))),
                "metadataUrl": .string(metadata + "?appid=" + appID), "signOnUrl": .string(saml2),
                "idpInitiatedUrl": .string(saml2 + "?appid=" + appID),
                "wsfedUrl": .string(EndpointTable.url(.wsfed, baseURL: base, tenant: tenant.id)),
                "certificates": .array(certificates), "lastResponse": last?.json ?? nil]
    }

    /// The entity ID and assertion issuer: `https://sts.windows.net/{tid}/` in the public cloud.
    static func entityID(_ tenantID: String, cloud: Cloud) -> String { "https://\(cloud.v1IssuerHost)/\(tenantID)/" }
}
