// The floor of the token path on this stack, for bench/run: libmicrohttpd and libcrypto doing nothing but HTTP and
// one RS256 signature a token. Built like mockidp's listener (one accepting thread handing connections round-robin to
// one libmicrohttpd daemon per core, TLS through the same GnuTLS priorities), it answers
//   GET  anything -> a fixed 1,667-byte JSON body with discovery's headers (the size of mockidp's v2 document);
//   POST anything -> the body is read and ignored; a token response of mockidp's size whose access token is a JWT of
//                    mockidp's length, signed RS256 for every request.
// Its tokens/s against the bound 1/(1/signs + 1/discovery) is what a server with no work of its own reaches on this
// machine; mockidp's efficiency is judged beside it. Not part of the product.
// Usage: reference-server PORT KEY.pem [CERT.pem] (with a certificate it speaks HTTPS only).
// REFERENCE_WORK_US=N adds N microseconds of the worker's CPU time to every token (a busy loop before the signature):
// what efficiency a server keeps with that much work of its own (docs/performance.md, "How much work 0.9 leaves").
#define _GNU_SOURCE
#include <microhttpd.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static EVP_PKEY *key;
static struct MHD_Response *document;
static char body[1667];
static long work_ns;  // REFERENCE_WORK_US, in nanoseconds

static long thread_cpu_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return now.tv_sec * 1000000000L + now.tv_nsec;
}

static void work(void) {  // burns work_ns of this thread's CPU time (not wall time: a preemption does not count)
    if (work_ns == 0) return;
    long end = thread_cpu_ns() + work_ns;
    while (thread_cpu_ns() < end) {}
}

static size_t base64url(const unsigned char *in, size_t n, char *out) {
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    size_t o = 0, i = 0;
    for (; i + 2 < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16 | (unsigned)in[i + 1] << 8 | in[i + 2];
        out[o++] = table[v >> 18]; out[o++] = table[(v >> 12) & 63]; out[o++] = table[(v >> 6) & 63]; out[o++] = table[v & 63];
    }
    if (n - i >= 1) {
        unsigned v = (unsigned)in[i] << 16 | (n - i == 2 ? (unsigned)in[i + 1] << 8 : 0);
        out[o++] = table[v >> 18]; out[o++] = table[(v >> 12) & 63];
        if (n - i == 2) out[o++] = table[(v >> 6) & 63];
    }
    return o;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **state) {
    (void)cls; (void)url; (void)version; (void)upload;
    if (*state == NULL) { *state = connection; return MHD_YES; }  // queueing on the first call would end keep-alive
    if (strcmp(method, "POST") != 0) return MHD_queue_response(connection, MHD_HTTP_OK, document);
    if (*upload_size != 0) { *upload_size = 0; return MHD_YES; }
    work();
    char out[2048], *p = out;
    p += sprintf(p, "{\"token_type\":\"Bearer\",\"expires_in\":3599,\"ext_expires_in\":3599,\"access_token\":\"");
    char *input = p;  // a JWT's header and claims as long as mockidp's: 84 and 782 characters
    memset(p, 'e', 84); p += 84; *p++ = '.'; memset(p, 'e', 782); p += 782;
    unsigned char signature[512];
    size_t length = sizeof signature;
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context == NULL || EVP_DigestSignInit(context, NULL, EVP_sha256(), NULL, key) != 1
        || EVP_DigestSign(context, signature, &length, (const unsigned char *)input, (size_t)(p - input)) != 1) abort();
    EVP_MD_CTX_free(context);
    *p++ = '.';
    p += base64url(signature, length, p);
    p += sprintf(p, "\"}");
    struct MHD_Response *response = MHD_create_response_from_buffer((size_t)(p - out), out, MHD_RESPMEM_MUST_COPY);
    MHD_add_response_header(response, "Content-Type", "application/json; charset=utf-8");
    MHD_add_response_header(response, "Cache-Control", "no-store, no-cache");
    MHD_add_response_header(response, "Pragma", "no-cache");
    enum MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return queued;
}

static char *read_file(const char *path) {
    FILE *file = fopen(path, "r");
    if (file == NULL) { perror(path); exit(1); }
    char *text = calloc(1, 65536);
    fread(text, 1, 65535, file);
    fclose(file);
    return text;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: reference-server PORT KEY.pem [CERT.pem]\n"); return 2; }
    const char *work_us = getenv("REFERENCE_WORK_US");
    work_ns = work_us != NULL ? atol(work_us) * 1000L : 0;
    char *key_pem = read_file(argv[2]);
    BIO *bio = BIO_new_mem_buf(key_pem, -1);
    key = PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    if (key == NULL) { fprintf(stderr, "reference-server: cannot read the key\n"); return 1; }
    memset(body, ' ', sizeof body);
    body[0] = '{'; body[1] = '}';
    document = MHD_create_response_from_buffer(sizeof body, body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(document, "Content-Type", "application/json; charset=utf-8");
    MHD_add_response_header(document, "Cache-Control", "max-age=86400, private");
    MHD_add_response_header(document, "Access-Control-Allow-Origin", "*");
    MHD_add_response_header(document, "Access-Control-Allow-Methods", "GET, OPTIONS");

    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    struct MHD_Daemon **daemons = calloc((size_t)cores, sizeof *daemons);
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ERROR_LOG;
    for (long i = 0; i < cores; i++) {
        if (argc > 3)
            daemons[i] = MHD_start_daemon(flags | MHD_USE_TLS, 0, NULL, NULL, handle, NULL,
                                          MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536,
                                          MHD_OPTION_HTTPS_MEM_KEY, key_pem, MHD_OPTION_HTTPS_MEM_CERT, read_file(argv[3]),
                                          MHD_OPTION_HTTPS_PRIORITIES, "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2",
                                          MHD_OPTION_END);
        else
            daemons[i] = MHD_start_daemon(flags, 0, NULL, NULL, handle, NULL,
                                          MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536, MHD_OPTION_END);
        if (daemons[i] == NULL) { fprintf(stderr, "reference-server: libmicrohttpd did not start\n"); return 1; }
    }
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), on = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1])),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1024) != 0) {
        perror("reference-server: listen");
        return 1;
    }
    for (unsigned long next = 0;; next++) {
        struct sockaddr_in peer;
        socklen_t peer_length = sizeof peer;
        int fd = accept4(listener, (struct sockaddr *)&peer, &peer_length, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) continue;
        if (MHD_add_connection(daemons[next % (unsigned long)cores], fd, (struct sockaddr *)&peer, peer_length) != MHD_YES)
            close(fd);
    }
}
