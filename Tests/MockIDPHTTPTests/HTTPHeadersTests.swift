import MockIDPHTTP
import Testing

@Suite struct HTTPHeadersTests {
    @Test("lookup ignores the case of the name")
    func caseInsensitiveLookup() {
        let headers: HTTPHeaders = ["Content-Type": "application/json"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers["Content-Length"] == nil)
        #expect(headers.contains("content-TYPE"))
    }

    @Test("names match ignoring ASCII case only, short and long, from substrings too")
    func nameMatching() {
        let long = "X-Mockidp-A-Header-Name-Longer-Than-Fifteen-Bytes"
        let headers = HTTPHeaders([(name: "Content-Type", value: "a"), (name: long, value: "b"), (name: "X-Café", value: "c")])
        #expect(headers["CONTENT-TYPE"] == "a" && headers["content-typ"] == nil && headers["content-type "] == nil)
        #expect(headers[long.uppercased()] == "b" && headers[long.lowercased()] == "b")
        #expect(headers[String(long.dropLast())] == nil && headers[String(long.dropLast()) + "T"] == nil)
        #expect(headers["x-café"] == "c" && headers["X-CAFÉ"] == nil)  // É is not ASCII: no folding
        let sub = "..content-type..".dropFirst(2).dropLast(2)
        #expect(headers[String(sub)] == "a")
        #expect(headers["Content-Typf"] == nil && headers["Content-Tzpe"] == nil)
    }

    @Test("the subscript gets the first value and values gets all in order")
    func firstAndAllValues() {
        var headers = HTTPHeaders()
        headers.add("Set-Cookie", "a=1")
        headers.add("X-Other", "x")
        headers.add("set-cookie", "b=2")
        #expect(headers["SET-COOKIE"] == "a=1")
        #expect(headers.values("Set-Cookie") == ["a=1", "b=2"])
        #expect(headers.count == 3)
    }

    @Test("setting replaces every field of that name in place and nil removes them")
    func setReplacesAndRemoves() {
        var headers: HTTPHeaders = ["A": "1", "B": "2", "a": "3", "C": "4"]
        headers["a"] = "new"
        #expect(headers.map(\.name) == ["a", "B", "C"])
        #expect(headers.values("A") == ["new"])
        headers["b"] = nil
        #expect(headers.map(\.name) == ["a", "C"])
        headers["D"] = "5"
        #expect(headers.map(\.value) == ["new", "4", "5"])
    }

    @Test("iteration keeps insertion order")
    func order() {
        let headers: HTTPHeaders = ["Z": "1", "A": "2", "M": "3"]
        #expect(headers.map { "\($0.name)=\($0.value)" } == ["Z=1", "A=2", "M=3"])
    }
}
