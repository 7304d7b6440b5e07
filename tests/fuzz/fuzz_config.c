/*
 * libFuzzer target: mm2-offsets' INI reader, mm2_config_parse (lib/mm2_config.h), on any text.
 *
 * The input is copied into a NUL-terminated buffer (the reader takes a C string, as
 * mm2_config_load hands it one). The environment is a fixed fake: the four SASL variables of
 * k8s/base/offsets/migration.ini, an empty one and one long enough to overflow a value when
 * repeated; every other name is unset, so the "not set" path is reached too. Whatever the
 * outcome, the config is freed: a leak is a finding.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mm2_config.h"
#include "mm2_env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define X10 "xxxxxxxxxx"
#define X100 X10 X10 X10 X10 X10 X10 X10 X10 X10 X10
#define X1000 X100 X100 X100 X100 X100 X100 X100 X100 X100 X100

static const char *fake_getenv(const char *name)
{
    static const struct {
        const char *name;
        const char *value;
    } env[] = {
        {"MM2_SOURCE_SASL_USERNAME", "mm2-source"},
        {"MM2_SOURCE_SASL_PASSWORD", "s3cr3t;#=${env:X}"},
        {"MM2_TARGET_SASL_USERNAME", "mm2-target"},
        {"MM2_TARGET_SASL_PASSWORD", "t4rg3t"},
        {"EMPTY", ""},
        {"LONG", X1000},
    };

    for (size_t i = 0; i < sizeof(env) / sizeof(env[0]); i++)
        if (strcmp(name, env[i].name) == 0)
            return env[i].value;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct mm2_config cfg;
    struct mm2_problems problems = {0};
    char *text = malloc(size + 1);

    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    /* A refused file always says why, one line per problem, none of them empty. */
    if (mm2_config_parse(text, "/etc/mm2-offsets/migration.ini", fake_getenv, &cfg, &problems) !=
        MM2_OK) {
        if (problems.n == 0)
            abort();
        for (size_t i = 0; i < problems.n; i++)
            if (problems.line[i][0] == '\0')
                abort();
    }
    mm2_config_free(&cfg);
    free(text);
    return 0;
}
