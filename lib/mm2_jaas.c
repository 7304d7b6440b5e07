/* mm2_jaas: the shape check of a JAAS entry, and one option's value (see mm2_jaas.h). The grammar
 * follows Kafka's JaasConfig parser (org.apache.kafka.common.security.JaasConfig): a login module
 * class, a control flag, options name=value where value is a quoted string (with backslash escapes)
 * or a bare token, and a terminating ';'. Kafka refuses more than one module in sasl.jaas.config,
 * and so does this check. */
#include "mm2_jaas.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static void skip_space(const char **p)
{
    while (**p != '\0' && isspace((unsigned char)**p))
        (*p)++;
}

static bool is_ident_start(int c)
{
    return isalpha(c) || c == '_' || c == '$';
}

static bool is_ident(int c)
{
    return isalnum(c) || c == '_' || c == '$';
}

/* A Java class name: identifiers separated by single dots. */
static size_t class_name_len(const char *p)
{
    size_t n = 0;

    for (;;) {
        if (!is_ident_start((unsigned char)p[n]))
            return 0;
        while (is_ident((unsigned char)p[n]))
            n++;
        if (p[n] != '.')
            return n;
        n++;
    }
}

static bool contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);

    for (; *hay != '\0'; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return true;
    return false;
}

/* The control flag at *pp, followed by a space or ';': true, *pp after it. */
static bool read_flag(const char **pp)
{
    static const char *const flags[] = {"required", "requisite", "sufficient", "optional"};

    for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
        size_t fl = strlen(flags[i]);
        if (strncmp(*pp, flags[i], fl) == 0 &&
            (isspace((unsigned char)(*pp)[fl]) || (*pp)[fl] == ';')) {
            *pp += fl;
            return true;
        }
    }
    return false;
}

/* The value of one option, copied out when its option is read (mm2_jaas_option). */
struct capture {
    const char *name;
    char *out;
    size_t len, n; /* n: bytes copied; len + 1 when it did not fit */
    bool found;
};

/* Appends c to the capture (when capturing), counting what does not fit. */
static void capture_put(struct capture *c, char ch)
{
    if (c == NULL)
        return;
    if (c->n + 1 < c->len)
        c->out[c->n] = ch;
    c->n++;
}

/* An option's value at *pp: a quoted string (backslash escapes) or a bare token; copied into c
 * (unescaped) when c is not NULL. */
static enum mm2_jaas_verdict read_value(const char **pp, int option, struct capture *c, char *why,
                                        size_t whylen)
{
    const char *p = *pp;

    if (*p == '"') {
        p++;
        while (*p != '"') {
            if (*p == '\0') {
                (void)snprintf(why, whylen, "the value of option %d has no closing quote", option);
                return MM2_JAAS_MALFORMED;
            }
            if (*p == '\\' && p[1] != '\0')
                p++;
            capture_put(c, *p);
            p++;
        }
        p++;
    } else {
        const char *v = p;
        while (*p != '\0' && !isspace((unsigned char)*p) && *p != ';' && *p != '"')
            capture_put(c, *p++);
        if (p == v) {
            (void)snprintf(why, whylen, "option %d has an empty value", option);
            return MM2_JAAS_MALFORMED;
        }
    }
    *pp = p;
    return MM2_JAAS_OK;
}

/* The options `name=value` up to the terminating ';' (*pp left on it); the value of the option
 * c names into c (c may be NULL). */
static enum mm2_jaas_verdict read_options(const char **pp, struct capture *c, char *why,
                                          size_t whylen)
{
    const char *p = *pp;
    int options = 0;

    for (;;) {
        const char *name;
        skip_space(&p);
        if (*p == ';')
            break;
        if (*p == '\0') {
            (void)snprintf(why, whylen, "it does not end with ';'");
            return MM2_JAAS_MALFORMED;
        }
        /* option name */
        name = p;
        while (is_ident((unsigned char)*p) || *p == '.' || *p == '-')
            p++;
        if (p == name) {
            (void)snprintf(why, whylen, "option %d has no name", options + 1);
            return MM2_JAAS_MALFORMED;
        }
        skip_space(&p);
        if (*p != '=') {
            /* The name is not printed: a mangled value may put a password here. */
            (void)snprintf(why, whylen, "option %d has no '='", options + 1);
            return MM2_JAAS_MALFORMED;
        }
        p++;
        skip_space(&p);
        {
            bool want =
                c != NULL && !c->found && (size_t)(p - name) > 0 &&
                strncmp(name, c->name, strlen(c->name)) == 0 &&
                (name[strlen(c->name)] == '=' || isspace((unsigned char)name[strlen(c->name)]));
            if (read_value(&p, options + 1, want ? c : NULL, why, whylen) != MM2_JAAS_OK)
                return MM2_JAAS_MALFORMED;
            if (want)
                c->found = true;
        }
        options++;
    }
    *pp = p;
    return MM2_JAAS_OK;
}

/* True when the class p[0..n) is a JndiLoginModule or LdapLoginModule, of any package. */
static bool refused_class(const char *p, size_t n)
{
    const char *simple = memrchr(p, '.', n);
    size_t len;

    simple = simple != NULL ? simple + 1 : p;
    len = n - (size_t)(simple - p);
    return (len == strlen("JndiLoginModule") && strncmp(simple, "JndiLoginModule", len) == 0) ||
           (len == strlen("LdapLoginModule") && strncmp(simple, "LdapLoginModule", len) == 0);
}

static enum mm2_jaas_verdict walk(const char *value, char *cls, size_t classlen, struct capture *c,
                                  char *why, size_t whylen);

enum mm2_jaas_verdict mm2_jaas_check(const char *value, char *cls, size_t classlen, char *why,
                                     size_t whylen)
{
    return walk(value, cls, classlen, NULL, why, whylen);
}

int mm2_jaas_option(const char *value, const char *name, char *out, size_t outlen)
{
    struct capture c = {name, out, outlen, 0, false};
    char why[8];

    if (outlen == 0)
        return -1;
    out[0] = '\0';
    if (walk(value, NULL, 0, &c, why, sizeof(why)) != MM2_JAAS_OK || !c.found || c.n >= outlen) {
        memset(out, 0, outlen); /* never half a secret */
        return -1;
    }
    out[c.n] = '\0';
    return 0;
}

static enum mm2_jaas_verdict walk(const char *value, char *cls, size_t classlen, struct capture *c,
                                  char *why, size_t whylen)
{
    const char *p = value;
    enum mm2_jaas_verdict v;
    size_t n;

    if (classlen > 0)
        cls[0] = '\0';
    /* Log4Shell-style lookups have no business in a credential. */
    if (contains_nocase(value, "jndi:") || contains_nocase(value, "ldap:")) {
        (void)snprintf(why, whylen, "it contains a jndi: or ldap: lookup");
        return MM2_JAAS_REFUSED;
    }
    skip_space(&p);
    n = class_name_len(p);
    if (n == 0) {
        (void)snprintf(why, whylen, "it does not start with a login module class name");
        return MM2_JAAS_MALFORMED;
    }
    if (classlen > 0)
        (void)snprintf(cls, classlen, "%.*s", (int)n, p);
    if (refused_class(p, n)) {
        (void)snprintf(why, whylen, "login module %.*s is refused (JNDI/LDAP login)", (int)n, p);
        return MM2_JAAS_REFUSED;
    }
    p += n;
    if (!isspace((unsigned char)*p)) {
        (void)snprintf(why, whylen, "the login module class is not followed by a control flag");
        return MM2_JAAS_MALFORMED;
    }
    skip_space(&p);
    if (!read_flag(&p)) {
        (void)snprintf(why, whylen,
                       "the control flag must be required, requisite, sufficient or optional");
        return MM2_JAAS_MALFORMED;
    }
    v = read_options(&p, c, why, whylen);
    if (v != MM2_JAAS_OK)
        return v;
    p++; /* ';' */
    skip_space(&p);
    if (*p != '\0') {
        (void)snprintf(why, whylen,
                       "it holds more than one login module entry (Kafka takes exactly one)");
        return MM2_JAAS_MALFORMED;
    }
    return MM2_JAAS_OK;
}
