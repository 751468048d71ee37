#ifndef CTLS_SHIM_H
#define CTLS_SHIM_H
// OpenSSL's libssl, for MockIDPHTTPClient: `mockidp probe`'s requests to the API under test and the
// server's fetches of trusted issuers' key sets (the server's own TLS is libmicrohttpd's). The static inline functions stand in for function-like macros, which Swift does not import.
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

/// SSL_set_tlsext_host_name is a macro: Server Name Indication.
static inline long CTLS_set_server_name(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
/// SSL_CTX_set_min_proto_version is a macro.
static inline long CTLS_set_min_tls12(SSL_CTX *ctx) { return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION); }
#endif
