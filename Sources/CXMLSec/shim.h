#ifndef CXMLSEC_SHIM_H
#define CXMLSEC_SHIM_H
// libxml2 and xmlsec1 (its OpenSSL back end) for Swift: SAML's XML, parsed, signed and verified.
//
// The macros `pkg-config --cflags xmlsec1-openssl` prints, defined before any xmlsec header: they change the library's
// types and structs (XMLSEC_NO_SIZE_T makes xmlSecSize an unsigned int, as the library was built), so a header read
// without them describes structs that silently differ from the library's. SwiftPM drops pkg-config's -D flags
// ("prohibited flag(s)"), so these are the only definitions; the guards keep them from clashing with a build that
// passes them.
#ifndef __XMLSEC_FUNCTION__
#define __XMLSEC_FUNCTION__ __func__
#endif
#ifndef XMLSEC_NO_SIZE_T
#define XMLSEC_NO_SIZE_T
#endif
#ifndef XMLSEC_OPENSSL3_ENGINES
#define XMLSEC_OPENSSL3_ENGINES 1
#endif
#ifndef XMLSEC_NO_GOST
#define XMLSEC_NO_GOST 1
#endif
#ifndef XMLSEC_NO_GOST2012
#define XMLSEC_NO_GOST2012 1
#endif
#ifndef XMLSEC_NO_CRYPTO_DYNAMIC_LOADING
#define XMLSEC_NO_CRYPTO_DYNAMIC_LOADING 1
#endif
#ifndef XMLSEC_CRYPTO_OPENSSL
#define XMLSEC_CRYPTO_OPENSSL 1
#endif

// libxml2 as Debian builds it (LIBXML_ICU_ENABLED) includes the system ICU's <unicode/ucnv.h> only to name two ICU
// types in a struct of its encoding handlers. Foundation carries its own, newer ICU (module _FoundationICU), and a Swift
// module that sees both copies fails to build: "'UErrorCode' has different definitions in different modules". The
// guard below keeps the system header out and declares just the two names the struct uses, with ICU's own
// definitions (UConverter is opaque; UChar is a 16-bit code unit), so the struct's layout stays the library's.
#ifndef UCNV_H
#define UCNV_H
typedef struct UConverter UConverter;
typedef unsigned short UChar;
#endif

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlsave.h>
#include <xmlsec/xmlsec.h>
#include <xmlsec/base64.h>
#include <xmlsec/errors.h>
#include <xmlsec/keys.h>
#include <xmlsec/keysmngr.h>
#include <xmlsec/transforms.h>
#include <xmlsec/xmldsig.h>
#include <xmlsec/xmltree.h>
#include <xmlsec/openssl/app.h>
#include <xmlsec/openssl/crypto.h>
#include <zlib.h>

// Transform identifiers are function-like macros (`xmlSecTransformExclC14NId` is `xmlSecTransformExclC14NGetKlass()`),
// which Swift does not import: each is a function here.

/// `xmlSecTransformExclC14NId`, a macro: exclusive canonicalization without comments.
static inline xmlSecTransformId CXMLSec_transformExclC14N(void) { return xmlSecTransformExclC14NGetKlass(); }

/// `xmlSecTransformEnvelopedId`, a macro: the enveloped-signature transform.
static inline xmlSecTransformId CXMLSec_transformEnveloped(void) { return xmlSecTransformEnvelopedGetKlass(); }

/// `xmlSecOpenSSLTransformSha256Id`, a macro.
static inline xmlSecTransformId CXMLSec_transformSHA256(void) { return xmlSecOpenSSLTransformSha256GetKlass(); }

/// `xmlSecOpenSSLTransformSha1Id`, a macro.
static inline xmlSecTransformId CXMLSec_transformSHA1(void) { return xmlSecOpenSSLTransformSha1GetKlass(); }

/// `xmlSecOpenSSLTransformRsaSha256Id`, a macro.
static inline xmlSecTransformId CXMLSec_transformRSASHA256(void) { return xmlSecOpenSSLTransformRsaSha256GetKlass(); }

/// `xmlSecOpenSSLTransformRsaSha1Id`, a macro.
static inline xmlSecTransformId CXMLSec_transformRSASHA1(void) { return xmlSecOpenSSLTransformRsaSha1GetKlass(); }

/// `inflateInit2` is a macro (over `inflateInit2_`, with the library's version and the stream's size).
static inline int CXMLSec_inflateInitRaw(z_stream *stream) { return inflateInit2(stream, -15); }

/// `deflateInit2` is a macro too: raw DEFLATE (no zlib header), the default level, memory and strategy.
static inline int CXMLSec_deflateInitRaw(z_stream *stream) {
    return deflateInit2(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

/// `xmlFree` is a variable holding a function pointer in libxml2 (set by `xmlMemSetup`), which Swift imports only as a
/// value of an optional function type: one call here frees what libxml2 allocated.
static inline void CXMLSec_free(void *pointer) { xmlFree(pointer); }

#endif
