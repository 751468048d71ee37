#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
// OpenSSL 3 (libcrypto only) for Swift. The static inline functions below stand in for
// function-like macros, which Swift does not import.
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/ec.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/rand.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>
// OSSL_PARAM_BLD: building RSA keys from JWK components with EVP_PKEY_fromdata (no deprecated RSA_* calls).
#include <openssl/param_build.h>

/// BIO_get_mem_data is a macro: the bytes written to a memory BIO.
static inline long COpenSSL_BIO_get_mem_data(BIO *b, char **pp) { return BIO_get_mem_data(b, pp); }

/// BN_num_bytes is a macro.
static inline int COpenSSL_BN_num_bytes(const BIGNUM *bn) { return BN_num_bytes(bn); }

/// EVP_RSA_gen is a macro over a variadic function.
static inline EVP_PKEY *COpenSSL_RSA_generate(unsigned int bits) { return EVP_RSA_gen(bits); }

/// EVP_EC_gen is a macro over a variadic function.
static inline EVP_PKEY *COpenSSL_EC_generate(const char *curve) { return EVP_EC_gen(curve); }

/// OPENSSL_free is a macro.
static inline void COpenSSL_free(void *p) { OPENSSL_free(p); }

#endif
