import MockIDPJOSE
import Testing

@Suite struct OpenSSLErrorTests {
    @Test("a failed call names the OpenSSL function and OpenSSL's reasons")
    func reasons() throws {
        let error = try #require(throws: OpenSSLError.self) { try PublicKey(pem: "no key here") }
        #expect(error.operation == "PEM_read_bio_PUBKEY")
        // OpenSSL 3 answers through its decoder: "DECODER routines: unsupported (No supported data to decode. …)".
        #expect(error.reasons.contains { $0.hasPrefix("DECODER routines: ") || $0.hasPrefix("PEM routines: ") }, "\(error)")
        #expect(error.description.hasPrefix("PEM_read_bio_PUBKEY failed: "))
    }

    @Test("errors from one failure do not leak into the next")
    func drained() throws {
        let first = try #require(throws: OpenSSLError.self) { try PublicKey(pem: "no key here") }
        let second = try #require(throws: OpenSSLError.self) { try PublicKey(pem: "no key here either") }
        #expect(!first.reasons.isEmpty)
        #expect(first.reasons == second.reasons)
    }
}
