import MockIDPCore
import MockIDPHTTP
import MockIDPJOSE

/// Microsoft Graph's directory slice over HTTP: `/v1.0/…` and `/beta/…` on every host.
extension EndpointHandlers {
    /// The versions Graph serves, as the first path segment.
    static let graphVersions = ["v1.0", "beta"]

    /// Registers a catch-all route per Graph version; `GraphEndpoint` decides what the rest names.
    static func addGraphRoutes(to table: inout RouteTable<Route>, _ h: EndpointHandlers) {
        for version in graphVersions {
            let template = "/\(version)/{path...}"
            table.add(template, Route(template: template, hostRefusal: nil, faultSite: nil, errors: .graph) { request, params, context in
                try h.graph(request, version: version, path: params["path"] ?? "", context: context)
            })
        }
    }

    /// A Graph call's answer; its error is thrown, for `graphError` to render in Graph's shape.
    func graph(_ request: HTTPRequest, version: String, path: String, context: RequestScope) throws(OAuthError) -> HTTPResponse {
        let graphRequest = GraphRequest(
            method: request.method, version: version, segments: path.split(separator: "/").map(String.init),
            query: request.query, bearerToken: Self.bearerToken(request) ?? (request.headers["Authorization"] == nil ? nil : ""),
            eventual: request.headers["ConsistencyLevel"]?.lowercased() == "eventual", body: request.body)
        var response: HTTPResponse
        switch try provider.graph.answer(graphRequest, context: context).get() {
        case .json(let body):
            response = HTTPResponse.json(body.serialized())
            // Graph's JSON media type (OData v4, minimal metadata).
            response.headers["Content-Type"] = "application/json;odata.metadata=minimal;odata.streaming=true;IEEE754Compatible=false;charset=utf-8"
            response.headers["OData-Version"] = "4.0"
        case .media(let bytes, let contentType):
            response = HTTPResponse(status: .ok, headers: ["Content-Type": contentType], body: bytes)
        case .count(let count):
            response = HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array("\(count)".utf8))
        }
        return Self.graphHeaders(response, request, requestID: provider.newGUID(), context: context)
    }

    /// `error` as Graph answers it (`ErrorDelivery.graph`), with Graph's headers.
    func graphError(_ error: OAuthError, _ request: HTTPRequest, context: RequestScope) -> HTTPResponse {
        let requestID = provider.newGUID()
        return Self.graphHeaders(respond(with: error, .graph(requestID: requestID), context: context), request, requestID: requestID,
                                 context: context)
    }

    /// What every Graph answer carries: `request-id`, `client-request-id` (the client's, else the request ID), no
    /// caching; and no body for HEAD.
    private static func graphHeaders(_ response: HTTPResponse, _ request: HTTPRequest, requestID: String,
                                     context: RequestScope) -> HTTPResponse {
        var response = response
        if request.method == "HEAD" { response.body = [] }
        response.headers["request-id"] = requestID
        response.headers["client-request-id"] = context.correlationID ?? requestID
        response.headers["Cache-Control"] = "no-cache"
        return response
    }
}
