/// One request while libmicrohttpd reads it: created when the request line arrives, released when the request
/// completes or is abandoned (libmicrohttpd's NOTIFY_COMPLETED), and touched only by the connection's worker thread.
final class PendingRequest {
    /// The request target exactly as sent, e.g. "/common/oauth2/v2.0/token?x=%2B"; nil when its raw bytes
    /// are not UTF-8.
    let target: String?
    /// False until the access handler has seen the headers (its first call).
    var headersSeen = false
    /// The header fields, read once at the access handler's first call.
    var headers: HTTPHeaders?
    /// The body received so far.
    var body: [UInt8] = []
    /// Set once the body passed the size limit; the rest is read and dropped, then 413 is sent.
    var bodyTooLarge = false
    /// Bytes of an oversized body read and dropped so far.
    var discarded = 0
    /// A response waiting for its delay to pass while the connection is suspended; queued when it resumes.
    var delayedResponse: HTTPResponse?

    init(target: String?) {
        self.target = target
    }
}
