/* bench/entrypoint's launcher: prints, in nanoseconds, CLOCK_MONOTONIC now
 * minus $BENCH_T0 (taken by the harness just before it exec'd the
 * entrypoint), so the figure is the entrypoint's own cost, exec to exec. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    const char *t0 = getenv("BENCH_T0");
    if (t0 == NULL)
        return 2;
    char *end = NULL;
    long long start = strtoll(t0, &end, 10);
    if (end == t0 || *end != '\0')
        return 2;
    printf("%lld\n", (long long)t.tv_sec * 1000000000LL + t.tv_nsec - start);
    return 0;
}
