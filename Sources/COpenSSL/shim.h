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
// OSSL_DECODER: reading the state directory's PKCS#8 RSA key with one decoder instead of all of them.
#include <openssl/decoder.h>

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

/// AES-256-GCM sealing of `in` (inlen bytes) under a 32-byte key and a 12-byte nonce: `out` receives inlen bytes
/// of ciphertext and `tag` 16 bytes. The GCM tag controls are macros, so the whole call lives here. 1 on success.
static inline int COpenSSL_aes256gcm_seal(const unsigned char *key, const unsigned char *nonce, const unsigned char *in,
                                          int inlen, unsigned char *out, unsigned char *tag)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return 0;
    int length = 0, final = 0;
    int ok = EVP_EncryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, nonce) == 1
        && EVP_EncryptUpdate(ctx, out, &length, in, inlen) == 1
        && EVP_EncryptFinal_ex(ctx, out + length, &final) == 1
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/// Opens what `COpenSSL_aes256gcm_seal` sealed: 1 when the tag verifies (then `out` holds inlen bytes), else 0.
static inline int COpenSSL_aes256gcm_open(const unsigned char *key, const unsigned char *nonce, const unsigned char *in,
                                          int inlen, const unsigned char *tag, unsigned char *out)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return 0;
    int length = 0, final = 0;
    int ok = EVP_DecryptInit_ex(ctx, EVP_aes_256_gcm(), NULL, key, nonce) == 1
        && EVP_DecryptUpdate(ctx, out, &length, in, inlen) == 1
        && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, 16, (void *)tag) == 1
        && EVP_DecryptFinal_ex(ctx, out + length, &final) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

#endif
