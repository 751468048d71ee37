import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// SAML 2.0 and WS-Federation over HTTP (docs/saml.md): the federation metadata, and the control API's rotation of a
/// SAML app's certificate.
extension EndpointHandlers {
    /// `/{tenant}/federationmetadata/2007-06/federationmetadata.xml[?appid=…]`: the signed document, byte order mark
    /// first, as Entra serves it.
    func federationMetadata(_ request: HTTPRequest, tenant: String, context: RequestScope) throws(OAuthError) -> HTTPResponse {
        let appID = request.queryValue("appid").flatMap { $0.isEmpty ? nil : $0 }
        let body = try provider.saml.metadata(tenant: tenant, appID: appID, context: context).get()
        var response = HTTPResponse(status: .ok, headers: ["Content-Type": "application/samlmetadata+xml; charset=utf-8"], body: body)
        response.headers["Access-Control-Allow-Origin"] = "*"
        return response
    }

    /// `POST /_mockidp/tenants/{tenant}/apps/{clientId}/saml/rotate`: a new certificate signs the app's Responses and
    /// its metadata; both are published until `POST /_mockidp/keys/retire`.
    func rotateSAMLCertificate(tenant: String, clientID: String) -> HTTPResponse {
        switch provider.saml.rotateCertificate(tenant: tenant, clientID: clientID, directory: provider.snapshot()) {
        case .success(let thumbprints):
            return controlJSON(.object(["clientId": .string(clientID.lowercased()), "thumbprint": .string(thumbprints.first ?? ""),
                                        "thumbprints": .array(thumbprints.map { .string($0) })]))
        case .failure(let error):
            let status: HTTPStatus = error.status == 500 ? .internalServerError : .notFound
            return controlError(status, error.code, error.message, reason: error.reason)
        }
    }
}
