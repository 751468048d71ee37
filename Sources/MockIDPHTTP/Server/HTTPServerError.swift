/// Why the HTTP server could not start, in one sentence such as
/// "cannot listen on 127.0.0.1:8443: the address is already in use".
package struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    /// The sentence.
    package var description: String
    /// The listener that failed, when the problem belongs to one.
    package var listener: HTTPServer.Listener?

    init(_ description: String, listener: HTTPServer.Listener? = nil) {
        self.description = description
        self.listener = listener
    }

    /// "cannot listen on <address>: <reason>".
    static func cannotListen(on address: String, _ reason: String, listener: HTTPServer.Listener) -> HTTPServerError {
        HTTPServerError("cannot listen on \(address): \(reason)", listener: listener)
    }
}
