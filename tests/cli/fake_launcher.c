/* fake_launcher: stands in for connect-distributed.sh in the CLI tests.  A
 * shell script cannot be the probe: bash changes its own signal dispositions
 * and mask before a script's first line runs.  This writes, to
 * $MM2_TEST_OUT/launch, what the entrypoint handed over: its PID, argv, the
 * credential, capability and signal lines of /proc/self/status, and the
 * environment (the JAAS value only as "jaas=set").  Exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
    static const char *const keys[] = {
        "Uid:",    "Gid:",    "Groups:",     "CapInh:", "CapPrm:", "CapEff:",
        "CapBnd:", "CapAmb:", "NoNewPrivs:", "SigBlk:", "SigIgn:"};
    const char *dir = getenv("MM2_TEST_OUT");
    char path[4096], line[512];
    if (dir == NULL || snprintf(path, sizeof path, "%s/launch", dir) >= (int)sizeof path)
        return 2;
    FILE *out = fopen(path, "w");
    FILE *st = fopen("/proc/self/status", "r");
    if (out == NULL || st == NULL)
        return 2;
    fprintf(out, "pid=%ld\n", (long)getpid());
    fprintf(out, "argv=");
    for (int i = 1; i < argc; i++)
        fprintf(out, "%s%s", i > 1 ? " " : "", argv[i]);
    fputc('\n', out);
    while (fgets(line, sizeof line, st) != NULL)
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (strncmp(line, keys[k], strlen(keys[k])) == 0) {
                /* "Uid:\t0\t0..." -> "Uid: 0\t0..." */
                char *v = line + strlen(keys[k]);
                while (*v == '\t' || *v == ' ')
                    v++;
                fprintf(out, "%s %s", keys[k], v);
            }
    fclose(st);
    for (char **e = environ; *e != NULL; e++) {
        if (strncmp(*e, "CONNECT_SASL_JAAS_CONFIG=", 25) == 0)
            fprintf(out, "jaas=set\n");
        else
            fprintf(out, "env %s\n", *e);
    }
    return fclose(out) == 0 ? 0 : 2;
}
