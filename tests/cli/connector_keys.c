/* connector-keys: a test tool that prints the connector keys mm2-offsets requires or reads
 * (mm2_connector_rule_key), one a line, for tests/compat/config-keys.sh, which checks that each
 * is a key the Kafka versions read. Exit: 0, or 2 when given an argument. */
#include <stdio.h>

#include "mm2_connector.h"

int main(int argc, char **argv)
{
    const char *k;

    (void)argv;
    if (argc != 1) {
        fprintf(stderr, "usage: connector-keys\n");
        return 2;
    }
    for (size_t i = 0; (k = mm2_connector_rule_key(i)) != NULL; i++)
        printf("%s\n", k);
    return 0;
}
