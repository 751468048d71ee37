import MockIDPJOSE

/// Any request to the provider, through its `client` (the one the helpers use), in the provider's mode: a path is
/// joined to `baseURL`. As Hummingbird's `app.test(.router / .live) { client in … }`, the same test runs in both modes:
///
/// ```swift
/// @Test(arguments: MockIdentityProviderMode.allCases)
/// func discovery(mode: MockIdentityProviderMode) async throws {
///     try await withMockIdentityProvider(mode: mode) { idp in
///         let document = try await idp.get("/common/v2.0/.well-known/openid-configuration")
///         #expect(document.status == 200)
///         #expect(document.json["token_endpoint"] == .string(idp.tokenEndpoint(tenant: "common")))
///     }
/// }
/// ```
extension MockIdentityProvider {
    /// Sends one request and returns the answer, whatever its status: `client.execute(_:_:headers:body:)`.
    public func execute(_ method: String, _ pathOrURL: String, headers: [String: String] = [:],
                        body: [UInt8]? = nil) async throws -> MockIDPResponse {
        try await client.execute(method, pathOrURL, headers: headers, body: body)
    }

    /// `GET pathOrURL`: `client.get(_:headers:)`.
    public func get(_ pathOrURL: String, headers: [String: String] = [:]) async throws -> MockIDPResponse {
        try await client.get(pathOrURL, headers: headers)
    }

    /// `POST pathOrURL` with form fields, in order: `client.postForm(_:_:headers:)`.
    public func postForm(_ pathOrURL: String, _ fields: [(String, String)],
                         headers: [String: String] = [:]) async throws -> MockIDPResponse {
        try await client.postForm(pathOrURL, fields, headers: headers)
    }

    /// `POST pathOrURL` with a JSON body: `client.postJSON(_:_:headers:)`.
    public func postJSON(_ pathOrURL: String, _ json: JSONValue, headers: [String: String] = [:]) async throws -> MockIDPResponse {
        try await client.postJSON(pathOrURL, json, headers: headers)
    }

    /// `POST pathOrURL` with JSON text sent as it is: `client.postJSON(_:text:headers:)`.
    public func postJSON(_ pathOrURL: String, text: String, headers: [String: String] = [:]) async throws -> MockIDPResponse {
        try await client.postJSON(pathOrURL, text: text, headers: headers)
    }
}
