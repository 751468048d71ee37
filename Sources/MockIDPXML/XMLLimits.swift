/// The bounds an inbound SAML message (an `AuthnRequest`, a `LogoutRequest`) is read under, so that an XML bomb, a
/// deflate bomb or a huge request costs bounded time and memory and gets a clear refusal.
package struct XMLLimits: Sendable {
    /// The most bytes of XML parsed (after base64 and inflating).
    package var maxDocumentBytes: Int
    /// The deepest element nesting accepted (a SAML request nests five or six levels).
    package var maxDepth: Int
    /// The most elements a document may hold.
    package var maxElements: Int
    /// The most bytes a DEFLATE'd message (the HTTP-Redirect binding) may inflate to.
    package var maxInflatedBytes: Int
    /// The largest ratio of inflated to deflated size accepted once the output passes `ratioFloor` bytes.
    package var maxInflateRatio: Int
    /// The size below which any ratio is accepted (short text compresses well).
    package var ratioFloor: Int

    /// The bounds mockidp reads requests under: far above any real request, far below any harm.
    package static let inbound = XMLLimits(
        maxDocumentBytes: 128 * 1024, maxDepth: 24, maxElements: 2_000,
        maxInflatedBytes: 128 * 1024, maxInflateRatio: 100, ratioFloor: 16 * 1024
    )

    /// Bounds given one by one.
    package init(maxDocumentBytes: Int, maxDepth: Int, maxElements: Int, maxInflatedBytes: Int, maxInflateRatio: Int, ratioFloor: Int) {
        self.maxDocumentBytes = maxDocumentBytes
        self.maxDepth = maxDepth
        self.maxElements = maxElements
        self.maxInflatedBytes = maxInflatedBytes
        self.maxInflateRatio = maxInflateRatio
        self.ratioFloor = ratioFloor
    }
}
