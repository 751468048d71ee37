import MockIDPHTTP
import Testing

@Suite struct HTTPResponseTests {
    @Test("factories set the content type, status and body")
    func factories() {
        let json = HTTPResponse.json(Array("{}".utf8), status: .created)
        #expect(json.status == .created)
        #expect(json.headers["content-type"] == "application/json; charset=utf-8")
        #expect(json.body == Array("{}".utf8))
        #expect(HTTPResponse.html("<p>").headers["Content-Type"] == "text/html; charset=utf-8")
        let text = HTTPResponse.text("hé", status: .badRequest)
        #expect(text.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(text.body == [0x68, 0xC3, 0xA9])
        #expect(text.status.rawValue == 400)
    }

    @Test("a redirect carries Location, the given status and no body")
    func redirect() {
        let found = HTTPResponse.redirect(to: "https://app/cb?code=x")
        #expect(found.status == .found)
        #expect(found.headers["location"] == "https://app/cb?code=x")
        #expect(found.body.isEmpty)
        #expect(HTTPResponse.redirect(to: "/", status: .seeOther).status.rawValue == 303)
    }

    @Test("statuses compare by code and know their reason phrase")
    func statuses() {
        #expect(HTTPStatus(rawValue: 404) == .notFound)
        #expect(HTTPStatus.requestHeaderFieldsTooLarge.rawValue == 431)
        #expect(HTTPStatus.methodNotAllowed.reasonPhrase == "Method Not Allowed")
        #expect(HTTPStatus(rawValue: 418).reasonPhrase == "Status 418")
        #expect(HTTPStatus.tooManyRequests.description == "429 Too Many Requests")
    }
}
