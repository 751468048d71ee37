import MockIDPHTTP
import Testing

@Suite struct RouterTests {
    /// A router whose handlers answer with a label and the captures, so a test sees which route won.
    private func router(_ routes: [(String, Set<String>?)]) -> Router {
        var router = Router()
        for (pattern, methods) in routes {
            router.add(pattern, methods: methods) { _, parameters in
                let captures = ["tenant", "policy", "id", "rest", "username"].compactMap { name in
                    parameters[name].map { "\(name)=\($0)" }
                }
                return .text(([pattern] + captures).joined(separator: " "))
            }
        }
        return router
    }

    private func answer(_ router: Router, _ path: String, method: String = "GET") -> (Int, String) {
        let response = router.respond(to: HTTPRequest(method: method, path: path))
        return (response.status.rawValue, String(decoding: response.body, as: UTF8.self))
    }

    @Test("captures take the segment's original text")
    func captures() {
        let r = router([("/{tenant}/v2.0/.well-known/openid-configuration", nil)])
        #expect(answer(r, "/Contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration")
            == (200, "/{tenant}/v2.0/.well-known/openid-configuration tenant=Contoso.onmicrosoft.com"))
    }

    @Test("literal segments match without regard to case")
    func caseInsensitiveLiteral() {
        let r = router([("/{tenant}/oauth2/v2.0/token", ["POST"])])
        #expect(answer(r, "/common/OAuth2/V2.0/TOKEN", method: "POST").0 == 200)
    }

    @Test("router prefers a literal segment over a capture")
    func literalBeatsCapture() {
        let r = router([("/{tenant}/discovery/keys", nil), ("/common/discovery/keys", nil)])
        #expect(answer(r, "/COMMON/discovery/keys").1 == "/common/discovery/keys")
        #expect(answer(r, "/contoso/discovery/keys").1 == "/{tenant}/discovery/keys tenant=contoso")
    }

    @Test("the search backtracks from a literal that leads nowhere to a capture")
    func backtracking() {
        let r = router([("/common/userrealm/{username}", nil), ("/{tenant}/{policy}/v2.0/.well-known/openid-configuration", nil)])
        #expect(answer(r, "/common/B2C_1_signin/v2.0/.well-known/openid-configuration").1
            == "/{tenant}/{policy}/v2.0/.well-known/openid-configuration tenant=common policy=B2C_1_signin")
        #expect(answer(r, "/common/userrealm/alice@contoso.com").1 == "/common/userrealm/{username} username=alice@contoso.com")
    }

    @Test("a catch-all takes the rest of the path, possibly empty, and loses to more specific routes")
    func catchAll() {
        let r = router([("/static/{rest...}", nil), ("/static/special", nil)])
        #expect(answer(r, "/static/css/site.css").1 == "/static/{rest...} rest=css/site.css")
        #expect(answer(r, "/static").1 == "/static/{rest...} rest=")
        #expect(answer(r, "/static/").1 == "/static/{rest...} rest=")
        #expect(answer(r, "/Static/Special").1 == "/static/special")
        #expect(answer(r, "/static/special/more").1 == "/static/{rest...} rest=special/more")
    }

    @Test("a trailing slash is ignored and the root path matches its own route")
    func trailingSlash() {
        let r = router([("/a/b", nil), ("/", nil)])
        #expect(answer(r, "/a/b/").1 == "/a/b")
        #expect(answer(r, "/a/b").1 == "/a/b")
        #expect(answer(r, "/").1 == "/")
        #expect(answer(r, "/a").0 == 404)
    }

    @Test("an unknown path gets the not-found handler")
    func notFound() {
        var r = Router(notFound: { request in .text("no \(request.path)", status: .notFound) })
        r.add("/known") { _, _ in .text("yes") }
        #expect(answer(r, "/unknown") == (404, "no /unknown"))
        #expect(answer(Router(), "/x").0 == 404)
        #expect(answer(r, "/known/extra").0 == 404)
    }

    @Test("a method mismatch gets 405 with the allowed methods, HEAD included for GET")
    func methodNotAllowed() {
        let r = router([("/{tenant}/oauth2/v2.0/token", ["POST"]), ("/{tenant}/oauth2/v2.0/token", ["GET", "OPTIONS"])])
        let response = r.respond(to: HTTPRequest(method: "DELETE", path: "/common/oauth2/v2.0/token"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, OPTIONS, POST")
    }

    @Test("a method mismatch on a literal route falls back to a capture route that allows it")
    func methodBacktracking() {
        let r = router([("/common/discovery/keys", ["GET"]), ("/{tenant}/discovery/keys", ["POST"])])
        #expect(answer(r, "/common/discovery/keys", method: "POST").1 == "/{tenant}/discovery/keys tenant=common")
        #expect(answer(r, "/common/discovery/keys", method: "GET").1 == "/common/discovery/keys")
    }

    @Test("HEAD is answered by a GET route")
    func head() {
        let r = router([("/health", ["GET"])])
        #expect(answer(r, "/health", method: "HEAD").0 == 200)
        #expect(answer(r, "/health", method: "POST").0 == 405)
    }

    @Test("an empty segment does not satisfy a capture")
    func emptySegment() {
        let r = router([("/{tenant}/keys", nil)])
        #expect(answer(r, "//keys").0 == 404)
    }

    @Test("segments are cut at every slash, whatever the text between: non-ASCII captures keep their text")
    func nonASCIISegments() {
        let r = router([("/{tenant}/{policy}/x", nil), ("/a/{rest...}", nil)])
        #expect(answer(r, "/Zoë/😀 b/x") == (200, "/{tenant}/{policy}/x tenant=Zoë policy=😀 b"))
        #expect(answer(r, "/Zoë/😀/x/") == (200, "/{tenant}/{policy}/x tenant=Zoë policy=😀"))
        #expect(answer(r, "/a/é//ü/") == (200, "/a/{rest...} rest=é//ü/"))
        #expect(answer(r, "Zoë/p/x") == (200, "/{tenant}/{policy}/x tenant=Zoë policy=p"))
        #expect(answer(r, "/Zoë//x").0 == 404)
    }

    /// Segments are read by byte offsets in the path: empty segments in the middle, a catch-all's raw rest (slashes
    /// and a trailing slash kept), captures at the last segment, and a path of nothing but slashes.
    @Test("empty segments, a catch-all's raw rest and a path of only slashes are read as segments")
    func segmentEdges() {
        let r = router([("/{tenant}/x/{id}", nil), ("/files/{rest...}", nil), ("/{tenant}", nil)])
        #expect(answer(r, "/t/x/7").1 == "/{tenant}/x/{id} tenant=t id=7")
        #expect(answer(r, "/t/x/7/").1 == "/{tenant}/x/{id} tenant=t id=7")
        #expect(answer(r, "/t/x//").0 == 404)
        #expect(answer(r, "/t//x/7").0 == 404)
        #expect(answer(r, "/files/a//b/").1 == "/files/{rest...} rest=a//b/")
        #expect(answer(r, "/files//").1 == "/files/{rest...} rest=/")
        #expect(answer(r, "/Ünïcödé").1 == "/{tenant} tenant=Ünïcödé")
        #expect(answer(r, String(repeating: "/", count: 5000)).0 == 404)
        #expect(answer(r, "").0 == 404)
    }
}
