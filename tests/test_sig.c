/* SPDX-License-Identifier: BSD-2-Clause */
/* Web Bot Auth signatures (ra_sig.h): the protocol draft's Ed25519 test
 * vectors (the key of RFC 9421 B.1.4), keys made here with libcrypto, a
 * forged, an expired, a misdirected and an incomplete signature, JWK Set
 * files, and hostile header fields. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "ra_test.h"
#include "ra_sig.h"
#include "ra_audit.h"
#include "ra_alert.h"
#include "ra_buf.h"
#include "ra_crawlers.h"
#include "ra_ledger.h"

/* RFC 9421 B.1.4's Ed25519 key (public), and its RFC 7638 thumbprint as
 * the draft's vectors give it */
#define RFC_X    "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"
#define RFC_KID  "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U"

static ra_host_t
host(void)
{
    ra_host_t  h;

    memset(&h, 0, sizeof(h));
    h.heap = ra_malloc_allocator;
    ra_host_crypto_libcrypto(&h);
    return h;
}

static ra_str_t
S(const char *s)
{
    return ra_str(s, strlen(s));
}

static ra_sig_keys_t *
keys_with(ra_test_arena_t *ar, const char *origin, const char *jwks)
{
    ra_host_t       h = host();
    ra_sig_keys_t  *k = ra_sig_keys_create(ra_test_arena_alloc(ar));
    const char     *why = NULL;
    size_t          added = 0;

    assert_non_null(k);
    assert_int_equal(ra_sig_keys_add_jwks(k, &h, S(origin), S(jwks), &added,
                                          &why), RA_OK);
    assert_true(added >= 1);
    return k;
}

/* the draft's request: GET to example.com */
static ra_sig_request_t
req(const char *sig, const char *input, const char *agent)
{
    ra_sig_request_t  r;

    memset(&r, 0, sizeof(r));
    r.signature = S(sig);
    r.signature_input = S(input);
    r.signature_agent = S(agent);
    r.method = S("GET");
    r.authority = S("example.com");
    r.target = S("/");
    r.scheme = S("https");
    return r;
}

static unsigned
verify(const ra_sig_keys_t *k, const ra_sig_request_t *r, int64_t now_s,
    ra_sig_verdict_t *v)
{
    ra_host_t        h = host();
    ra_sig_window_t  w = { now_s * 1000, 0, -1 };

    return (unsigned) ra_sig_verify(k, &h, r, &w, NULL, v);
}

#define RFC_JWKS  "{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"" \
                  RFC_KID "\",\"x\":\"" RFC_X "\",\"use\":\"sig\"}]}"

/* draft-ietf-webbotauth-httpsig-protocol, Appendix E.2.1 */
#define V1_INPUT  "sig2=(\"@authority\" \"signature-agent\";key=\"sig2\")" \
    ";created=1735689600;keyid=\"" RFC_KID "\";alg=\"ed25519\"" \
    ";expires=4889289600;nonce=\"n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpG" \
    "CVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==\";tag=\"web-bot-auth\""
#define V1_SIG    "sig2=:CGokAoY/FrPpyuzTe1Fb2kLTAH9Idw6qSFd1+D77r1firsMRCxeu" \
    "Lu5e6O+ek3zQgDMAzjiXtLVfqE00xnABCQ==:"
#define V1_AGENT  "sig2=\"https://signature-agent.test\""

/* Appendix E.2.2: the legacy String Signature-Agent */
#define V2_INPUT  "sig2=(\"@authority\" \"signature-agent\")" \
    ";created=1735689600;keyid=\"" RFC_KID "\";alg=\"ed25519\"" \
    ";expires=1735693200;nonce=\"e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowz" \
    "k4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==\";tag=\"web-bot-auth\""
#define V2_SIG    "sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKr" \
    "D+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:"
#define V2_AGENT  "\"https://signature-agent.test\""

/*
 * An absolute-form request target ("GET https://victim.test/ HTTP/1.1")
 * names the authority the server answers for; RFC 9112 3.2.2: the
 * server ignores Host then, and RFC 9421 2.2.3 derives @authority from
 * the target URI.  A signature an attacker captured on a site of his
 * (Host example.com: the agent visited it) must not verify when
 * replayed to another site with the same Host header and the victim's
 * name in the request line.
 */
static void
absolute_form_authority(void **state)
{
    ra_test_arena_t   *ar = ra_test_arena_new();
    ra_sig_keys_t     *k = keys_with(ar, "signature-agent.test", RFC_JWKS);
    ra_sig_request_t   r;
    ra_sig_verdict_t   v;

    (void) state;
    r = req(V1_SIG, V1_INPUT, V1_AGENT);
    r.target = S("https://victim.test/");
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_INVALID);
    r.target = S("http://victim.test:8080/a?b");
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_INVALID);
    /* the target's own authority is the one signed: valid whatever Host */
    r.target = S("https://Example.com/");
    r.authority = S("victim.test");
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_VALID);
    r.target = S("https://example.com:443/x");
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_VALID);
    /* userinfo in the target: not an authority this signs */
    r.target = S("https://a@example.com/");
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_INVALID);
    ra_test_arena_free(ar);
}

static void
draft_vectors(void **state)
{
    ra_test_arena_t   *ar = ra_test_arena_new();
    ra_sig_keys_t     *k = keys_with(ar, "signature-agent.test", RFC_JWKS);
    ra_sig_request_t   r;
    ra_sig_verdict_t   v;
    unsigned char      base[2048];
    const char        *why = NULL;
    long               n;
    static const char  base1[] =
        "\"@authority\": example.com\n"
        "\"signature-agent\";key=\"sig2\": \"https://signature-agent.test\"\n"
        "\"@signature-params\": (\"@authority\" \"signature-agent\";key=\"sig2\")"
        ";created=1735689600;keyid=\"" RFC_KID "\";alg=\"ed25519\""
        ";expires=4889289600;nonce=\"n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSp"
        "GCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==\";tag=\"web-bot-auth\"";

    (void) state;
    assert_int_equal(ra_sig_keys_count(k), 1);

    /* E.2.1: the base as printed, and it verifies */
    r = req(V1_SIG, V1_INPUT, V1_AGENT);
    n = ra_sig_base(&r, base, sizeof(base), &why);
    assert_int_equal(n, (long) strlen(base1));
    assert_memory_equal(base, base1, strlen(base1));
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_VALID);
    assert_int_equal(v.origin.len, strlen("signature-agent.test"));
    assert_memory_equal(v.origin.data, "signature-agent.test", v.origin.len);

    /* E.2.2, the legacy form, at its time (it expired in 2025) */
    r = req(V2_SIG, V2_INPUT, V2_AGENT);
    assert_int_equal(verify(k, &r, 1735689700, &v), RA_SIG_VALID);
    assert_int_equal(verify(k, &r, 1735693200 + 3600, &v), RA_SIG_INVALID);
    assert_string_equal(v.why, "the signature has expired");

    /* the signature of one vector under the other's input */
    r = req(V2_SIG, V1_INPUT, V1_AGENT);
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_INVALID);
    assert_string_equal(v.why, "the signature does not verify");

    /* another authority: the same bytes were signed for example.com */
    r = req(V1_SIG, V1_INPUT, V1_AGENT);
    r.authority = S("example.org");
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_INVALID);
    /* case and the default port do not change @authority */
    r.authority = S("Example.COM:443");
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_VALID);

    /* another agent in the header: its keys are not loaded */
    r = req(V1_SIG, V1_INPUT, "sig2=\"https://other.test\"");
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_UNCHECKED);
    assert_string_equal(v.why, "no keys for the origin");

    /* the same key published by another origin does not verify for it:
     * keys are per (origin, keyid) */
    {
        ra_sig_keys_t  *k2 = keys_with(ar, "other.test", RFC_JWKS);

        r = req(V1_SIG, V1_INPUT, V1_AGENT);
        assert_int_equal(verify(k2, &r, 1735689610, &v), RA_SIG_UNCHECKED);
    }
    ra_test_arena_free(ar);
}

static void
jwks_files(void **state)
{
    ra_test_arena_t  *ar = ra_test_arena_new();
    ra_host_t         h = host();
    ra_sig_keys_t    *k = ra_sig_keys_create(ra_test_arena_alloc(ar));
    const char       *why = NULL;
    size_t            added;
    char              kid[64];
    unsigned char     d[32];

    (void) state;
    /* the thumbprint of RFC 9421's key is the draft's keyid */
    assert_int_equal(h.sha256(&h, S("{\"crv\":\"Ed25519\",\"kty\":\"OKP\","
                                    "\"x\":\"" RFC_X "\"}"), d), RA_OK);
    (void) ra_base64url_encode(d, 32, kid);
    assert_string_equal(kid, RFC_KID);

    /* kid given and wrong: that key is skipped, so no key at all */
    assert_int_equal(ra_sig_keys_add_jwks(k, &h, S("a.test"),
        S("{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"x\","
          "\"x\":\"" RFC_X "\"}]}"), &added, &why), RA_ERROR);
    assert_int_equal(ra_sig_keys_count(k), 0);
    /* no kid: the thumbprint is computed; other key types skipped */
    assert_int_equal(ra_sig_keys_add_jwks(k, &h, S("a.test"),
        S("{\"keys\":[{\"kty\":\"RSA\",\"n\":\"AQAB\",\"e\":\"AQAB\"},"
          "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"" RFC_X "\"}]}"),
        &added, &why), RA_OK);
    assert_int_equal(added, 1);
    assert_true(ra_sig_keys_has_host(k, S("A.TEST")));
    /* bad x, bad JSON, no keys, a file not named after a host */
    assert_int_equal(ra_sig_keys_add_jwks(k, &h, S("b.test"),
        S("{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"AAAA\"}]}"),
        &added, &why), RA_ERROR);
    assert_int_equal(ra_sig_keys_add_jwks(k, &h, S("b.test"),
        S("{\"keys\":["), &added, &why), RA_ERROR);
    assert_int_equal(ra_sig_keys_add_jwks(k, &h, S("b.test"),
        S("{\"keys\":[]}"), &added, &why), RA_ERROR);
    assert_int_equal(ra_sig_keys_add_jwks(k, &h, S("../etc"),
        S(RFC_JWKS), &added, &why), RA_ERROR);
    assert_int_equal(ra_sig_keys_count(k), 1);
    ra_test_arena_free(ar);
}

/* ---- keys made here ---------------------------------------------------- */

typedef struct {
    EVP_PKEY  *pk;
    char       x[64];
    char       kid[64];
    char       jwks[256];
} key_t_;

static void
key_new(key_t_ *key)
{
    unsigned char  pub[32], d[32];
    size_t         len = sizeof(pub);
    char           tp[256];
    ra_host_t      h = host();

    key->pk = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
    assert_non_null(key->pk);
    assert_int_equal(EVP_PKEY_get_raw_public_key(key->pk, pub, &len), 1);
    (void) ra_base64url_encode(pub, 32, key->x);
    snprintf(tp, sizeof(tp), "{\"crv\":\"Ed25519\",\"kty\":\"OKP\","
             "\"x\":\"%s\"}", key->x);
    assert_int_equal(h.sha256(&h, S(tp), d), RA_OK);
    (void) ra_base64url_encode(d, 32, key->kid);
    snprintf(key->jwks, sizeof(key->jwks), "{\"keys\":[{\"kty\":\"OKP\","
             "\"crv\":\"Ed25519\",\"x\":\"%s\"}]}", key->x);
}

/* signs r's base with key: Signature gets sig1=:...: into out */
static void
sign(key_t_ *key, ra_sig_request_t *r, char *out, size_t cap)
{
    unsigned char  base[4096], sig[64];
    size_t         slen = sizeof(sig);
    const char    *why = NULL;
    long           n;
    EVP_MD_CTX    *md = EVP_MD_CTX_new();
    char           b64[128];
    unsigned char *p;
    int            i, o = 0;
    static const char  t[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    n = ra_sig_base(r, base, sizeof(base), &why);
    assert_true(n > 0);
    assert_int_equal(EVP_DigestSignInit(md, NULL, NULL, NULL, key->pk), 1);
    assert_int_equal(EVP_DigestSign(md, sig, &slen, base, (size_t) n), 1);
    EVP_MD_CTX_free(md);
    p = sig;
    for (i = 0; i < 63; i += 3) {
        uint32_t v = (uint32_t) p[i] << 16 | (uint32_t) p[i + 1] << 8 | p[i + 2];
        b64[o++] = t[v >> 18];
        b64[o++] = t[(v >> 12) & 63];
        b64[o++] = t[(v >> 6) & 63];
        b64[o++] = t[v & 63];
    }
    {
        uint32_t v = (uint32_t) p[63] << 16;
        b64[o++] = t[v >> 18];
        b64[o++] = t[(v >> 12) & 63];
        b64[o++] = '=';
        b64[o++] = '=';
    }
    b64[o] = '\0';
    snprintf(out, cap, "sig1=:%s:", b64);
    r->signature = S(out);
}

#define NOW  1795000000

static void
made_keys(void **state)
{
    ra_test_arena_t   *ar = ra_test_arena_new();
    key_t_             key, other;
    ra_sig_keys_t     *k;
    ra_sig_request_t   r;
    ra_sig_verdict_t   v;
    char               input[1024], sig[256], forged[256];

    (void) state;
    key_new(&key);
    key_new(&other);
    k = keys_with(ar, "agent.test", key.jwks);

    snprintf(input, sizeof(input), "sig1=(\"@method\" \"@authority\" "
             "\"@path\" \"@query\" \"signature-agent\";key=\"sig1\");"
             "created=%d;expires=%d;keyid=\"%s\";tag=\"web-bot-auth\"",
             NOW - 10, NOW + 300, key.kid);
    r = req("sig1=:AA==:", input, "sig1=\"https://agent.test\"");
    r.target = S("/a/b?q=1");
    sign(&key, &r, sig, sizeof(sig));
    assert_int_equal(verify(k, &r, NOW, &v), RA_SIG_VALID);

    /* another path, method, query: covered, so it fails */
    r.target = S("/a/c?q=1");
    assert_int_equal(verify(k, &r, NOW, &v), RA_SIG_INVALID);
    r.target = S("/a/b?q=2");
    assert_int_equal(verify(k, &r, NOW, &v), RA_SIG_INVALID);
    r.target = S("/a/b?q=1");
    r.method = S("POST");
    assert_int_equal(verify(k, &r, NOW, &v), RA_SIG_INVALID);
    r.method = S("GET");

    /* forged: another key's signature under this key's keyid */
    {
        ra_sig_request_t  f = r;

        sign(&other, &f, forged, sizeof(forged));
        assert_int_equal(verify(k, &f, NOW, &v), RA_SIG_INVALID);
        assert_string_equal(v.why, "the signature does not verify");
    }

    /* one bit of the signature changed */
    {
        char  flip[256];

        memcpy(flip, sig, sizeof(flip));
        flip[10] = flip[10] == 'A' ? 'B' : 'A';
        r.signature = S(flip);
        assert_int_equal(verify(k, &r, NOW, &v), RA_SIG_INVALID);
        r.signature = S(sig);
    }

    /* the window: expired, created in the future, too old; skew */
    assert_int_equal(verify(k, &r, NOW + 301 + 60, &v), RA_SIG_INVALID);
    assert_string_equal(v.why, "the signature has expired");
    assert_int_equal(verify(k, &r, NOW + 301, &v), RA_SIG_VALID);  /* skew */
    assert_int_equal(verify(k, &r, NOW - 80, &v), RA_SIG_INVALID);
    assert_string_equal(v.why, "created is in the future");
    {
        ra_host_t        h = host();
        ra_sig_window_t  w = { (int64_t) NOW * 1000, 5000, 0 };

        assert_int_equal(ra_sig_verify(k, &h, &r, &w, NULL, &v), RA_SIG_INVALID);
        assert_string_equal(v.why,
                            "the signature is older than the maximum age");
    }

    /* the agent header changed after signing */
    r.signature_agent = S("sig1=\"https://agent.test/x\"");
    assert_int_equal(verify(k, &r, NOW, &v), RA_SIG_INVALID);
    r.signature_agent = S("sig1=\"https://agent.test\"");

    /* unknown keyid of a loaded origin: cannot check */
    {
        char  in2[1024];

        snprintf(in2, sizeof(in2), "sig1=(\"@authority\" \"signature-agent\""
                 ";key=\"sig1\");created=%d;expires=%d;keyid=\"%s\";"
                 "tag=\"web-bot-auth\"", NOW, NOW + 60, other.kid);
        r.signature_input = S(in2);
        assert_int_equal(verify(k, &r, NOW, &v), RA_SIG_UNCHECKED);
        r.signature_input = S(input);
    }
    assert_int_equal(verify(k, &r, NOW, &v), RA_SIG_VALID);

    /* @scheme and @target-uri on a connection of unknown scheme (a TLS
     * proxy in front): unchecked, never invalid */
    {
        char              in3[1024], s3[256];
        ra_sig_request_t  t;

        snprintf(in3, sizeof(in3), "sig1=(\"@target-uri\" \"@authority\" "
                 "\"signature-agent\";key=\"sig1\");created=%d;expires=%d;"
                 "keyid=\"%s\";tag=\"web-bot-auth\"", NOW, NOW + 60, key.kid);
        t = req("", in3, "sig1=\"https://agent.test\"");
        t.target = S("/a?b");
        sign(&key, &t, s3, sizeof(s3));
        assert_int_equal(verify(k, &t, NOW, &v), RA_SIG_VALID);
        t.scheme = S("");
        assert_int_equal(verify(k, &t, NOW, &v), RA_SIG_UNCHECKED);
        t.scheme = S("http");
        assert_int_equal(verify(k, &t, NOW, &v), RA_SIG_INVALID);
    }

    EVP_PKEY_free(key.pk);
    EVP_PKEY_free(other.pk);
    ra_test_arena_free(ar);
}

/* a signature that leaves out what the profile requires */
static void
profile(void **state)
{
    ra_test_arena_t   *ar = ra_test_arena_new();
    ra_sig_keys_t     *k = keys_with(ar, "signature-agent.test", RFC_JWKS);
    ra_sig_request_t   r;
    ra_sig_verdict_t   v;
    size_t             i;
    static const struct {
        const char  *input;
        const char  *agent;
        unsigned     result;
        const char  *why;
    } cases[] = {
        { "sig2=(\"signature-agent\";key=\"sig2\");created=1;expires=2;"
          "keyid=\"" RFC_KID "\";tag=\"web-bot-auth\"", V1_AGENT,
          RA_SIG_INVALID, "@authority is not covered" },
        { "sig2=(\"@authority\");created=1735689600;expires=4889289600;"
          "keyid=\"" RFC_KID "\";tag=\"web-bot-auth\"", V1_AGENT,
          RA_SIG_INVALID, "the Signature-Agent member is not covered" },
        { "sig2=(\"@authority\" \"signature-agent\";key=\"other\");"
          "created=1735689600;expires=4889289600;keyid=\"" RFC_KID "\";"
          "tag=\"web-bot-auth\"", V1_AGENT,
          RA_SIG_INVALID, "the Signature-Agent member is not covered" },
        { "sig2=(\"@authority\" \"signature-agent\";key=\"sig2\");"
          "expires=4889289600;keyid=\"" RFC_KID "\";tag=\"web-bot-auth\"",
          V1_AGENT, RA_SIG_INVALID,
          "created and expires are required Integers" },
        { "sig2=(\"@authority\" \"signature-agent\";key=\"sig2\");"
          "created=1735689600;keyid=\"" RFC_KID "\";tag=\"web-bot-auth\"",
          V1_AGENT, RA_SIG_INVALID,
          "created and expires are required Integers" },
        { "sig2=(\"@authority\" \"signature-agent\";key=\"sig2\");"
          "created=1735689600;expires=4889289600;tag=\"web-bot-auth\"",
          V1_AGENT, RA_SIG_INVALID, "keyid is a required String" },
        /* another tag: not a Web Bot Auth signature at all */
        { "sig2=(\"@authority\" \"signature-agent\";key=\"sig2\");"
          "created=1735689600;expires=4889289600;keyid=\"" RFC_KID "\";"
          "tag=\"other\"", V1_AGENT, RA_SIG_NONE, "no web-bot-auth signature" },
        /* a member with parameters is ignored (the draft) */
        { V1_INPUT, "sig2=\"https://signature-agent.test\";x=1",
          RA_SIG_INVALID, "Signature-Agent's member for the label is not a "
                          "String without parameters" },
        { V1_INPUT, "sig2=\"http://signature-agent.test\"",
          RA_SIG_INVALID, "Signature-Agent is not an https URL" },
        { V1_INPUT, "", RA_SIG_INVALID, "no Signature-Agent" },
        { V1_INPUT, "\"https://signature-agent.test\"", RA_SIG_INVALID,
          "a member of a String Signature-Agent is covered" },
        { "sig2=(\"@authority\" \"signature-agent\";key=\"sig2\" "
          "\"x-forwarded-for\");created=1735689600;expires=4889289600;"
          "keyid=\"" RFC_KID "\";tag=\"web-bot-auth\"", V1_AGENT,
          RA_SIG_UNCHECKED, "a covered component is not one this verifier "
                            "reconstructs" },
        { "sig2=(\"@authority\" \"signature-agent\";key=\"sig2\");"
          "created=1735689600;expires=4889289600;keyid=\"" RFC_KID "\";"
          "alg=\"rsa-pss-sha512\";tag=\"web-bot-auth\"", V1_AGENT,
          RA_SIG_UNCHECKED, "an algorithm other than ed25519" },
        /* 17 components: over the bound, passed over */
        { "sig2=(\"a\" \"b\" \"c\" \"d\" \"e\" \"f\" \"g\" \"h\" \"i\" "
          "\"j\" \"k\" \"l\" \"m\" \"n\" \"o\" \"p\" \"q\");"
          "tag=\"web-bot-auth\"", V1_AGENT, RA_SIG_NONE,
          "no web-bot-auth signature" },
    };

    (void) state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        r = req(V1_SIG, cases[i].input, cases[i].agent);
        assert_int_equal(verify(k, &r, 1735689610, &v), cases[i].result);
        if (strcmp(v.why, cases[i].why) != 0) {
            fail_msg("case %zu: \"%s\", not \"%s\"", i, v.why, cases[i].why);
        }
    }
    /* no Signature at all: nothing to say */
    r = req("", V1_INPUT, V1_AGENT);
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_NONE);
    ra_test_arena_free(ar);
}

/* Structured Fields a client can send: every parse is bounded and none
 * reads past its span (ra_test_exact) */
static void
hostile(void **state)
{
    ra_test_arena_t   *ar = ra_test_arena_new();
    ra_sig_keys_t     *k = keys_with(ar, "signature-agent.test", RFC_JWKS);
    ra_sig_request_t   r;
    ra_sig_verdict_t   v;
    size_t             i, j;
    char              *big;
    static const char  *const inputs[] = {
        "", " ", ",", "sig2", "sig2=", "sig2=(", "sig2=(\"", "sig2=(\"a\"",
        "sig2=(\"a\";", "sig2=(\"a\";k=", "sig2=();tag=\"web-bot-auth\"",
        "sig2=(\"@authority\")tag", "SIG=(\"a\")", "sig2=:abc",
        "sig2=(\"\\x\")", "sig2=(\"a\" \"b\"),", "a=1,b=2,c=3,d=4,e=5,f=6,"
        "g=7,h=8,i=9", "sig2=(1.2345)", "sig2=(-)", "sig2=(?2)",
        "sig2=(@1)", "sig2=(%\"x\")", "sig2=(\"@authority\");created="
        "9999999999999999;tag=\"web-bot-auth\"", "sig2=(\"\x7f\")",
        "sig2=(\"@authority\" \"signature-agent\";key=\"sig2\");"
        "tag=\"web-bot-auth\";a;b;c;d;e;f;g;h;i;j;k;l;m;n;o;p;q",
    };

    (void) state;
    for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
        for (j = 0; j <= strlen(inputs[i]); j++) {   /* every prefix */
            ra_str_t  in = ra_test_exact(inputs[i], j);
            ra_str_t  ag = RA_TEST_STR(V1_AGENT);
            ra_str_t  sg = RA_TEST_STR(V1_SIG);

            memset(&r, 0, sizeof(r));
            r.signature = sg;
            r.signature_input = in;
            r.signature_agent = ag;
            r.authority = S("example.com");
            r.target = S("/");
            assert_int_not_equal(verify(k, &r, 1735689610, &v),
                                 RA_SIG_VALID);
            ra_test_exact_free(in);
            ra_test_exact_free(ag);
            ra_test_exact_free(sg);
        }
    }
    /* every prefix of the valid headers: only the whole one verifies */
    for (j = 0; j < strlen(V1_SIG); j++) {
        ra_str_t  sg = ra_test_exact(V1_SIG, j);

        r = req("", V1_INPUT, V1_AGENT);
        r.signature = sg;
        assert_int_not_equal(verify(k, &r, 1735689610, &v), RA_SIG_VALID);
        ra_test_exact_free(sg);
    }
    for (j = 0; j < strlen(V1_AGENT); j++) {
        ra_str_t  ag = ra_test_exact(V1_AGENT, j);

        r = req(V1_SIG, V1_INPUT, "");
        r.signature_agent = ag;
        assert_int_not_equal(verify(k, &r, 1735689610, &v), RA_SIG_VALID);
        ra_test_exact_free(ag);
    }
    /* a huge field is read up to the bound only */
    big = malloc(1 << 20);
    assert_non_null(big);
    memset(big, 'a', 1 << 20);
    r = req(V1_SIG, V1_INPUT, V1_AGENT);
    r.signature_input = ra_str(big, 1 << 20);
    assert_int_not_equal(verify(k, &r, 1735689610, &v), RA_SIG_VALID);
    r = req(V1_SIG, V1_INPUT, V1_AGENT);
    r.target = ra_str(big, 1 << 20);
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_VALID);
    free(big);
    /* a line break in a value cannot join two lines of the base */
    r = req(V1_SIG, V1_INPUT, V1_AGENT);
    r.authority = S("example.com\n\"@method\": GET");
    assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_INVALID);
    ra_test_arena_free(ar);
}

/* ---- the audit's decision (docs/web-bot-auth.md) ----------------------- */

static const char  table[] =
    "crawler SignBot\nua SignBot\noperator T\ncategory ai-user-triggered\n"
    "signature-agent https://agent.test\nranges t.json\n"
    "crawler PlainBot\nua PlainBot\noperator T\ncategory search\n"
    "ranges t.json\n";

typedef struct {
    ra_test_arena_t  *ar;
    void             *region;
    ra_ledger_t       ledger;
    ra_crawlers_t    *crawlers;
    ra_ranges_t      *ranges;
    ra_audit_t       *au;
    ra_host_t         h;
} afx_t;

static void
afx_new(afx_t *f, ra_sig_keys_t *keys)
{
    ra_crawlers_err_t  cerr;
    ra_json_err_t      jerr;
    ra_audit_conf_t    conf;
    size_t             size = 4u << 20;

    f->region = malloc(size);
    assert_int_equal(ra_ledger_format(f->region, size,
                                      (int64_t) NOW * 1000), RA_OK);
    ra_ledger_open(&f->ledger, f->region, NULL);
    f->crawlers = ra_crawlers_create(ra_test_arena_alloc(f->ar));
    assert_int_equal(ra_crawlers_add(f->crawlers, S(table), &cerr), RA_OK);
    assert_int_equal(ra_crawlers_compile(f->crawlers, &cerr), RA_OK);
    f->ranges = ra_ranges_create(ra_test_arena_alloc(f->ar));
    assert_int_equal(ra_ranges_add_json(f->ranges, S("t.json"),
        S("{\"prefixes\":[{\"ipv4Prefix\":\"192.0.2.0/24\"}]}"), &jerr),
        RA_OK);
    f->h = host();
    memset(&conf, 0, sizeof(conf));
    conf.alloc = &ra_malloc_allocator;
    conf.crawlers = f->crawlers;
    conf.ranges = f->ranges;
    conf.host = &f->h;
    conf.sig_keys = keys;
    f->au = ra_audit_create(&conf, &f->ledger);
    assert_non_null(f->au);
}

static ra_verdict_t
audit(afx_t *f, const char *ua, const char *addr, const ra_sig_request_t *s)
{
    ra_request_t  r;
    ra_verdict_t  v;

    memset(&r, 0, sizeof(r));
    r.site = S("example.com");
    r.time = (int64_t) NOW * 1000;
    r.addr = S(addr);
    r.user_agent = S(ua);
    r.method = S("GET");
    r.uri = S("/a/b?q=1");
    if (s != NULL) {
        r.signature = s->signature;
        r.signature_input = s->signature_input;
        r.signature_agent = s->signature_agent;
        r.authority = s->authority;
        r.scheme = s->scheme;
    }
    assert_int_equal(ra_audit_request(f->au, &r, &v), RA_OK);
    return v;
}

static void
audit_decision(void **state)
{
    afx_t              f;
    key_t_             key, other;
    ra_sig_keys_t     *k;
    ra_sig_request_t   r, forged, elsewhere;
    ra_verdict_t       v;
    char               input[1024], sig[256], fsig[256], esig[256];
    static const char  chrome[] = "Mozilla/5.0 (X11; Linux x86_64) "
        "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 "
        "Safari/537.36";

    (void) state;
    memset(&f, 0, sizeof(f));
    f.ar = ra_test_arena_new();
    f.h = host();
    key_new(&key);
    key_new(&other);
    k = keys_with(f.ar, "agent.test", key.jwks);
    assert_int_equal(ra_sig_keys_add_jwks(k, &f.h, S("else.test"),
                                          S(other.jwks), NULL,
                                          &(const char *) { NULL }), RA_OK);
    afx_new(&f, k);

    snprintf(input, sizeof(input), "sig1=(\"@method\" \"@authority\" "
             "\"@path\" \"signature-agent\";key=\"sig1\");"
             "created=%d;expires=%d;keyid=\"%s\";tag=\"web-bot-auth\"",
             NOW - 5, NOW + 60, key.kid);
    r = req("", input, "sig1=\"https://agent.test\"");
    r.target = S("/a/b?q=1");
    sign(&key, &r, sig, sizeof(sig));

    /* valid, from an address outside its ranges: the signature decides */
    v = audit(&f, "SignBot/1.0", "198.51.100.7", &r);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_SIGNATURE);
    assert_int_equal(v.sig_result, RA_SIG_VALID);

    /* a browser's User-Agent with the same signature: that crawler */
    v = audit(&f, chrome, "198.51.100.7", &r);
    assert_int_equal(v.kind, RA_UA_KNOWN);
    assert_non_null(v.crawler);
    assert_memory_equal(v.crawler->name.data, "SignBot", 7);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_SIGNATURE);

    /* forged (another key under its keyid), even from inside its ranges:
     * impostor, by signature */
    forged = r;
    sign(&other, &forged, fsig, sizeof(fsig));
    v = audit(&f, "SignBot/1.0", "192.0.2.9", &forged);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_SIGNATURE);
    assert_string_equal(v.sig_why, "the signature does not verify");
    /* its alert says why */
    {
        ra_buf_t      b;
        ra_request_t  rq;

        memset(&rq, 0, sizeof(rq));
        rq.site = S("example.com");
        rq.time = (int64_t) NOW * 1000;
        rq.addr = S("192.0.2.9");
        rq.method = S("GET");
        rq.uri = S("/a/b?q=1");
        ra_buf_init(&b, &ra_malloc_allocator, 1024, 0);
        ra_alert_text(&b, &rq, &v);
        ra_buf_ch(&b, '\0');
        assert_non_null(strstr((char *) b.data, " verification=impostor "));
        assert_non_null(strstr((char *) b.data,
            " signature=\"the signature does not verify\""));
        b.len = 0;
        ra_alert_json(&b, &rq, &v);
        ra_buf_ch(&b, '\0');
        assert_non_null(strstr((char *) b.data,
            ",\"signature\":\"the signature does not verify\","
            "\"verified_by\":\"signature\"}\n"));
        ra_buf_release(&b);
    }
    /* a forged signature with a browser's User-Agent stays a browser */
    v = audit(&f, chrome, "198.51.100.7", &forged);
    assert_int_equal(v.kind, RA_UA_BROWSER);

    /* valid, but another origin's: impostor of SignBot */
    {
        char  in2[1024];

        snprintf(in2, sizeof(in2), "sig1=(\"@authority\" "
                 "\"signature-agent\";key=\"sig1\");created=%d;"
                 "expires=%d;keyid=\"%s\";tag=\"web-bot-auth\"",
                 NOW - 5, NOW + 60, other.kid);
        elsewhere = req("", in2, "sig1=\"https://else.test\"");
        sign(&other, &elsewhere, esig, sizeof(esig));
        v = audit(&f, "SignBot/1.0", "192.0.2.9", &elsewhere);
        assert_int_equal(v.sig_result, RA_SIG_VALID);
        assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
        assert_int_equal(v.verified_by, RA_VERIFIED_BY_SIGNATURE);
        /* a crawler that does not sign: its ranges decide */
        v = audit(&f, "PlainBot/1.0", "192.0.2.9", &elsewhere);
        assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
        assert_int_equal(v.verified_by, RA_VERIFIED_BY_RANGES);
    }

    /* expired: impostor */
    {
        ra_request_t  rq;

        memset(&rq, 0, sizeof(rq));
        rq.site = S("example.com");
        rq.time = (int64_t) (NOW + 3600) * 1000;
        rq.addr = S("192.0.2.9");
        rq.user_agent = S("SignBot/1.0");
        rq.method = S("GET");
        rq.uri = S("/a/b?q=1");
        rq.signature = r.signature;
        rq.signature_input = r.signature_input;
        rq.signature_agent = r.signature_agent;
        rq.authority = r.authority;
        assert_int_equal(ra_audit_request(f.au, &rq, &v), RA_OK);
        assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
        assert_string_equal(v.sig_why, "the signature has expired");
    }

    /* wrong authority: impostor */
    {
        ra_sig_request_t  w = r;

        w.authority = S("example.org");
        v = audit(&f, "SignBot/1.0", "192.0.2.9", &w);
        assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    }

    /* no signature: the ranges, as before */
    v = audit(&f, "SignBot/1.0", "192.0.2.9", NULL);
    assert_int_equal(v.verification, RA_VERIFY_VERIFIED);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RANGES);
    v = audit(&f, "SignBot/1.0", "198.51.100.7", NULL);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RANGES);
    assert_int_equal(v.sig_result, RA_SIG_NONE);

    /* a Signature-Agent alone is a claim, not a signature: ranges */
    {
        ra_sig_request_t  a;

        memset(&a, 0, sizeof(a));
        a.signature_agent = S("sig1=\"https://agent.test\"");
        v = audit(&f, "SignBot/1.0", "192.0.2.9", &a);
        assert_int_equal(v.verified_by, RA_VERIFIED_BY_RANGES);
    }

    /* without keys every signature is unchecked: the ranges decide */
    ra_audit_destroy(f.au);
    free(f.region);
    afx_new(&f, NULL);
    v = audit(&f, "SignBot/1.0", "198.51.100.7", &r);
    assert_int_equal(v.sig_result, RA_SIG_UNCHECKED);
    assert_int_equal(v.verification, RA_VERIFY_IMPOSTOR);
    assert_int_equal(v.verified_by, RA_VERIFIED_BY_RANGES);

    ra_audit_destroy(f.au);
    free(f.region);
    EVP_PKEY_free(key.pk);
    EVP_PKEY_free(other.pk);
    ra_test_arena_free(f.ar);
}

/* the table's "signature-agent" line */
static void
table_line(void **state)
{
    ra_test_arena_t    *ar = ra_test_arena_new();
    ra_crawlers_t      *t = ra_crawlers_create(ra_test_arena_alloc(ar));
    ra_crawlers_err_t   err;
    const ra_crawler_t *c;

    (void) state;
    assert_int_equal(ra_crawlers_add(t, S("crawler A\ncategory tool\n"
        "signature-agent http://a.test\n"), &err), RA_ERROR);
    assert_int_equal(err.line, 3);
    assert_int_equal(ra_crawlers_add(t, S("crawler A\ncategory tool\n"
        "signature-agent https://a.test https://B.test:443/\n"), &err),
        RA_OK);
    assert_int_equal(ra_crawlers_add_builtin(t, &err), RA_OK);
    assert_int_equal(ra_crawlers_compile(t, &err), RA_OK);
    c = ra_crawlers_find_signature_agent(t, S("b.test"));
    assert_non_null(c);
    assert_int_equal(c->nsig_agents, 2);
    assert_null(ra_crawlers_find_signature_agent(t, S("c.test")));
    /* the built-in table: ChatGPT agent signs as chatgpt.com */
    c = ra_crawlers_find_signature_agent(t, S("chatgpt.com"));
    assert_non_null(c);
    assert_memory_equal(c->name.data, "ChatGPT-Agent", 13);
    ra_test_arena_free(ar);
}

/* the fuzzer's seeds (fuzz/fuzz_sig.c's format: INPUT \n AGENT \n SIG)
 * are the draft's vectors and verify as they are committed */
static void
fuzz_seeds(void **state)
{
    ra_test_arena_t   *ar = ra_test_arena_new();
    ra_sig_keys_t     *k = keys_with(ar, "signature-agent.test", RFC_JWKS);
    static const char  *const seeds[] = {
        "fuzz/corpus/fuzz_sig/draft-e21-dictionary",
        "fuzz/corpus/fuzz_sig/draft-e22-legacy-string",
    };
    size_t             i;

    (void) state;
    for (i = 0; i < 2; i++) {
        ra_str_t          f;
        ra_sig_request_t  r;
        ra_sig_verdict_t  v;
        const char       *p, *nl1, *nl2;

        assert_int_equal(ra_test_read_file(seeds[i], &f), 0);
        p = (const char *) f.data;
        nl1 = memchr(p, '\n', f.len);
        assert_non_null(nl1);
        nl2 = memchr(nl1 + 1, '\n', f.len - (size_t) (nl1 + 1 - p));
        assert_non_null(nl2);
        r = req("", "", "");
        r.signature_input = ra_str(p, (size_t) (nl1 - p));
        r.signature_agent = ra_str(nl1 + 1, (size_t) (nl2 - nl1 - 1));
        r.signature = ra_str(nl2 + 1, f.len - (size_t) (nl2 + 1 - p));
        assert_int_equal(verify(k, &r, 1735689610, &v), RA_SIG_VALID);
        free((void *) f.data);
    }
    ra_test_arena_free(ar);
}

/* the process's memory of verifications, and its budget */
static void
cache_and_budget(void **state)
{
    ra_test_arena_t   *ar = ra_test_arena_new();
    ra_sig_keys_t     *k = keys_with(ar, "signature-agent.test", RFC_JWKS);
    ra_sig_cache_t    *c = calloc(1, sizeof(*c));
    ra_host_t          h = host();
    ra_sig_window_t    w = { 1735689610000LL, 0, -1 };
    ra_sig_request_t   r = req(V1_SIG, V1_INPUT, V1_AGENT);
    ra_sig_request_t   f = req("sig2=:DGokAoY/FrPpyuzTe1Fb2kLTAH9Idw6qSFd1+D77"
        "r1firsMRCxeuLu5e6O+ek3zQgDMAzjiXtLVfqE00xnABCQ==:", V1_INPUT,
        V1_AGENT);
    ra_sig_request_t   o = r;
    ra_sig_verdict_t   v;

    (void) state;
    assert_non_null(c);
    c->per_second = 2;
    /* the same signature twice: one verification, one hit */
    assert_int_equal(ra_sig_verify(k, &h, &r, &w, c, &v), RA_SIG_VALID);
    assert_int_equal(ra_sig_verify(k, &h, &r, &w, c, &v), RA_SIG_VALID);
    assert_int_equal(c->verified, 1);
    assert_int_equal(c->hits, 1);
    /* a forged one is remembered as forged */
    assert_int_equal(ra_sig_verify(k, &h, &f, &w, c, &v), RA_SIG_INVALID);
    assert_int_equal(ra_sig_verify(k, &h, &f, &w, c, &v), RA_SIG_INVALID);
    assert_int_equal(c->verified, 2);
    assert_int_equal(c->hits, 2);
    /* a third new one in the same second: over the budget, unchecked */
    o.authority = S("example.org");
    assert_int_equal(ra_sig_verify(k, &h, &o, &w, c, &v), RA_SIG_UNCHECKED);
    assert_string_equal(v.why,
                        "over this process's budget of verifications a second");
    assert_int_equal(c->over_budget, 1);
    /* what it remembers still answers; the next second has a budget */
    assert_int_equal(ra_sig_verify(k, &h, &r, &w, c, &v), RA_SIG_VALID);
    w.now += 1000;
    assert_int_equal(ra_sig_verify(k, &h, &o, &w, c, &v), RA_SIG_INVALID);
    assert_int_equal(c->verified, 3);
    free(c);
    ra_test_arena_free(ar);
}

/* RFC 9421 B.2.6 (Ed25519 over a request with header fields this verifier
 * does not rebuild): the host's libcrypto Ed25519 against the RFC's own
 * base and signature, and the same with one byte changed */
static void
rfc9421_b26(void **state)
{
    ra_host_t          h = host();
    unsigned char      pub[32], sig[64];
    ra_test_arena_t   *ar = ra_test_arena_new();
    ra_sig_keys_t     *k = keys_with(ar, "example.com", RFC_JWKS);
    ra_sig_request_t   r;
    ra_sig_verdict_t   v;
    unsigned char     *b64;
    size_t             n;
    char               base[] =
        "\"date\": Tue, 20 Apr 2021 02:07:55 GMT\n"
        "\"@method\": POST\n"
        "\"@path\": /foo\n"
        "\"@authority\": example.com\n"
        "\"content-type\": application/json\n"
        "\"content-length\": 18\n"
        "\"@signature-params\": (\"date\" \"@method\" \"@path\" "
        "\"@authority\" \"content-type\" \"content-length\")"
        ";created=1618884473;keyid=\"test-key-ed25519\"";

    (void) state;
    memset(pub, 0, sizeof(pub));
    {
        /* x of RFC 9421 B.1.4, base64url */
        static const char  x[] = RFC_X;
        char               std[64];
        size_t             i;

        for (i = 0; x[i]; i++) {
            std[i] = x[i] == '-' ? '+' : x[i] == '_' ? '/' : x[i];
        }
        std[i++] = '=';
        std[i] = '\0';
        assert_int_equal(ra_test_base64(std, &b64, &n), 0);
        assert_int_equal(n, 32);
        memcpy(pub, b64, 32);
        free(b64);
    }
    assert_int_equal(ra_test_base64("wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6"
        "jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==", &b64, &n), 0);
    assert_int_equal(n, 64);
    memcpy(sig, b64, 64);
    free(b64);
    assert_int_equal(h.ed25519_verify(&h, pub, S(base), sig), 1);
    base[10] ^= 1;
    assert_int_equal(h.ed25519_verify(&h, pub, S(base), sig), 0);

    /* the whole request: its header fields are not rebuilt here, and it
     * is no web-bot-auth signature anyway */
    r = req("sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v"
            "9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:",
            "sig-b26=(\"date\" \"@method\" \"@path\" \"@authority\" "
            "\"content-type\" \"content-length\");created=1618884473;"
            "keyid=\"test-key-ed25519\"", "");
    assert_int_equal(verify(k, &r, 1618884473, &v), RA_SIG_NONE);
    ra_test_arena_free(ar);
}

int
main(void)
{
    const struct CMUnitTest  tests[] = {
        cmocka_unit_test(draft_vectors),
        cmocka_unit_test(jwks_files),
        cmocka_unit_test(made_keys),
        cmocka_unit_test(profile),
        cmocka_unit_test(hostile),
        cmocka_unit_test(audit_decision),
        cmocka_unit_test(table_line),
        cmocka_unit_test(fuzz_seeds),
        cmocka_unit_test(cache_and_budget),
        cmocka_unit_test(rfc9421_b26),
        cmocka_unit_test(absolute_form_authority),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
