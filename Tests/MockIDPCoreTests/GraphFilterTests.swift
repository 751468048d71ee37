import MockIDPCore
import MockIDPJOSE
import Testing

@Suite struct GraphFilterTests {
    let users = GraphObjects.userFilter

    func parse(_ text: String) -> Result<GraphFilter, GraphFilter.Problem> { GraphFilter.parse(text, properties: users) }

    @Test("eq, startswith and and parse into a tree, with quotes doubled inside strings")
    func parsesTheSupportedForms() {
        #expect(parse("displayName eq 'O''Neil'") == .success(.equals(property: "displayName", value: "O'Neil")))
        #expect(parse("startswith(mail, 'al')") == .success(.startsWith(property: "mail", prefix: "al")))
        #expect(parse("(accountEnabled eq true) and startswith(displayName,'A') and jobTitle eq null")
                == .success(.and(.and(.equals(property: "accountEnabled", value: true),
                                      .startsWith(property: "displayName", prefix: "A")),
                                 .equals(property: "jobTitle", value: .null))))
    }

    @Test("malformed expressions are syntax errors with the position Graph's message names")
    func syntaxErrors() {
        #expect(parse("displayName eq") == .failure(.syntax(position: 14)))
        #expect(parse("displayName eq 'open") == .failure(.syntax(position: 20)))
        #expect(parse("startswith(displayName 'a')") == .failure(.syntax(position: 23)))
        #expect(parse("(displayName eq 'a'") == .failure(.syntax(position: 19)))
        #expect(parse("displayName eq 'a' extra") == .failure(.syntax(position: 19)))
        #expect(parse("") == .failure(.syntax(position: 0)))
        let deep = String(repeating: "(", count: 10_000) + "mail eq 'a'" + String(repeating: ")", count: 10_000)
        #expect(parse(deep) == .failure(.syntax(position: 32)))
        #expect((try? parse(String(repeating: "(", count: 32) + "mail eq 'a'" + String(repeating: ")", count: 32)).get()) != nil)
    }

    @Test("operators and properties Graph's basic directory queries do not take are refused, not ignored")
    func unsupported() {
        #expect(parse("displayName ne 'a'") == .failure(.unsupportedOperator("ne")))
        #expect(parse("displayName eq 'a' or displayName eq 'b'") == .failure(.unsupportedOperator("or")))
        #expect(parse("endswith(mail,'.com')") == .failure(.unsupportedOperator("endswith")))
        #expect(parse("shoeSize eq '42'") == .failure(.unsupportedProperty("shoeSize")))
        #expect(parse("startswith(accountEnabled,'t')") == .failure(.unsupportedProperty("accountEnabled")))
        #expect(parse("accountEnabled eq 'yes'") == .failure(.unsupportedProperty("accountEnabled")))
        #expect(parse("businessPhones eq '1'") == .failure(.unsupportedProperty("businessPhones")))
    }

    @Test("matching compares strings without regard to case, as Graph does")
    func matching() throws {
        let filter = try parse("startswith(displayName,'al') and mail eq 'ALICE@contoso.com'").get()
        #expect(filter.matches(["displayName": "Alice Adams", "mail": "alice@contoso.com"]))
        #expect(!filter.matches(["displayName": "Alice Adams", "mail": .null]))
        #expect(!filter.matches(["displayName": "Bob", "mail": "alice@contoso.com"]))
    }
}

@Suite struct GraphQueryTests {
    let collection = GraphQuery.Shape.collection(filterable: GraphObjects.userFilter)

    func read(_ options: [(String, String)], shape: GraphQuery.Shape? = nil, eventual: Bool = false) -> Result<GraphQuery, OAuthError> {
        GraphQuery.read(options.map { (name: $0.0, value: $0.1) }, shape: shape ?? collection, selectable: GraphUserProperties.all,
                        type: "microsoft.graph.user", eventual: eventual)
    }

    @Test("$top takes 1 to 999; a larger or a non-numeric value gets Graph's error")
    func topBounds() {
        #expect((try? read([("$top", "999")]).get())?.top == 999)
        #expect(read([("$top", "1000")]).failure?.code == .graphRequestBadRequest)
        #expect(read([("$top", "1000")]).failure?.message == "Invalid page size specified: '1000'. Must be between 1 and 999 inclusive.")
        #expect(read([("$top", "0")]).failure?.code == .graphRequestBadRequest)
        #expect(read([("$top", "ten")]).failure?.code == .graphBadRequest)
    }

    @Test("$select names known properties only, with OData's message for others")
    func select() {
        #expect((try? read([("$select", "displayName, mail")]).get())?.select == ["displayName", "mail"])
        #expect(read([("$select", "displayName,shoeSize")]).failure?.message == "Could not find a property named 'shoeSize' on type 'microsoft.graph.user'.")
    }

    @Test("$count needs ConsistencyLevel: eventual; options Graph does not take here are refused")
    func countAndUnknownOptions() {
        #expect(read([("$count", "true")]).failure?.message == "$count is not currently supported.")
        #expect((try? read([("$count", "true")], eventual: true).get())?.count == true)
        #expect(read([("$orderby", "displayName")]).failure?.status == 400)
        #expect(read([("$expand", "manager")]).failure?.code == .graphBadRequest)
        #expect(read([("$top", "2"), ("$top", "3")]).failure?.code == .graphBadRequest)
        #expect(read([("$top", "2")], shape: .entity).failure?.message.contains("can be applied only on collections") == true)
        #expect((try? read([("api-version", "1.6")]).get()) != nil)   // not a query option: OData leaves custom ones alone
    }

    @Test("a skip token round-trips and a forged one is refused")
    func skipToken() {
        let token = GraphQuery.skipToken(offset: 200)
        #expect((try? read([("$skiptoken", token)]).get())?.offset == 200)
        #expect(read([("$skiptoken", "abc")]).failure?.code == .graphDirectoryExpiredPageToken)
    }
}
