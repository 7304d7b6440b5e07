/* mm2_deadline: CLOCK_MONOTONIC deadlines (see mm2_deadline.h). */
#include "mm2_deadline.h"

#define NS_PER_MS 1000000L
#define NS_PER_S 1000000000L

static struct timespec now(void)
{
    struct timespec t = {0, 0};

    (void)clock_gettime(CLOCK_MONOTONIC, &t);
    return t;
}

void mm2_deadline_start(struct mm2_deadline *d, long ms)
{
    struct timespec t = now();

    if (ms < 0)
        ms = 0;
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * NS_PER_MS;
    if (t.tv_nsec >= NS_PER_S) {
        t.tv_sec++;
        t.tv_nsec -= NS_PER_S;
    }
    d->end = t;
}

long mm2_deadline_remaining_ms(const struct mm2_deadline *d)
{
    struct timespec t = now();
    long long ns = (long long)(d->end.tv_sec - t.tv_sec) * NS_PER_S + (d->end.tv_nsec - t.tv_nsec);

    if (ns <= 0)
        return 0;
    return (long)((ns + NS_PER_MS - 1) / NS_PER_MS);
}

bool mm2_deadline_expired(const struct mm2_deadline *d)
{
    return mm2_deadline_remaining_ms(d) == 0;
}

long mm2_deadline_now_ms(void)
{
    struct timespec t = now();

    return (long)t.tv_sec * 1000 + t.tv_nsec / NS_PER_MS;
}
