/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief pcap writer over stdio (classic libpcap format, microsecond stamps).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tern/netapi.h"
#include "tern/port/pcap.h"

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void put_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

int tern_pcap_init(tern_pcap_t *pc)
{
    if (pc == NULL) {
        return -EINVAL;
    }
    memset(pc, 0, sizeof(*pc));
    int rc = pthread_mutex_init(&pc->mutex, NULL);
    if (rc != 0) {
        return -rc;
    }
    pc->mutex_ready = true;
    return 0;
}

int tern_pcap_open(tern_pcap_t *pc, const char *path, uint32_t linktype)
{
    if (pc == NULL || path == NULL || !pc->mutex_ready) {
        return -EINVAL;
    }
    (void)pthread_mutex_lock(&pc->mutex);
    int res = 0;
    if (pc->file != NULL) {
        res = -EBUSY;
        goto out;
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        res = (errno != 0) ? -errno : -EIO;
        goto out;
    }
    uint8_t hdr[TERN_PCAP_GLOBAL_HDR_LEN];
    put_le32(&hdr[0], 0xa1b2c3d4u); /* magic: microsecond timestamps */
    put_le16(&hdr[4], 2);           /* version 2.4 */
    put_le16(&hdr[6], 4);
    put_le32(&hdr[8], 0);           /* thiszone: UTC */
    put_le32(&hdr[12], 0);          /* sigfigs */
    put_le32(&hdr[16], TERN_PCAP_SNAPLEN);
    put_le32(&hdr[20], linktype);
    if (fwrite(hdr, 1, sizeof(hdr), f) != sizeof(hdr) || fflush(f) != 0) {
        (void)fclose(f);
        res = -EIO;
        goto out;
    }
    pc->file = f;
    pc->linktype = linktype;
    pc->frames = 0;
    pc->errors = 0;
out:
    (void)pthread_mutex_unlock(&pc->mutex);
    return res;
}

int tern_pcap_write_at(tern_pcap_t *pc, uint64_t unix_us, const tern_iolist_t *iol, size_t count)
{
    if (pc == NULL || !pc->mutex_ready || (iol == NULL && count != 0)) {
        return -EINVAL;
    }
    size_t len = 0;
    for (size_t i = 0; i < count; i++) {
        len += iol[i].len;
    }
    size_t incl = (len > TERN_PCAP_SNAPLEN) ? TERN_PCAP_SNAPLEN : len;
    uint8_t rec[TERN_PCAP_RECORD_HDR_LEN];
    put_le32(&rec[0], (uint32_t)(unix_us / 1000000u));
    put_le32(&rec[4], (uint32_t)(unix_us % 1000000u));
    put_le32(&rec[8], (uint32_t)incl);
    put_le32(&rec[12], (uint32_t)len);

    (void)pthread_mutex_lock(&pc->mutex);
    int res = 0;
    if (pc->file == NULL) {
        res = -EBADF;
        goto out;
    }
    bool ok = fwrite(rec, 1, sizeof(rec), pc->file) == sizeof(rec);
    size_t left = incl;
    for (size_t i = 0; ok && i < count && left > 0; i++) {
        size_t n = (iol[i].len < left) ? iol[i].len : left;
        ok = (n == 0) || fwrite(iol[i].base, 1, n, pc->file) == n;
        left -= n;
    }
    ok = ok && fflush(pc->file) == 0;
    if (ok) {
        pc->frames++;
    } else {
        pc->errors++;
        res = -EIO;
    }
out:
    (void)pthread_mutex_unlock(&pc->mutex);
    return res;
}

int tern_pcap_write(tern_pcap_t *pc, const tern_iolist_t *iol, size_t count)
{
    struct timespec ts;
    uint64_t now = 0;
    if (clock_gettime(CLOCK_REALTIME, &ts) == 0) {
        now = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
    }
    return tern_pcap_write_at(pc, now, iol, count);
}

uint32_t tern_pcap_frames(tern_pcap_t *pc)
{
    if (pc == NULL || !pc->mutex_ready) {
        return 0;
    }
    (void)pthread_mutex_lock(&pc->mutex);
    uint32_t frames = pc->frames;
    (void)pthread_mutex_unlock(&pc->mutex);
    return frames;
}

int tern_pcap_close(tern_pcap_t *pc)
{
    if (pc == NULL || !pc->mutex_ready) {
        return -EINVAL;
    }
    (void)pthread_mutex_lock(&pc->mutex);
    int res = 0;
    if (pc->file != NULL) {
        res = (fclose(pc->file) == 0) ? 0 : -EIO;
        pc->file = NULL;
    }
    (void)pthread_mutex_unlock(&pc->mutex);
    return res;
}

void tern_pcap_capture(void *ctx, const tern_iolist_t *iol, size_t count, bool tx)
{
    (void)tx; /* the classic format has no direction */
    (void)tern_pcap_write(ctx, iol, count);
}

int tern_pcap_start(tern_pcap_t *pc, tern_netif_t *netif, const char *path, uint32_t linktype)
{
    if (pc == NULL || netif == NULL || path == NULL) {
        return -EINVAL;
    }
    if (pc->netif != NULL) {
        return -EBUSY;
    }
    int res = tern_pcap_open(pc, path, linktype);
    if (res < 0) {
        return res;
    }
    const tern_netif_capture_t cap = { .fn = tern_pcap_capture, .ctx = pc };
    res = tern_netapi_set(&netif->module, TERN_NETOPT_CAPTURE, 0, &cap, sizeof(cap));
    if (res < 0) {
        (void)tern_pcap_close(pc);
        return res;
    }
    pc->netif = netif;
    return 0;
}

int tern_pcap_stop(tern_pcap_t *pc)
{
    if (pc == NULL) {
        return -EINVAL;
    }
    if (pc->netif == NULL) {
        return -ENOENT;
    }
    const tern_netif_capture_t none = { .fn = NULL, .ctx = NULL };
    (void)tern_netapi_set(&pc->netif->module, TERN_NETOPT_CAPTURE, 0, &none, sizeof(none));
    pc->netif = NULL;
    return tern_pcap_close(pc);
}

void tern_pcap_destroy(tern_pcap_t *pc)
{
    if (pc == NULL || !pc->mutex_ready) {
        return;
    }
    (void)tern_pcap_close(pc);
    (void)pthread_mutex_destroy(&pc->mutex);
    pc->mutex_ready = false;
}
