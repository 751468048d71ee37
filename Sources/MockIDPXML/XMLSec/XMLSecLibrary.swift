import CXMLSec

/// libxml2's and xmlsec's one-time set-up, done once per process before the first parse or signature: the parser's
/// globals (so that threads may parse at once), xmlsec and its OpenSSL back end, errors kept off standard error (each
/// failure is thrown as an `XMLError` instead), and base64 without line breaks, as Entra writes its signatures.
enum XMLSecLibrary {
    /// The set-up's outcome, computed once (a global's lazy initialization is thread-safe in Swift).
    private static let outcome: Result<Void, XMLError> = {
        xmlInitParser()
        guard xmlSecInit() == 0 else { return .failure(XMLError("xmlsec could not be initialized")) }
        guard xmlSecOpenSSLAppInit(nil) == 0, xmlSecOpenSSLInit() == 0 else {
            return .failure(XMLError("xmlsec's OpenSSL back end could not be initialized"))
        }
        xmlSecErrorsDefaultCallbackEnableOutput(0)
        xmlSecBase64SetDefaultLineSize(0)
        return .success(())
    }()

    /// Sets the libraries up the first time; throws when they cannot be.
    static func prepare() throws(XMLError) {
        if case .failure(let error) = outcome { throw error }
    }
}
