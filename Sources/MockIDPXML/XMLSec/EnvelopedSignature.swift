import CXMLSec
import MockIDPJOSE

/// Enveloped XML signatures through xmlsec: signing the templates `SignatureTemplate` writes, and checking one.
enum EnvelopedSignature {
    /// A key xmlsec holds: freed with the object.
    final class OwnedKey {
        let pointer: xmlSecKeyPtr

        init(_ pointer: xmlSecKeyPtr) { self.pointer = pointer }

        deinit { xmlSecKeyDestroy(pointer) }

        /// A private key from PKCS#8 or traditional PEM.
        static func privateKey(pem: String) throws(XMLError) -> OwnedKey {
            try load(Array(pem.utf8), format: xmlSecKeyDataFormatPem)
        }

        /// A certificate's public key, from the certificate's PEM.
        static func certificateKey(pem: String) throws(XMLError) -> OwnedKey {
            try load(Array(pem.utf8), format: xmlSecKeyDataFormatCertPem)
        }

        private static func load(_ bytes: [UInt8], format: xmlSecKeyDataFormat) throws(XMLError) -> OwnedKey {
            try XMLSecLibrary.prepare()
            let key = bytes.withUnsafeBufferPointer { xmlSecOpenSSLAppKeyLoadMemory($0.baseAddress, UInt32($0.count), format, nil, nil, nil) }
            guard let key else { throw XMLError("xmlsec could not load the key") }
            return OwnedKey(key)
        }

        /// A copy for a signature context, which frees the key it is given.
        func duplicate() throws(XMLError) -> xmlSecKeyPtr {
            guard let copy = xmlSecKeyDuplicate(pointer) else { throw XMLError("out of memory copying a key") }
            return copy
        }
    }

    /// A signature context: freed with the object.
    final class Context {
        let pointer: xmlSecDSigCtxPtr

        /// A context that signs or verifies with `key` only (never a key named in the message), follows references
        /// inside the document only, and runs only the transforms and algorithms SAML signatures use.
        init(key: xmlSecKeyPtr) throws(XMLError) {
            guard let context = xmlSecDSigCtxCreate(nil) else {
                xmlSecKeyDestroy(key)
                throw XMLError("out of memory creating a signature context")
            }
            pointer = context
            context.pointee.signKey = key
            context.pointee.enabledReferenceUris = xmlSecTransformUriType(xmlSecTransformUriTypeSameDocument)
            let allowed = [
                CXMLSec_transformExclC14N(), CXMLSec_transformEnveloped(), CXMLSec_transformSHA256(), CXMLSec_transformSHA1(),
                CXMLSec_transformRSASHA256(), CXMLSec_transformRSASHA1(),
            ]
            for transform in allowed {
                guard xmlSecDSigCtxEnableReferenceTransform(context, transform) == 0,
                      xmlSecDSigCtxEnableSignatureTransform(context, transform) == 0 else {
                    throw XMLError("the signature context could not be set up")
                }
            }
        }

        deinit { xmlSecDSigCtxDestroy(pointer) }
    }

    /// Signs the signature template `node` with `key`: fills its `DigestValue` and `SignatureValue`.
    static func sign(_ node: xmlNodePtr, key: OwnedKey) throws(XMLError) {
        let context = try Context(key: try key.duplicate())
        guard xmlSecDSigCtxSign(context.pointer, node) == 0 else { throw XMLError("xmlsec could not sign the XML") }
    }

    /// Whether the signature `node` verifies with `certificate`'s key.
    static func verify(_ node: xmlNodePtr, certificate: Certificate) -> Bool {
        guard let key = try? OwnedKey.certificateKey(pem: certificate.pem),
              let copy = try? key.duplicate(),
              let context = try? Context(key: copy) else { return false }
        return xmlSecDSigCtxVerify(context.pointer, node) == 0 && context.pointer.pointee.status == xmlSecDSigStatusSucceeded
    }
}
