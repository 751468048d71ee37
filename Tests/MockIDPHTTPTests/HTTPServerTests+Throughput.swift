import Foundation
import MockIDPHTTP
import Testing

/// Opt-in throughput check with wrk: `MOCKIDP_HTTP_BENCH=1 swift test -c release --filter throughput`;
/// `MOCKIDP_HTTP_BENCH_SECONDS` sets the duration and `MOCKIDP_HTTP_BENCH_MEMORY` the largest request head.
extension HTTPServerTests {
    @Test(
        "a small JSON GET through the router sustains load without errors (prints req/s)",
        .enabled(if: ProcessInfo.processInfo.environment["MOCKIDP_HTTP_BENCH"] != nil)
    )
    func throughput() throws {
        var router = Router()
        let document = Array(#"{"keys":[{"kty":"RSA","use":"sig","kid":"abc","e":"AQAB"}]}"#.utf8)
        router.add("/{tenant}/discovery/v2.0/keys", methods: ["GET"]) { _, _ in .json(document) }
        let environment = ProcessInfo.processInfo.environment
        let server = try Self.startServer(router: router) { configuration in
            if let memory = environment["MOCKIDP_HTTP_BENCH_MEMORY"].flatMap({ Int($0) }) {
                configuration.maximumHeaderSize = memory
            }
        }
        defer { server.stop() }
        let url = try #require(server.boundListeners.first).baseURL + "/contoso.onmicrosoft.com/discovery/v2.0/keys"
        let seconds = environment["MOCKIDP_HTTP_BENCH_SECONDS"] ?? "5"
        let result = try Self.run("wrk", ["-t1", "-c32", "-d\(seconds)s", "--latency", url])
        print(result.output)
        #expect(result.status == 0)
        #expect(result.output.contains("Requests/sec"))
        #expect(!result.output.contains("Non-2xx"), "some responses were not 2xx")
        #expect(!result.output.contains("Socket errors"), "wrk saw socket errors")
    }
}
