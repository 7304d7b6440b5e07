/* jaas: the shape check of a JAAS entry (see jaas.h). The grammar follows Kafka's JaasConfig
 * parser (org.apache.kafka.common.security.JaasConfig): a login module class, a control flag,
 * options name=value where value is a quoted string (with backslash escapes) or a bare token,
 * and a terminating ';'. Kafka refuses more than one module in sasl.jaas.config, and so does
 * this check. */
#include "jaas.h"

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

/* An option's value at *pp: a quoted string (backslash escapes) or a bare token. */
static enum jaas_verdict read_value(const char **pp, int option, char *why, size_t whylen)
{
    const char *p = *pp;

    if (*p == '"') {
        p++;
        while (*p != '"') {
            if (*p == '\0') {
                (void)snprintf(why, whylen, "the value of option %d has no closing quote", option);
                return JAAS_MALFORMED;
            }
            if (*p == '\\' && p[1] != '\0')
                p++;
            p++;
        }
        p++;
    } else {
        const char *v = p;
        while (*p != '\0' && !isspace((unsigned char)*p) && *p != ';' && *p != '"')
            p++;
        if (p == v) {
            (void)snprintf(why, whylen, "option %d has an empty value", option);
            return JAAS_MALFORMED;
        }
    }
    *pp = p;
    return JAAS_OK;
}

/* The options `name=value` up to the terminating ';' (*pp left on it). */
static enum jaas_verdict read_options(const char **pp, char *why, size_t whylen)
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
            return JAAS_MALFORMED;
        }
        /* option name */
        name = p;
        while (is_ident((unsigned char)*p) || *p == '.' || *p == '-')
            p++;
        if (p == name) {
            (void)snprintf(why, whylen, "option %d has no name", options + 1);
            return JAAS_MALFORMED;
        }
        skip_space(&p);
        if (*p != '=') {
            /* The name is not printed: a mangled value may put a password here. */
            (void)snprintf(why, whylen, "option %d has no '='", options + 1);
            return JAAS_MALFORMED;
        }
        p++;
        skip_space(&p);
        if (read_value(&p, options + 1, why, whylen) != JAAS_OK)
            return JAAS_MALFORMED;
        options++;
    }
    *pp = p;
    return JAAS_OK;
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

enum jaas_verdict jaas_check(const char *value, char *cls, size_t classlen, char *why,
                             size_t whylen)
{
    const char *p = value;
    enum jaas_verdict v;
    size_t n;

    if (classlen > 0)
        cls[0] = '\0';
    /* Log4Shell-style lookups have no business in a credential. */
    if (contains_nocase(value, "jndi:") || contains_nocase(value, "ldap:")) {
        (void)snprintf(why, whylen, "it contains a jndi: or ldap: lookup");
        return JAAS_REFUSED;
    }
    skip_space(&p);
    n = class_name_len(p);
    if (n == 0) {
        (void)snprintf(why, whylen, "it does not start with a login module class name");
        return JAAS_MALFORMED;
    }
    if (classlen > 0)
        (void)snprintf(cls, classlen, "%.*s", (int)n, p);
    if (refused_class(p, n)) {
        (void)snprintf(why, whylen, "login module %.*s is refused (JNDI/LDAP login)", (int)n, p);
        return JAAS_REFUSED;
    }
    p += n;
    if (!isspace((unsigned char)*p)) {
        (void)snprintf(why, whylen, "the login module class is not followed by a control flag");
        return JAAS_MALFORMED;
    }
    skip_space(&p);
    if (!read_flag(&p)) {
        (void)snprintf(why, whylen,
                       "the control flag must be required, requisite, sufficient or optional");
        return JAAS_MALFORMED;
    }
    v = read_options(&p, why, whylen);
    if (v != JAAS_OK)
        return v;
    p++; /* ';' */
    skip_space(&p);
    if (*p != '\0') {
        (void)snprintf(why, whylen,
                       "it holds more than one login module entry (Kafka takes exactly one)");
        return JAAS_MALFORMED;
    }
    return JAAS_OK;
}
