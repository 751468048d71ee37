import MockIDPJOSE
import MockIDPText

/// One Graph call whose caller and permission are checked: reads the query options the call takes and answers.
struct GraphCall {
    let request: GraphRequest
    let caller: GraphCaller
    let directory: Directory
    /// `scheme://host[:port]` of the request: where `@odata.context` and `@odata.nextLink` point.
    let origin: String
    /// `scheme://host[:port]/v1.0`.
    var baseURL: String { origin + "/" + request.version }
    /// `/v1.0/…` as asked.
    let path: String
    /// The user the call is about, when it is about one.
    var user: User?

    init(request: GraphRequest, caller: GraphCaller, directory: Directory, origin: String, path: String) {
        self.request = request
        self.caller = caller
        self.directory = directory
        self.origin = origin
        self.path = path
    }

    private var tenant: Tenant { caller.tenant }

    func answer(_ operation: GraphOperation) -> Result<GraphResponse, OAuthError> {
        switch operation {
        case .user:
            guard let user else { preconditionFailure("a user call has its user resolved") }
            return entity(GraphObjects.user(user, in: tenant), set: "users", type: "microsoft.graph.user",
                          selectable: GraphUserProperties.all, defaults: GraphUserProperties.defaultSet)
        case .users:
            return collection(tenant.users.map { GraphObjects.user($0, in: tenant) }, set: "users", itemType: nil,
                              type: "microsoft.graph.user", selectable: GraphUserProperties.all,
                              defaults: GraphUserProperties.defaultSet, filterable: GraphObjects.userFilter)
        case .userCount:
            // Like `$count=true`, `/$count` needs advanced query mode.
            guard request.eventual else {
                return .failure(.graphRequestBadRequest("$count is not currently supported.",
                                                        reason: "users/$count needs the header ConsistencyLevel: eventual"))
            }
            return noOptions().map { _ in .count(tenant.users.count) }
        case .photo:
            guard let user else { preconditionFailure("a photo call has its user resolved") }
            guard let photo = user.photo else { return .failure(.graphImageNotFound(user.username)) }
            return read(.entity, selectable: ["id", "height", "width"], type: "microsoft.graph.profilePhoto").map { _ in
                .json(.object([
                    "@odata.context": .string("\(baseURL)/$metadata#users('\(user.objectID)')/photo/$entity"),
                    "@odata.mediaContentType": .string(photo.mediaType),
                    "@odata.mediaEtag": .string("W/\"\(Base64URL.encode(Digest.sha256(photo.bytes)).prefix(16))\""),
                    "id": .string("\(photo.width)X\(photo.height)"), "height": .int(photo.height), "width": .int(photo.width),
                ]))
            }
        case .photoValue(_, let size):
            guard let user else { preconditionFailure("a photo call has its user resolved") }
            // Graph's sizes are 48x48 … 648x648; it serves none larger than the photo it has.
            guard let photo = user.photo, size.map({ Self.fits($0, photo) }) ?? true else {
                return .failure(.graphImageNotFound(user.username))
            }
            return noOptions().map { _ in .media(photo.bytes, contentType: photo.mediaType) }
        case .memberOf:
            guard let user else { preconditionFailure("a memberOf call has its user resolved") }
            let groups = directory.groups(of: user, in: tenant).map { GraphObjects.directoryObject(GraphObjects.group($0), type: "group") }
            return collection(groups, set: "directoryObjects", itemType: "group", type: "microsoft.graph.group",
                              selectable: GraphObjects.groupProperties, defaults: nil, filterable: GraphObjects.groupFilter)
        case .membership(_, let action):
            guard let user else { preconditionFailure("a membership call has its user resolved") }
            return membership(action, of: user)
        case .groups:
            return collection(directory.groups(in: tenant).map(GraphObjects.group), set: "groups", itemType: nil,
                              type: "microsoft.graph.group", selectable: GraphObjects.groupProperties, defaults: nil,
                              filterable: GraphObjects.groupFilter)
        case .group(let id):
            guard let group = directory.group(id, in: tenant) else { return .failure(.graphResourceNotFound(id)) }
            return entity(GraphObjects.group(group), set: "groups", type: "microsoft.graph.group",
                          selectable: GraphObjects.groupProperties, defaults: nil)
        case .groupMembers(let id):
            guard let group = directory.group(id, in: tenant) else { return .failure(.graphResourceNotFound(id)) }
            let members = tenant.users.filter { $0.groups.contains(group.id) }
                .map { GraphObjects.directoryObject(GraphObjects.user($0, in: tenant), type: "user") }
            return collection(members, set: "directoryObjects", itemType: "user", type: "microsoft.graph.user",
                              selectable: GraphUserProperties.all, defaults: GraphUserProperties.defaultSet,
                              filterable: GraphObjects.userFilter)
        case .organization:
            return collection([GraphObjects.organization(tenant)], set: "organization", itemType: nil,
                              type: "microsoft.graph.organization", selectable: Set(GraphObjects.organization(tenant).keys),
                              defaults: nil, filterable: GraphFilter.Properties(["id": .string, "displayName": .string], resource: "Organization"))
        }
    }

    /// Whether Graph's size name (`48x48`) is one it serves for `photo`.
    private static func fits(_ size: String, _ photo: UserPhoto) -> Bool {
        let parts = size.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w == h,
              [48, 64, 96, 120, 240, 360, 432, 504, 648].contains(w) else { return false }
        return photo.width == 0 || w <= max(photo.width, photo.height)
    }

    private func read(_ shape: GraphQuery.Shape, selectable: Set<String>, type: String) -> Result<GraphQuery, OAuthError> {
        GraphQuery.read(request.query, shape: shape, selectable: selectable, type: type, eventual: request.eventual)
    }

    private func noOptions() -> Result<GraphQuery, OAuthError> { read(.none, selectable: [], type: "") }

    private func entity(_ object: JSONObject, set: String, type: String, selectable: Set<String>,
                        defaults: [String]?) -> Result<GraphResponse, OAuthError> {
        read(.entity, selectable: selectable, type: type).map { query in
            let selection = query.select.map { "(\($0.joined(separator: ",")))" } ?? ""
            var body: JSONObject = ["@odata.context": .string("\(baseURL)/$metadata#\(set)\(selection)/$entity")]
            body.merge(GraphObjects.selecting(object, query.select, defaults: defaults))
            return .json(.object(body))
        }
    }

    /// A page of `objects` after `$filter`, cut to `$select`, with `@odata.count` and `@odata.nextLink` as asked.
    private func collection(_ objects: [JSONObject], set: String, itemType: String?, type: String, selectable: Set<String>,
                            defaults: [String]?, filterable: GraphFilter.Properties) -> Result<GraphResponse, OAuthError> {
        let query: GraphQuery
        switch read(.collection(filterable: filterable), selectable: selectable, type: type) {
        case .success(let q): query = q
        case .failure(let e): return .failure(e)
        }
        let matching = query.filter.map { filter in objects.filter(filter.matches) } ?? objects
        let size = query.top ?? GraphQuery.defaultPageSize
        let page = matching.dropFirst(query.offset).prefix(size)
        let selection = query.select.map { "(\($0.joined(separator: ",")))" } ?? ""
        var body: JSONObject = ["@odata.context": .string("\(baseURL)/$metadata#\(set)\(selection)")]
        if query.count { body["@odata.count"] = .int(matching.count) }
        let end = query.offset + page.count
        if end < matching.count {
            let options = query.repeated + [("$skiptoken", GraphQuery.skipToken(offset: end))]
            body["@odata.nextLink"] = .string(origin + path + "?"
                                              + options.map { "\($0)=\(PercentEncoding.encode($1, keeping: Self.odataPunctuation))" }.joined(separator: "&"))
        }
        // A directoryObject collection keeps each item's `@odata.type`, whatever `$select` says.
        let names = (query.select ?? defaults).map { itemType == nil ? $0 : ["@odata.type"] + $0 }
        body["value"] = .array(page.map { .object(GraphObjects.selecting($0, names, defaults: nil)) })
        return .success(.json(.object(body)))
    }

    private func membership(_ action: GraphOperation.MembershipAction, of user: User) -> Result<GraphResponse, OAuthError> {
        if case .failure(let e) = noOptions() { return .failure(e) }
        guard case .object(let body)? = try? JSONValue.parse(request.body) else {
            return .failure(.graphUnreadableBody(request.body.isEmpty ? "it is empty" : "it is not a JSON object"))
        }
        let groups = directory.groups(of: user, in: tenant)
        let ids: [String]
        switch action {
        case .getMemberObjects, .getMemberGroups:
            guard let securityOnly = body["securityEnabledOnly"]?.boolValue else {
                return .failure(.graphRequestBadRequest("Invalid request: securityEnabledOnly is required and must be true or false.",
                                                        reason: "\(action.rawValue) needs securityEnabledOnly (true or false) in its body"))
            }
            ids = groups.filter { !securityOnly || $0.securityEnabled }.map(\.id)
        case .checkMemberGroups:
            guard let asked = body["groupIds"]?.arrayValue?.compactMap(\.stringValue), asked.count == body["groupIds"]?.arrayValue?.count else {
                return .failure(.graphRequestBadRequest("Invalid request: groupIds is required and must be a list of group ids.",
                                                        reason: "checkMemberGroups needs groupIds, a list of strings"))
            }
            // Graph: "You can check up to a maximum of 20 groups per request".
            guard asked.count <= 20 else {
                return .failure(.graphRequestBadRequest("Invalid request: at most 20 groupIds may be checked per request.",
                                                        reason: "checkMemberGroups takes at most 20 groupIds (\(asked.count) sent)"))
            }
            let member = Set(groups.map(\.id))
            ids = asked.filter { member.contains($0.lowercased()) }
        }
        return .success(.json(["@odata.context": .string("\(baseURL)/$metadata#Collection(Edm.String)"),
                               "value": .array(ids.map { .string($0) })]))
    }

    /// What a next link's query values keep unencoded beside RFC 3986's unreserved characters: OData's punctuation.
    private static let odataPunctuation = "$,()'"
}
