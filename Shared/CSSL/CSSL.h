// OpenSSL 3 (Debian's libssl-dev): TLS for every listener and client, with inline shims for the
// settings OpenSSL spells as function-like macros over SSL_CTX_ctrl/SSL_ctrl, which Swift cannot call.
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <string.h>

// TLS 1.3 only: a peer offering 1.2 or below fails the handshake.
static inline int CSSL_requireTLS13(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_3_VERSION);
}

// SSL_write may take part of a buffer, and the retry after SSL_ERROR_WANT_WRITE may start at the same
// bytes from another address (HeldOutput copies what the socket refused).
static inline void CSSL_allowPartialWrites(SSL_CTX *context) {
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER
                                  | SSL_MODE_RELEASE_BUFFERS);
}

// Server Name Indication for a client connecting by name.
static inline int CSSL_setServerName(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

// ALPN: the protocol list both sides name, "h2" in its wire form.
static const unsigned char CSSL_h2[] = {2, 'h', '2'};

static inline int CSSL_selectH2(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                         const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl;
    (void)arg;
    unsigned char *selected = NULL;
    if (SSL_select_next_proto(&selected, outlen, CSSL_h2, sizeof CSSL_h2, in, inlen)
        != OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_ALERT_FATAL;  // the client offers ALPN without h2: no_application_protocol
    }
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

// A server answers ALPN with h2 or refuses the handshake; a client offers only h2.
static inline void CSSL_serverSelectsH2(SSL_CTX *context) {
    SSL_CTX_set_alpn_select_cb(context, CSSL_selectH2, NULL);
}

static inline int CSSL_clientOffersH2(SSL_CTX *context) {
    return SSL_CTX_set_alpn_protos(context, CSSL_h2, sizeof CSSL_h2) == 0;
}

// Reads whole socket buffers into OpenSSL instead of two reads per record: fewer system calls per call.
static inline void CSSL_readAhead(SSL_CTX *context) {
    SSL_CTX_set_read_ahead(context, 1);
}

// The DNS and URI subject alternative names of the verified peer certificate, '\n'-separated, into
// `out`; the length written, or -1 without a certificate. Names that do not fit are left out.
static inline int CSSL_peerNames(SSL *ssl, char *out, int capacity) {
    X509 *certificate = SSL_get0_peer_certificate(ssl);
    if (certificate == NULL) return -1;
    GENERAL_NAMES *names = X509_get_ext_d2i(certificate, NID_subject_alt_name, NULL, NULL);
    int used = 0;
    for (int index = 0; names != NULL && index < sk_GENERAL_NAME_num(names); index++) {
        const GENERAL_NAME *name = sk_GENERAL_NAME_value(names, index);
        const ASN1_IA5STRING *text = NULL;
        if (name->type == GEN_DNS) text = name->d.dNSName;
        else if (name->type == GEN_URI) text = name->d.uniformResourceIdentifier;
        if (text == NULL || text->length <= 0 || used + text->length + 1 > capacity) continue;
        memcpy(out + used, text->data, (size_t)text->length);
        used += text->length;
        out[used++] = '\n';
    }
    GENERAL_NAMES_free(names);
    return used;
}
