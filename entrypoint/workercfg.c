/* workercfg: the worker config's checks (see workercfg.h). The file is read as
 * java.util.Properties reads it (comments '#'/'!', key ends at '=', ':' or blank, '\' continues
 * a line); references as Kafka's ConfigTransformer finds them, ${provider:key}. */
#include "workercfg.h"

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "mm2_env.h"
#include "props.h"
#include "restauth.h"

#define WORKERCFG_MAX_BYTES PROPS_MAX_BYTES
#define WORKERCFG_MAX_ENTRIES PROPS_MAX_ENTRIES
#define WORKERCFG_PEM_MAX (1024 * 1024)
#define SHOW 120

enum { F_TRUST_PEM, F_KEY_PEM, F_STORE_BINARY };

static bool in_list(const char *const *list, const char *name, size_t len)
{
    for (; list != NULL && *list != NULL; list++)
        if (strlen(*list) == len && strncmp(*list, name, len) == 0)
            return true;
    return false;
}

struct refs {
    const char *path;
    regex_t allow;
    bool have_allow;
    const char *const *checked_elsewhere;
    const char *const *defaulted;
    char seen[WORKERCFG_MAX_ENTRIES][64];
    size_t nseen;
};

static bool allowed(struct refs *r, const char *name)
{
    regmatch_t m;

    if (!r->have_allow)
        return true; /* EnvVarConfigProvider's default pattern is ".*" */
    return regexec(&r->allow, name, 1, &m, 0) == 0 && m.rm_so == 0 &&
           (size_t)m.rm_eo == strlen(name);
}

static bool seen_before(struct refs *r, const char *name, size_t len)
{
    for (size_t i = 0; i < r->nseen; i++)
        if (strlen(r->seen[i]) == len && strncmp(r->seen[i], name, len) == 0)
            return true;
    if (r->nseen < WORKERCFG_MAX_ENTRIES && len < sizeof(r->seen[0])) {
        memcpy(r->seen[r->nseen], name, len);
        r->seen[r->nseen++][len] = '\0';
    }
    return false;
}

/* One ${env:NAME} used by `key`. */
static void check_ref(struct refs *r, const char *key, const char *name, size_t len,
                      struct mm2_problems *p)
{
    char var[64];
    const char *v;

    if (len == 0 || len >= sizeof(var)) {
        mm2_problems_add(p, "MM2_WORKER_CONFIG=%.*s: %s uses an ${env:...} without a usable name",
                         SHOW, r->path, key);
        return;
    }
    if (seen_before(r, name, len))
        return;
    memcpy(var, name, len);
    var[len] = '\0';
    if (!allowed(r, var)) {
        mm2_problems_add(p,
                         "MM2_WORKER_CONFIG=%.*s: %s uses ${env:%s}, which "
                         "config.providers.env.param.allowlist.pattern does not allow, so Connect "
                         "would keep the text unresolved; add %s to the pattern",
                         SHOW, r->path, key, var, var);
        return;
    }
    if (in_list(r->checked_elsewhere, var, len) || in_list(r->defaulted, var, len))
        return;
    v = mm2_env_get(var);
    if (v == NULL || *v == '\0')
        mm2_problems_add(p,
                         "%s is %s; MM2_WORKER_CONFIG=%.*s uses it in %s (Connect would keep "
                         "the text ${env:%s} unresolved)",
                         var, v == NULL ? "not set" : "empty", SHOW, r->path, key, var);
}

/* The worker config references ${env:CONNECT_SASL_JAAS_CONFIG} in key: the sasl.mechanism of
 * the same prefix decides the login module (GSSAPI, Kafka's default, when it sets none). */
static void note_jaas(struct workercfg *w, const struct props *pr, const char *key)
{
    char prefix[128];
    size_t kl = strlen(key), sl = strlen("sasl.jaas.config");
    const char *mech = NULL;

    w->uses_jaas = true;
    if (kl >= sl && kl - sl < sizeof(prefix) && strcmp(key + kl - sl, "sasl.jaas.config") == 0) {
        memcpy(prefix, key, kl - sl);
        prefix[kl - sl] = '\0';
        mech = props_get_prefixed(pr, prefix, "sasl.mechanism");
    }
    (void)snprintf(w->jaas_mechanism, sizeof(w->jaas_mechanism), "%s",
                   mech != NULL ? mech : "GSSAPI");
}

/* Every ${env:NAME} of every value (check_ref), and the first use of the JAAS variable. */
static void check_refs(struct refs *r, const struct props *pr, struct workercfg *w,
                       struct mm2_problems *p)
{
    for (size_t i = 0; i < pr->n; i++) {
        for (const char *s = pr->e[i].val; (s = strstr(s, "${")) != NULL;) {
            const char *end = strchr(s, '}');
            const char *in, *colon;
            if (end == NULL)
                break;
            in = s + 2;
            colon = memchr(in, ':', (size_t)(end - in));
            if (colon != NULL && colon - in == 3 && strncmp(in, "env", 3) == 0) {
                const char *name = colon + 1;
                size_t len = (size_t)(end - name);
                if (len == strlen("CONNECT_SASL_JAAS_CONFIG") &&
                    strncmp(name, "CONNECT_SASL_JAAS_CONFIG", len) == 0 && !w->uses_jaas)
                    note_jaas(w, pr, pr->e[i].key);
                check_ref(r, pr->e[i].key, name, len, p);
            }
            s = end + 1;
        }
    }
}

/* A value that is exactly ${env:NAME} resolves to the variable; one with no
 * reference is itself; anything else cannot be checked here (NULL). */
static const char *resolve(const char *v)
{
    size_t n = strlen(v);

    if (strstr(v, "${") == NULL)
        return v;
    if (n > 7 && strncmp(v, "${env:", 6) == 0 && v[n - 1] == '}' &&
        strchr(v + 6, '}') == v + n - 1) {
        char name[64];
        const char *e;
        if (n - 7 >= sizeof(name))
            return NULL;
        memcpy(name, v + 6, n - 7);
        name[n - 7] = '\0';
        e = mm2_env_get(name);
        return e != NULL && *e != '\0' ? e : NULL;
    }
    return NULL;
}

/* The store <prefix>ssl.<what>.location names, if any, with its type and key password. */
static void add_file(struct workercfg *w, const struct props *pr, const char *prefix,
                     const char *what, struct mm2_problems *p)
{
    char key[128], tkey[128];
    const char *loc, *path, *type;
    struct workercfg_file *f;

    if (snprintf(key, sizeof(key), "%sssl.%s.location", prefix, what) >= (int)sizeof(key) ||
        snprintf(tkey, sizeof(tkey), "%sssl.%s.type", prefix, what) >= (int)sizeof(tkey))
        return;
    loc = props_get(pr, key);
    if (loc == NULL || *loc == '\0')
        return;
    path = resolve(loc);
    if (path == NULL)
        return; /* an unset ${env:} is reported by check_refs */
    type = props_get(pr, tkey);
    if (type == NULL)
        type = "JKS"; /* SslConfigs.DEFAULT_SSL_*_TYPE */
    if (w->nfiles == WORKERCFG_MAX_FILES) {
        mm2_problems_add(p, "MM2_WORKER_CONFIG names more than %d TLS stores", WORKERCFG_MAX_FILES);
        return;
    }
    f = &w->files[w->nfiles];
    if (snprintf(f->path, sizeof(f->path), "%s", path) >= (int)sizeof(f->path))
        return;
    (void)snprintf(f->key, sizeof(f->key), "%s", key);
    if (strcasecmp(type, "PEM") == 0)
        f->kind = strcmp(what, "truststore") == 0 ? F_TRUST_PEM : F_KEY_PEM;
    else
        f->kind = F_STORE_BINARY;
    f->key_password = props_get_prefixed(pr, prefix, "ssl.key.password") != NULL;
    w->nfiles++;
}

static void find_files(struct workercfg *w, const struct props *pr, struct mm2_problems *p)
{
    static const char *const prefixes[] = {"",       "producer.",        "consumer.",
                                           "admin.", "listeners.https.", NULL};

    for (const char *const *pre = prefixes; *pre != NULL; pre++) {
        add_file(w, pr, *pre, "truststore", p);
        add_file(w, pr, *pre, "keystore", p);
    }
}

/* rest.extension.classes (a comma list) naming Kafka's basic-auth extension; admin.listeners
 * set to some listener (empty: no admin resources; unset: on the main, filtered, listener). */
static void note_rest_auth(struct workercfg *w, const struct props *pr)
{
    const char *ext = props_get(pr, "rest.extension.classes");
    const char *admin = props_get(pr, "admin.listeners");
    size_t n = strlen(RESTAUTH_EXTENSION);

    for (const char *s = ext; s != NULL && (s = strstr(s, RESTAUTH_EXTENSION)) != NULL; s += n)
        if ((s == ext || strchr(", \t", s[-1]) != NULL) && strchr(", \t", s[n]) != NULL)
            w->rest_basic_auth = true;
    w->admin_listener = admin != NULL && admin[strspn(admin, " \t")] != '\0';
}

/* config.providers.env.param.allowlist.pattern, compiled into r when the file sets it. */
static void read_allowlist(struct refs *r, const struct props *pr, struct mm2_problems *p)
{
    const char *pattern = props_get(pr, "config.providers.env.param.allowlist.pattern");

    if (pattern == NULL)
        return;
    r->have_allow = regcomp(&r->allow, pattern, REG_EXTENDED) == 0;
    if (!r->have_allow)
        mm2_problems_add(p,
                         "MM2_WORKER_CONFIG=%.*s: config.providers.env.param.allowlist.pattern "
                         "is not a regular expression this check reads; keep it to "
                         "^(NAME|NAME...)$",
                         SHOW, r->path);
}

void workercfg_read(struct workercfg *w, const char *path, const char *const *checked_elsewhere,
                    const char *const *defaulted, struct mm2_problems *p)
{
    static struct props pr; /* large; one per process */
    static struct refs r;
    int rc;

    memset(w, 0, sizeof(*w));
    memset(&pr, 0, sizeof(pr));
    memset(&r, 0, sizeof(r));
    rc = props_load(&pr, path);
    if (rc == -2)
        mm2_problems_add(p,
                         "MM2_WORKER_CONFIG=%.*s is not a text file of at most %d bytes; point it "
                         "at a worker .properties file",
                         SHOW, path, WORKERCFG_MAX_BYTES);
    else if (rc == -3)
        mm2_problems_add(p, "MM2_WORKER_CONFIG=%.*s holds more than %d properties", SHOW, path,
                         WORKERCFG_MAX_ENTRIES);
    if (rc == 0) {
        w->read = true;
        r.path = path;
        r.checked_elsewhere = checked_elsewhere;
        r.defaulted = defaulted;
        read_allowlist(&r, &pr, p);
        check_refs(&r, &pr, w, p);
        find_files(w, &pr, p);
        note_rest_auth(w, &pr);
        if (r.have_allow)
            regfree(&r.allow);
    }
    free(pr.buf);
    if (w->read)
        workercfg_check_files(w, p);
}

const char *workercfg_module_for(const char *mechanism)
{
    if (mechanism == NULL)
        return NULL;
    if (strcmp(mechanism, "PLAIN") == 0)
        return "org.apache.kafka.common.security.plain.PlainLoginModule";
    if (strcmp(mechanism, "SCRAM-SHA-256") == 0 || strcmp(mechanism, "SCRAM-SHA-512") == 0)
        return "org.apache.kafka.common.security.scram.ScramLoginModule";
    return NULL;
}

/* --- the files ------------------------------------------------------------------------- */

static bool has_block(const char *text, const char *label)
{
    char begin[64];

    (void)snprintf(begin, sizeof(begin), "-----BEGIN %s-----", label);
    return strstr(text, begin) != NULL;
}

static size_t count_blocks(const char *text, const char *label)
{
    char begin[64];
    size_t n = 0;

    (void)snprintf(begin, sizeof(begin), "-----BEGIN %s-----", label);
    for (const char *s = text; (s = strstr(s, begin)) != NULL; s += strlen(begin))
        n++;
    return n;
}

/* The value of one base64 character, or -1. */
static int b64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* True when the ENCRYPTED PRIVATE KEY block in text is PBES2 (RFC 8018; OID 1.2.840.113549.1.5.13
 * right after the EncryptedPrivateKeyInfo's two SEQUENCE headers), read from the first base64
 * characters of the block only. */
static bool encrypted_key_is_pbes2(const char *text)
{
    static const unsigned char oid[] = {0x06, 0x09, 0x2a, 0x86, 0x48, 0x86,
                                        0xf7, 0x0d, 0x01, 0x05, 0x0d};
    const char *begin = "-----BEGIN ENCRYPTED PRIVATE KEY-----";
    const char *s = strstr(text, begin);
    unsigned char der[32];
    size_t n = 0;
    unsigned long acc = 0;
    int bits = 0;

    if (s == NULL)
        return false;
    for (s += strlen(begin); *s != '\0' && *s != '-' && n < sizeof(der); s++) {
        int v = b64_value(*s);
        if (v < 0)
            continue; /* line breaks */
        acc = (acc << 6) | (unsigned long)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            der[n++] = (unsigned char)((acc >> bits) & 0xff);
        }
    }
    for (size_t i = 0; i + sizeof(oid) <= n; i++)
        if (memcmp(der + i, oid, sizeof(oid)) == 0)
            return true;
    return false;
}

static void check_pem(const struct workercfg_file *f, const char *text, struct mm2_problems *p)
{
    size_t certs = count_blocks(text, "CERTIFICATE");
    size_t clear = count_blocks(text, "PRIVATE KEY");
    size_t enc = count_blocks(text, "ENCRYPTED PRIVATE KEY");
    bool other_key = has_block(text, "RSA PRIVATE KEY") || has_block(text, "EC PRIVATE KEY");

    if (f->kind == F_TRUST_PEM) {
        if (certs == 0)
            mm2_problems_add(p,
                             "%s=%.*s holds no PEM certificate (-----BEGIN CERTIFICATE-----); "
                             "give it the CA certificate(s) to trust",
                             f->key, SHOW, f->path);
        if (clear + enc > 0 || other_key)
            mm2_problems_add(p,
                             "%s=%.*s holds a private key; a truststore holds CA certificates "
                             "only (is it the keystore?)",
                             f->key, SHOW, f->path);
        return;
    }
    if (other_key && clear + enc == 0)
        mm2_problems_add(
            p,
            "%s=%.*s holds a traditional (RSA/EC) private key, which Kafka's PEM "
            "keystore does not read; convert it with 'openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES' (or "
            "-nocrypt without ssl.key.password)",
            f->key, SHOW, f->path);
    else if (clear + enc != 1)
        mm2_problems_add(p,
                         "%s=%.*s must hold exactly one PKCS#8 private key (-----BEGIN [ENCRYPTED] "
                         "PRIVATE KEY-----), it holds %zu",
                         f->key, SHOW, f->path, clear + enc);
    if (certs == 0)
        mm2_problems_add(p,
                         "%s=%.*s holds no certificate; a PEM keystore is the private key "
                         "followed by its certificate chain",
                         f->key, SHOW, f->path);
    if (enc == 1 && !f->key_password)
        mm2_problems_add(p,
                         "%s=%.*s holds an encrypted key, and ssl.key.password beside it is not "
                         "set; set it (from ${env:...})",
                         f->key, SHOW, f->path);
    if (enc == 1 && encrypted_key_is_pbes2(text))
        mm2_problems_add(p,
                         "%s=%.*s holds a PBES2-encrypted key (openssl 3's default), which Kafka's "
                         "PEM keystore cannot decrypt on this image's Java 17 (\"PBES2 "
                         "SecretKeyFactory not available\"); re-encrypt it with 'openssl pkcs8 "
                         "-topk8 -v1 PBE-SHA1-3DES'",
                         f->key, SHOW, f->path);
    if (enc == 0 && clear == 1 && f->key_password)
        mm2_problems_add(p,
                         "%s=%.*s holds an unencrypted key, but ssl.key.password beside it is "
                         "set, which makes Kafka read the key as encrypted; remove the password "
                         "or encrypt the key",
                         f->key, SHOW, f->path);
}

/* A TLS store's first got bytes (NUL-terminated), checked against its kind. */
static void check_store(const struct workercfg_file *f, const char *buf, ssize_t got,
                        struct mm2_problems *p)
{
    if (got > WORKERCFG_PEM_MAX) {
        mm2_problems_add(p, "%s=%.*s is larger than %d bytes; is it the right file?", f->key, SHOW,
                         f->path, WORKERCFG_PEM_MAX);
        return;
    }
    if (f->kind == F_STORE_BINARY) {
        /* PKCS12 is a DER SEQUENCE; JKS starts with 0xFEEDFEED. */
        unsigned char b0 = got > 0 ? (unsigned char)buf[0] : 0;
        if (b0 != 0x30 && b0 != 0xfe)
            mm2_problems_add(p,
                             "%s=%.*s is not a PKCS12 or JKS store%s; set the matching "
                             "ssl.*.type (PEM for a PEM file)",
                             f->key, SHOW, f->path,
                             strstr(buf, "-----BEGIN ") != NULL ? " (it is PEM text)" : "");
        return;
    }
    if (memchr(buf, '\0', (size_t)got) != NULL || strstr(buf, "-----BEGIN ") == NULL)
        mm2_problems_add(p, "%s=%.*s is not a PEM file; the profile's ssl.*.type is PEM", f->key,
                         SHOW, f->path);
    else
        check_pem(f, buf, p);
}

/* One TLS store: readable, and its bytes of the kind its type says (check_store). */
static void check_file(const struct workercfg_file *f, struct mm2_problems *p)
{
    int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    ssize_t got = 0, r = 0;
    char *buf;

    if (fd < 0) {
        mm2_problems_add(p, "%s=%.*s: cannot read the TLS store: %s", f->key, SHOW, f->path,
                         strerror(errno));
        return;
    }
    /* One byte more than the cap is read, to tell a file over it, and one for the NUL. */
    buf = malloc(WORKERCFG_PEM_MAX + 2);
    while (buf != NULL && got <= WORKERCFG_PEM_MAX &&
           (r = read(fd, buf + got, (size_t)(WORKERCFG_PEM_MAX + 1 - got))) > 0)
        got += r;
    close(fd);
    if (buf == NULL || r < 0) {
        mm2_problems_add(p, "%s=%.*s: cannot read the TLS store: %s", f->key, SHOW, f->path,
                         buf == NULL ? "out of memory" : strerror(errno));
    } else {
        buf[got] = '\0';
        check_store(f, buf, got, p);
    }
    free(buf);
}

void workercfg_check_files(const struct workercfg *w, struct mm2_problems *p)
{
    for (size_t i = 0; i < w->nfiles; i++) {
        bool dup = false;
        for (size_t j = 0; j < i && !dup; j++)
            dup = strcmp(w->files[j].path, w->files[i].path) == 0 &&
                  w->files[j].kind == w->files[i].kind;
        if (!dup)
            check_file(&w->files[i], p);
    }
}
