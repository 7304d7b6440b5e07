/* mm2_deadline: a hard deadline on CLOCK_MONOTONIC (never the wall clock, which
 * NTP may step).  The struct is the caller's; nothing to free. */
#ifndef MM2_DEADLINE_H
#define MM2_DEADLINE_H

#include <stdbool.h>
#include <time.h>

struct mm2_deadline {
    struct timespec end;
};

/* Milliseconds on the monotonic clock since an arbitrary origin. */
long mm2_now_ms(void);

/* Starts a deadline `ms` milliseconds from now (ms < 0 counts as 0). */
void mm2_deadline_start(struct mm2_deadline *d, long ms);

/* Milliseconds left, 0 once passed (never negative). */
long mm2_deadline_remaining_ms(const struct mm2_deadline *d);

bool mm2_deadline_expired(const struct mm2_deadline *d);

#endif
