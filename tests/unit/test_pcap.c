/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief The pcap writer: golden bytes of the global header and of records.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "tern/port/pcap.h"

static char path[64];
static tern_pcap_t pc;

static int setup(void **state)
{
    (void)state;
    (void)snprintf(path, sizeof(path), "/tmp/tern-test-pcap-%ld.pcap", (long)getpid());
    assert_int_equal(tern_pcap_init(&pc), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tern_pcap_destroy(&pc);
    (void)unlink(path);
    return 0;
}

/* Read the whole file into @p buf. @return its length. */
static size_t read_file(uint8_t *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, size, f);
    assert_int_equal(fclose(f), 0);
    return n;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void test_tern_pcap_open__global_header_golden_bytes(void **state)
{
    (void)state;
    assert_int_equal(tern_pcap_open(&pc, path, TERN_PCAP_LINKTYPE_ETHERNET), 0);
    /* Readable at once: the header is flushed before the first frame. */
    static const uint8_t golden[24] = {
        0xd4, 0xc3, 0xb2, 0xa1, /* magic, microsecond stamps, little-endian */
        0x02, 0x00, 0x04, 0x00, /* version 2.4 */
        0x00, 0x00, 0x00, 0x00, /* thiszone */
        0x00, 0x00, 0x00, 0x00, /* sigfigs */
        0xff, 0xff, 0x00, 0x00, /* snaplen 65535 */
        0x01, 0x00, 0x00, 0x00, /* LINKTYPE_ETHERNET */
    };
    uint8_t buf[64];
    assert_int_equal(read_file(buf, sizeof(buf)), 24);
    assert_memory_equal(buf, golden, 24);
    assert_int_equal(tern_pcap_close(&pc), 0);
}

static void test_tern_pcap_write_at__record_golden_bytes(void **state)
{
    (void)state;
    assert_int_equal(tern_pcap_open(&pc, path, TERN_PCAP_LINKTYPE_IEEE802_15_4_NOFCS), 0);
    static const uint8_t part1[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    static const uint8_t part2[] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x88, 0xb5, 'h', 'i' };
    const tern_iolist_t iol[2] = { { part1, sizeof(part1) }, { part2, sizeof(part2) } };
    /* 2023-11-14 22:13:20.123456 UTC */
    assert_int_equal(tern_pcap_write_at(&pc, 1700000000123456u, iol, 2), 0);
    assert_int_equal(pc.frames, 1);
    uint8_t buf[128];
    size_t n = read_file(buf, sizeof(buf));
    assert_int_equal(n, 24 + 16 + 16);
    assert_int_equal(le32(&buf[20]), 230); /* the caller's link type */
    static const uint8_t record[16] = {
        0x00, 0xf1, 0x53, 0x65, /* ts_sec 1700000000 */
        0x40, 0xe2, 0x01, 0x00, /* ts_usec 123456 */
        0x10, 0x00, 0x00, 0x00, /* incl_len 16 */
        0x10, 0x00, 0x00, 0x00, /* orig_len 16 */
    };
    assert_memory_equal(&buf[24], record, 16);
    assert_memory_equal(&buf[40], part1, sizeof(part1));
    assert_memory_equal(&buf[46], part2, sizeof(part2));
    assert_int_equal(tern_pcap_close(&pc), 0);
}

static void test_tern_pcap_write__stamped_with_the_real_clock(void **state)
{
    (void)state;
    assert_int_equal(tern_pcap_open(&pc, path, TERN_PCAP_LINKTYPE_ETHERNET), 0);
    /* The clock the writer reads (CLOCK_REALTIME): time() may be served by a
     * coarser clock that lags it across a second boundary. */
    struct timespec t0;
    struct timespec t1;
    assert_int_equal(clock_gettime(CLOCK_REALTIME, &t0), 0);
    static const uint8_t frame[3] = { 1, 2, 3 };
    const tern_iolist_t iol = { frame, sizeof(frame) };
    tern_pcap_capture(&pc, &iol, 1, true); /* the interface hook */
    assert_int_equal(clock_gettime(CLOCK_REALTIME, &t1), 0);
    time_t before = t0.tv_sec;
    time_t after = t1.tv_sec;
    uint8_t buf[64];
    assert_int_equal(read_file(buf, sizeof(buf)), 24 + 16 + 3);
    uint32_t sec = le32(&buf[24]);
    assert_true(sec >= (uint32_t)before && sec <= (uint32_t)after);
    assert_true(le32(&buf[28]) < 1000000u);
    assert_memory_equal(&buf[40], frame, 3);
    assert_int_equal(tern_pcap_close(&pc), 0);
}

static void test_tern_pcap_write__longer_than_snaplen_is_cut(void **state)
{
    (void)state;
    static uint8_t big[TERN_PCAP_SNAPLEN + 100];
    assert_int_equal(tern_pcap_open(&pc, path, TERN_PCAP_LINKTYPE_ETHERNET), 0);
    const tern_iolist_t iol[2] = { { big, TERN_PCAP_SNAPLEN }, { big, 100 } };
    assert_int_equal(tern_pcap_write_at(&pc, 0, iol, 2), 0);
    assert_int_equal(tern_pcap_close(&pc), 0);
    static uint8_t buf[TERN_PCAP_SNAPLEN + 200];
    assert_int_equal(read_file(buf, sizeof(buf)), 24 + 16 + TERN_PCAP_SNAPLEN);
    assert_int_equal(le32(&buf[32]), TERN_PCAP_SNAPLEN);
    assert_int_equal(le32(&buf[36]), TERN_PCAP_SNAPLEN + 100u);
}

static void test_tern_pcap__errors(void **state)
{
    (void)state;
    static const uint8_t frame[1] = { 0 };
    const tern_iolist_t iol = { frame, 1 };
    assert_int_equal(tern_pcap_write_at(&pc, 0, &iol, 1), -EBADF); /* not open */
    assert_int_equal(tern_pcap_open(&pc, "/nonexistent-dir/x.pcap", 1), -ENOENT);
    assert_int_equal(tern_pcap_open(&pc, path, 1), 0);
    assert_int_equal(tern_pcap_open(&pc, path, 1), -EBUSY);
    assert_int_equal(tern_pcap_close(&pc), 0);
    assert_int_equal(tern_pcap_close(&pc), 0); /* twice is harmless */
    assert_int_equal(tern_pcap_write_at(&pc, 0, &iol, 1), -EBADF);
    assert_int_equal(tern_pcap_stop(&pc), -ENOENT); /* not capturing an interface */
    assert_int_equal(tern_pcap_open(NULL, path, 1), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tern_pcap_open__global_header_golden_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_pcap_write_at__record_golden_bytes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_pcap_write__stamped_with_the_real_clock, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_pcap_write__longer_than_snaplen_is_cut, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tern_pcap__errors, setup, teardown),
    };
    return cmocka_run_group_tests_name("pcap", tests, NULL, NULL);
}
