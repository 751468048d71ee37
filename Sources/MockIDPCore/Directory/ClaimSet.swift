import MockIDPJOSE

/// One claim value as configuration and tokens carry it: any JSON value, ordered objects kept in order.
/// A name in Core so that modules that may not import MockIDPJOSE (configuration) can build claims.
public typealias ClaimValue = JSONValue

/// A set of claims, in order: name → value.
public typealias ClaimSet = JSONObject
