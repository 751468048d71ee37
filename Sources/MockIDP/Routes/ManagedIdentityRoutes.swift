import MockIDPCore
import MockIDPHTTP

/// The managed-identity endpoints over HTTP (`ManagedIdentityEndpointTable`): IMDS's and App Service's query
/// parameters, Cloud Shell's form, each host's guard header, and each host's own response headers.
enum ManagedIdentityRoutes {
    /// Registers a route for each row of `ManagedIdentityEndpointTable.paths`.
    static func add(to table: inout RouteTable<Route>, _ h: EndpointHandlers) {
        for (host, method, template) in ManagedIdentityEndpointTable.paths {
            table.add(template, methods: [method], Route(template: template, hostRefusal: nil, faultSite: FaultSite(host),
                                                         errors: .managedIdentity(host)) { request, _, context in
                try token(request, host: host, context: context, h)
            })
        }
    }

    /// A managed identity's token; the error is thrown, for the route to render in the host's own shape.
    static func token(_ request: HTTPRequest, host: ManagedIdentityHost, context: RequestScope,
                      _ h: EndpointHandlers) throws(OAuthError) -> HTTPResponse {
        let parameters: [(name: String, value: String)]
        switch host {
        case .instanceMetadata, .appService:
            parameters = request.query
        case .cloudShell:
            // azure-identity's cloud_shell.py posts `data={"resource": …}`: a form body.
            let contentType = request.headers["Content-Type"]?.lowercased() ?? ""
            guard request.body.isEmpty || contentType.hasPrefix("application/x-www-form-urlencoded") else {
                throw .managedIdentityBodyUnreadable("the body must be application/x-www-form-urlencoded", host: host)
            }
            do { parameters = try URLEncodedForm.decode(request.body) } catch {
                throw .managedIdentityBodyUnreadable(error.description, host: host)
            }
        }
        let call = ManagedIdentityRequest(host: host, parameters: parameters, metadataHeader: request.headers["Metadata"],
                                          identityHeader: request.headers["X-IDENTITY-HEADER"])
        let body = try h.provider.managedIdentity.token(call, identityHeader: h.options.identityHeader ?? "", context: context).get()
        var response = HTTPResponse.json(body.serialized())
        addHostHeaders(&response, host: host, correlationID: nil)
        return response
    }

    /// The headers the host sends with every answer: IMDS names itself in `Server`; App Service (Kestrel) sends
    /// `X-CORRELATION-ID` with its errors (Azure/azure-sdk-for-net#37278, #43691).
    static func addHostHeaders(_ response: inout HTTPResponse, host: ManagedIdentityHost, correlationID: String?) {
        response.headers["Cache-Control"] = "no-store, no-cache"
        switch host {
        case .instanceMetadata: response.headers["Server"] = "IMDS/150.870.65.1015"
        case .appService:
            response.headers["Server"] = "Kestrel"
            if let correlationID { response.headers["X-CORRELATION-ID"] = correlationID }
        case .cloudShell: break
        }
    }
}
