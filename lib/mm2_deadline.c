/* mm2_deadline: see mm2_deadline.h. */
#include "mm2_deadline.h"

long mm2_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void mm2_deadline_start(struct mm2_deadline *d, long ms)
{
    if (ms < 0)
        ms = 0;
    clock_gettime(CLOCK_MONOTONIC, &d->end);
    d->end.tv_sec += ms / 1000;
    d->end.tv_nsec += (ms % 1000) * 1000000L;
    if (d->end.tv_nsec >= 1000000000L) {
        d->end.tv_sec++;
        d->end.tv_nsec -= 1000000000L;
    }
}

long mm2_deadline_remaining_ms(const struct mm2_deadline *d)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long ms = (long)(d->end.tv_sec - now.tv_sec) * 1000 + (d->end.tv_nsec - now.tv_nsec) / 1000000;
    return ms > 0 ? ms : 0;
}

bool mm2_deadline_expired(const struct mm2_deadline *d)
{
    return mm2_deadline_remaining_ms(d) == 0;
}
