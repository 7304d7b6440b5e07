/*
 * mm2_deadline: a point in time on CLOCK_MONOTONIC, so timeouts survive wall-clock jumps (NTP,
 * a container's clock being set).
 *
 * Contract: struct mm2_deadline is a plain caller-owned value; nothing allocates or fails
 * (clock_gettime(CLOCK_MONOTONIC) cannot fail on Linux with a valid pointer).
 */
#ifndef MM2_DEADLINE_H
#define MM2_DEADLINE_H

#include <stdbool.h>
#include <time.h>

struct mm2_deadline {
    struct timespec end;
};

/* Sets d to now + ms; a negative ms counts as 0 (already expired). */
void mm2_deadline_start(struct mm2_deadline *d, long ms);

/* Milliseconds left, rounded up so a deadline not yet reached never reports 0; 0 once passed,
 * never negative. */
long mm2_deadline_remaining_ms(const struct mm2_deadline *d);

/* True once the deadline has been reached. */
bool mm2_deadline_expired(const struct mm2_deadline *d);

/* Monotonic milliseconds since an arbitrary fixed point (for measuring durations only). */
long mm2_deadline_now_ms(void);

#endif
