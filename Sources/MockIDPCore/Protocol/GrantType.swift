/// The grant types the token endpoint serves (`grant_type`), by their wire names.
package enum GrantType: Sendable, Hashable {
    case authorizationCode
    case clientCredentials
    case password
    case refreshToken
    case deviceCode
    /// `urn:ietf:params:oauth:grant-type:jwt-bearer`: on-behalf-of (`requested_token_use=on_behalf_of`).
    case jwtBearer

    /// The grant type named `name` at an endpoint of `version`; nil for any other name.
    /// Entra (v1): ADAL polls the device-code grant with the short name `device_code`.
    package init?(_ name: String, version: ProtocolVersion) {
        switch name {
        case "authorization_code": self = .authorizationCode
        case "client_credentials": self = .clientCredentials
        case "password": self = .password
        case "refresh_token": self = .refreshToken
        case "urn:ietf:params:oauth:grant-type:device_code": self = .deviceCode
        case "device_code" where version == .v1: self = .deviceCode
        case "urn:ietf:params:oauth:grant-type:jwt-bearer": self = .jwtBearer
        default: return nil
        }
    }
}
