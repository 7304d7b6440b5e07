#include "harden.h"

#include <stdio.h>
#include <stdlib.h>

/* MAJOR.MINOR.PATCH as MAJOR * 10000 + MINOR * 100 + PATCH; 0 when not of that form. */
static long version_code(const char *v)
{
    long part[3] = {0, 0, 0};
    const char *s = v;

    for (int i = 0; i < 3; i++) {
        char *end;
        long n;
        if (*s < '0' || *s > '9')
            return 0;
        n = strtol(s, &end, 10);
        if (n > 99)
            return 0;
        part[i] = n;
        s = end;
        if (i < 2) {
            if (*s != '.')
                return i == 1 && *s == '\0' ? part[0] * 10000 + part[1] * 100 : 0;
            s++;
        }
    }
    return *s == '\0' ? part[0] * 10000 + part[1] * 100 + part[2] : 0;
}

int harden_opts(const char *version, char *buf, size_t len)
{
    static const struct {
        long since; /* the first version that reads it */
        const char *opt;
    } opts[] = {
        {0, "-Dorg.apache.kafka.disallowed.login.modules="
            "com.sun.security.auth.module.JndiLoginModule,com.sun.security.auth.module."
            "LdapLoginModule"},
        {40200, "-Dorg.apache.kafka.allowed.login.modules="
                "org.apache.kafka.common.security.plain.PlainLoginModule,"
                "org.apache.kafka.common.security.scram.ScramLoginModule"},
        {30701, "-Dorg.apache.kafka.automatic.config.providers="
                "org.apache.kafka.common.config.provider.EnvVarConfigProvider"},
        {30901, "-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls="},
        {40100, "-Dorg.apache.kafka.sasl.oauthbearer.allowed.files="},
    };
    long code = version != NULL ? version_code(version) : 0;
    int n = 0;

    if (len == 0)
        return -1;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
        int w;
        if (code != 0 && code < opts[i].since)
            continue;
        w = snprintf(buf + n, len - (size_t)n, "%s%s", n > 0 ? " " : "", opts[i].opt);
        if (w < 0 || (size_t)w >= len - (size_t)n)
            return -1;
        n += w;
    }
    return n;
}
