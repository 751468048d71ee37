import MockIDPCore
import MockIDPJOSE

/// A control call's JSON body, read strictly: unknown keys and values of the wrong type are errors, as in the
/// configuration file, so a typo never passes silently.
struct ControlBody {
    private let object: JSONObject
    var problems: [String] = []

    /// Parses `bytes` as a JSON object with only `known` keys; an empty body is an empty object.
    init(_ bytes: [UInt8], known: Set<String>) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            object = [:]
            return
        }
        do {
            guard let parsed = try JSONValue.parse(bytes).objectValue else {
                object = [:]
                problems.append("the body must be a JSON object")
                return
            }
            object = parsed
        } catch {
            object = [:]
            problems.append("the body is not JSON: \(error.description)")
            return
        }
        for key in object.keys where !known.contains(key) {
            problems.append("unknown key '\(key)' (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    /// Whether the body has `key` (with any value).
    func has(_ key: String) -> Bool { object[key] != nil }

    mutating func string(_ key: String) -> String? {
        guard let value = object[key], value != .null else { return nil }
        guard let s = value.stringValue else { problems.append("'\(key)' must be a string"); return nil }
        return s
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = object[key], value != .null else { return nil }
        guard let i = value.intValue, range.contains(i) else {
            problems.append("'\(key)' must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return i
    }

    mutating func object(_ key: String) -> JSONObject? {
        guard let value = object[key], value != .null else { return nil }
        guard let o = value.objectValue else { problems.append("'\(key)' must be a JSON object"); return nil }
        return o
    }

    /// A string, or an object given as JSON (serialized to a string).
    mutating func jsonText(_ key: String) -> String? {
        guard let value = object[key], value != .null else { return nil }
        if let s = value.stringValue { return s }
        if value.objectValue != nil { return value.jsonString }
        problems.append("'\(key)' must be a JSON object or a string holding one")
        return nil
    }

    mutating func require(_ key: String) {
        if object[key] == nil || object[key] == .null { problems.append("'\(key)' is required") }
    }

    /// `count`: how many times (default 1); 0 means every time until reset, which the provider writes as nil.
    mutating func remainingCount() -> Int? {
        guard let n = integer("count", in: 0...1_000_000) else { return 1 }
        return n == 0 ? nil : n
    }
}

extension Fault {
    /// The keys `POST /_mockidp/faults` accepts.
    static let controlKeys: Set<String> = ["endpoint", "count", "status", "error", "aadsts", "b2cCode", "suberror", "claims",
                                           "retryAfter", "delayMs", "message", "clientId", "tenant", "grantType"]

    /// Reads a fault from its control-call body; the problems found otherwise.
    static func read(_ bytes: [UInt8]) -> Result<Fault, ControlProblems> {
        var body = ControlBody(bytes, known: controlKeys)
        body.require("endpoint")
        let endpoint = body.string("endpoint")
        if let endpoint, !endpointNames.contains(endpoint) {
            body.problems.append("'endpoint' must be one of \(endpointNames.joined(separator: ", "))")
        }
        var fault = Fault(endpoint: endpoint ?? "")
        fault.remaining = body.remainingCount()
        fault.status = body.integer("status", in: 400...599)
        let error = body.string("error")
        fault.error = error.flatMap(OAuthError.Code.init(rawValue:))
        fault.aadsts = body.integer("aadsts", in: 1...99_999_999)
        fault.b2cCode = body.string("b2cCode")
        if let code = fault.b2cCode, !(code.hasPrefix("AADB2C") && code.count > 6 && code.dropFirst(6).allSatisfy(\.isNumber)) {
            body.problems.append("'b2cCode' must be a B2C error code such as AADB2C90118")
        }
        let suberror = body.string("suberror")
        fault.suberror = suberror.flatMap(OAuthError.Suberror.init(rawValue:))
        fault.claims = body.jsonText("claims")
        if let claims = fault.claims, ClaimsRequest(json: claims) == nil {
            body.problems.append("'claims' must be a claims request: a JSON object such as {\"access_token\":{\"acrs\":{\"essential\":true,\"value\":\"c1\"}}}")
        }
        fault.retryAfter = body.integer("retryAfter", in: 0...86_400)
        fault.delayMilliseconds = body.integer("delayMs", in: 0...600_000)
        fault.message = body.string("message")
        fault.clientID = body.string("clientId")
        fault.tenant = body.string("tenant")
        fault.grantType = body.string("grantType")
        if error != nil && fault.error == nil {
            body.problems.append("'error' must be an OAuth error code such as invalid_grant")
        }
        if suberror != nil && fault.suberror == nil {
            body.problems.append("'suberror' must be one of Entra's: " + OAuthError.Suberror.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard body.problems.isEmpty else { return .failure(ControlProblems(body.problems)) }
        return .success(fault)
    }

    /// The fault as the control API shows it.
    var json: JSONValue {
        var o: JSONObject = ["id": .int(id), "endpoint": .string(endpoint), "count": remaining.map { .int($0) } ?? .int(0)]
        if !isDelayOnly {
            let error = oauthError()
            o["status"] = .int(error.status)
            o["error"] = .string(error.code.rawValue)
            if let aadsts { o["aadsts"] = .int(aadsts) }
            if let b2cCode { o["b2cCode"] = .string(b2cCode) }
            if let suberror = error.suberror { o["suberror"] = .string(suberror.rawValue) }
            if let claims = error.claims { o["claims"] = .string(claims) }
            if let retry = effectiveRetryAfter { o["retryAfter"] = .int(retry) }
        }
        if let delayMilliseconds { o["delayMs"] = .int(delayMilliseconds) }
        if let clientID { o["clientId"] = .string(clientID) }
        if let tenant { o["tenant"] = .string(tenant) }
        if let grantType { o["grantType"] = .string(grantType) }
        return .object(o)
    }
}

extension ExtraClaims {
    /// Reads extra claims from their control-call body; the problems found otherwise.
    static func read(_ bytes: [UInt8]) -> Result<ExtraClaims, ControlProblems> {
        var body = ControlBody(bytes, known: ["clientId", "username", "claims", "count"])
        body.require("claims")
        let claims = body.object("claims")
        let extra = ExtraClaims(clientID: body.string("clientId"), username: body.string("username"),
                                claims: claims ?? [:], remaining: body.remainingCount())
        guard body.problems.isEmpty else { return .failure(ControlProblems(body.problems)) }
        return .success(extra)
    }

    /// The registration as the control API shows it.
    var json: JSONValue {
        var o: JSONObject = ["id": .int(id), "claims": .object(claims), "count": remaining.map { .int($0) } ?? .int(0)]
        if let clientID { o["clientId"] = .string(clientID) }
        if let username { o["username"] = .string(username) }
        return .object(o)
    }
}

/// What was wrong with a control call's body, one sentence each.
struct ControlProblems: Error {
    var problems: [String]
    init(_ problems: [String]) { self.problems = problems }
}

extension TamperFault {
    /// The keys `POST /_mockidp/faults` accepts for a tamper fault.
    static let controlKeys: Set<String> = ["tamper", "token", "clientId", "count"]

    /// Whether a faults call body asks for a tamper fault (it has `tamper`).
    static func isTamper(_ bytes: [UInt8]) -> Bool { ControlBody(bytes, known: []).has("tamper") }

    /// Reads a tamper fault from its control-call body; the problems found otherwise (an unknown defect, or one
    /// that cannot go into the tokens named, with what is allowed).
    static func read(_ bytes: [UInt8]) -> Result<TamperFault, ControlProblems> {
        var body = ControlBody(bytes, known: controlKeys)
        let name = body.string("tamper")
        let defect = name.flatMap(TokenDefect.init(rawValue:))
        if let name, defect == nil {
            body.problems.append("'tamper' must be one of \(TokenDefect.names(for: nil).joined(separator: ", ")) "
                                 + "(or, with \"token\": \"saml\", one of \(SAMLDefect.names.joined(separator: ", "))); got '\(name)'")
        }
        let tokenName = body.string("token") ?? "all"
        let token = TamperFault.Selection(rawValue: tokenName)
        if token == nil {
            body.problems.append("'token' must be one of \(TamperFault.Selection.allCases.map(\.rawValue).joined(separator: ", ")); got '\(tokenName)'")
        }
        let fault = TamperFault(defect: defect ?? .badSignature, token: token ?? .all, clientID: body.string("clientId"),
                                remaining: body.remainingCount())
        if defect != nil, token != nil, let problem = fault.problem { body.problems.append(problem) }
        guard body.problems.isEmpty else { return .failure(ControlProblems(body.problems)) }
        return .success(fault)
    }
}

extension SAMLTamperFault {
    /// Whether a faults call body asks for a SAML tamper fault: `"token": "saml"`, or a `saml-` defect (which, with
    /// another token kind, is then refused).
    static func isSAMLTamper(_ bytes: [UInt8]) -> Bool {
        var body = ControlBody(bytes, known: [])
        guard body.has("tamper") else { return false }
        return body.string("token") == "saml" || body.string("tamper")?.hasPrefix("saml-") == true
    }

    /// Reads a SAML tamper fault from its control-call body; the problems found otherwise (an unknown defect, a JWT
    /// defect for SAML, a SAML defect for tokens).
    static func read(_ bytes: [UInt8]) -> Result<SAMLTamperFault, ControlProblems> {
        var body = ControlBody(bytes, known: TamperFault.controlKeys)
        let name = body.string("tamper") ?? ""
        let defect = SAMLDefect(rawValue: name)
        let token = body.string("token") ?? "all"
        if token != "saml" {
            body.problems.append("'\(name)' applies to SAML Responses only: send \"token\": \"saml\" (got '\(token)')")
        } else if defect == nil {
            let what = TokenDefect(rawValue: name) == nil ? "" : " ('\(name)' is a JWT defect, for \"token\": \"id\", \"access\" or \"all\")"
            body.problems.append("with \"token\": \"saml\", 'tamper' must be one of \(SAMLDefect.names.joined(separator: ", ")); got '\(name)'\(what)")
        }
        let fault = SAMLTamperFault(defect: defect ?? .unsigned, clientID: body.string("clientId"), remaining: body.remainingCount())
        guard body.problems.isEmpty else { return .failure(ControlProblems(body.problems)) }
        return .success(fault)
    }
}
