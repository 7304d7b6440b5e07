/* Unit tests for mm2_upstart: where an update starts a partition, each start the operator's
 * explicit choice, and each refusal that keeps a record from being lost or copied twice. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "mm2_upstart.h"

/* A source log [100, 500), Flink at 300, Connect storing 249, the target at 300 whose last record
 * is the copy of the one just below the start. */
static struct mm2_start_facts facts(void)
{
    return (struct mm2_start_facts){100, 500, 300, 249, 300, true, false};
}

static bool start(enum mm2_start_mode m, const struct mm2_start_facts *f, struct mm2_pentry *e,
                  char *why)
{
    memset(e, 0, sizeof(*e));
    return mm2_start_entry(m, f, e, why, 400);
}

static void test_modes_parse_and_name(void **state)
{
    enum mm2_start_mode m;

    (void)state;
    assert_true(mm2_start_mode_parse("flink", &m) && m == MM2_START_FLINK);
    assert_true(mm2_start_mode_parse("stored", &m) && m == MM2_START_STORED);
    assert_false(mm2_start_mode_parse("carry", &m)); /* --carry-over's, never given by name */
    assert_false(mm2_start_mode_parse("Flink", &m));
    assert_false(mm2_start_mode_parse(NULL, &m));
    assert_string_equal(mm2_start_mode_name(MM2_START_CARRY), "carry");
}

static void test_flink_starts_at_c_and_proves_the_record_before(void **state)
{
    struct mm2_start_facts f = facts();
    struct mm2_pentry e;
    char why[400];

    (void)state;
    assert_true(start(MM2_START_FLINK, &f, &e, why));
    assert_int_equal(e.c, 300);
    assert_int_equal(e.m, 299);
    assert_int_equal(e.action, MM2_ACT_OFFSET);
    assert_int_equal(e.target_start, 300);
    assert_string_equal(e.boundary, ""); /* check compares the record before too */
    f.committed = -1;
    assert_false(start(MM2_START_FLINK, &f, &e, why));
    assert_string_equal(why, "the Flink group committed no offset on it");
    f = facts();
    f.committed = 50; /* expired before anyone copied it */
    assert_false(start(MM2_START_FLINK, &f, &e, why));
    assert_non_null(strstr(why, "outside the source log [100, 500]: the records below"));
    f = facts();
    f.target_last_copy = false; /* Flink's sink ahead of or behind its offsets */
    assert_false(start(MM2_START_FLINK, &f, &e, why));
    assert_non_null(strstr(why, "Flink's sink and its offsets disagree"));
    f = facts();
    f.target_end = -1;
    assert_false(start(MM2_START_FLINK, &f, &e, why));
    assert_non_null(strstr(why, "does not exist"));
}

static void test_earliest_and_latest_say_what_they_cost(void **state)
{
    struct mm2_start_facts f = facts();
    struct mm2_pentry e;
    char why[400], what[300];

    (void)state;
    assert_true(start(MM2_START_EARLIEST, &f, &e, why));
    assert_int_equal(e.c, 100);
    assert_int_equal(e.m, 99);
    assert_string_equal(e.boundary, "unplaced");
    mm2_start_consequence(MM2_START_EARLIEST, &f, what, sizeof(what));
    assert_string_equal(what, "copies 200 records again (from the log start 100 to Flink's "
                              "committed offset 300: Flink copied them)");
    assert_true(start(MM2_START_LATEST, &f, &e, why));
    assert_int_equal(e.c, 500);
    mm2_start_consequence(MM2_START_LATEST, &f, what, sizeof(what));
    assert_string_equal(what, "never copies the 200 records from Flink's committed offset 300 "
                              "to the log end 500");
    f.committed = -1;
    mm2_start_consequence(MM2_START_LATEST, &f, what, sizeof(what));
    assert_string_equal(what, "never copies the 400 records it holds (log end 500)");
    mm2_start_consequence(MM2_START_FLINK, &f, what, sizeof(what));
    assert_string_equal(what, "");
}

static void test_offset_zero_is_no_stored_offset_and_needs_earliest(void **state)
{
    struct mm2_start_facts f = {0, 40, -1, -1, 0, false, false};
    struct mm2_pentry e;
    char why[400];

    (void)state;
    assert_true(start(MM2_START_EARLIEST, &f, &e, why));
    assert_int_equal(e.action, MM2_ACT_RESET);
    assert_int_equal(e.m, -1);
    f.reset_latest = true;
    assert_false(start(MM2_START_EARLIEST, &f, &e, why));
    assert_non_null(strstr(why, "latest in the connector: set it to earliest"));
    f.log_end = 0; /* nothing to copy either way */
    assert_true(start(MM2_START_EARLIEST, &f, &e, why));
}

static void test_stored_refused_when_expired_or_the_target_moved(void **state)
{
    struct mm2_start_facts f = facts();
    struct mm2_pentry e;
    char why[400];

    (void)state;
    assert_true(start(MM2_START_STORED, &f, &e, why));
    assert_int_equal(e.c, 250);
    assert_int_equal(e.m, 249);
    f.stored = 60;
    assert_false(start(MM2_START_STORED, &f, &e, why));
    assert_string_equal(why, "its stored offset 60 is below the log start 100: the 39 records in "
                             "between have expired and would be lost without a word");
    f = facts();
    f.target_last_copy = false;
    assert_false(start(MM2_START_STORED, &f, &e, why));
    assert_non_null(strstr(why, "the target moved since MM2 last copied it"));
    f.target_end = -1; /* stored needs the target's last record; carry does not */
    assert_false(start(MM2_START_STORED, &f, &e, why));
    assert_true(start(MM2_START_CARRY, &f, &e, why));
    f = facts();
    f.stored = 500; /* past the end: another log */
    assert_false(start(MM2_START_CARRY, &f, &e, why));
    assert_non_null(strstr(why, "not of this log"));
    f.stored = -1;
    assert_false(start(MM2_START_CARRY, &f, &e, why));
    assert_string_equal(why, "Connect stores no offset for it to carry over");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes_parse_and_name),
        cmocka_unit_test(test_flink_starts_at_c_and_proves_the_record_before),
        cmocka_unit_test(test_earliest_and_latest_say_what_they_cost),
        cmocka_unit_test(test_offset_zero_is_no_stored_offset_and_needs_earliest),
        cmocka_unit_test(test_stored_refused_when_expired_or_the_target_moved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
