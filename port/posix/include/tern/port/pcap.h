/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief A pcap file writer (classic libpcap format) and an interface capture.
 *
 * The file has the classic 24-byte global header (magic a1b2c3d4, version 2.4,
 * microsecond timestamps) followed by one 16-byte record header plus the frame
 * per frame, all fields little-endian (readers detect the byte order from the
 * magic). Timestamps come from the real clock (CLOCK_REALTIME). Every record
 * is flushed, so a capture can be read while it grows and survives a crash.
 *
 * The link type is the caller's: TERN_PCAP_LINKTYPE_ETHERNET (1) for Ethernet
 * interfaces, 195 (802.15.4 with FCS) or 230 (without FCS) for radios.
 *
 * Thread safety: writes to one writer are serialised by its mutex, so several
 * interfaces may share a writer (same link type).
 */
#ifndef TERN_PORT_PCAP_H
#define TERN_PORT_PCAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tern/netif.h"
#include "tern/pkt.h"

/** Ethernet (IEEE 802.3) frames without FCS. */
#define TERN_PCAP_LINKTYPE_ETHERNET 1u
/** IEEE 802.15.4 frames with FCS. */
#define TERN_PCAP_LINKTYPE_IEEE802_15_4_WITHFCS 195u
/** IEEE 802.15.4 frames without FCS. */
#define TERN_PCAP_LINKTYPE_IEEE802_15_4_NOFCS 230u

/** Longest frame part recorded (snaplen); longer frames are cut, their length kept. */
#define TERN_PCAP_SNAPLEN 65535u

/** Bytes of the global header and of a record header. */
#define TERN_PCAP_GLOBAL_HDR_LEN 24u
#define TERN_PCAP_RECORD_HDR_LEN 16u

/** A pcap writer. Zero it (or tern_pcap_init) before first use. */
typedef struct {
    FILE *file;            /**< open capture, or NULL */
    pthread_mutex_t mutex; /**< serialises writes */
    bool mutex_ready;      /**< mutex initialised */
    uint32_t linktype;     /**< link type of the open file */
    uint32_t frames;       /**< records written */
    uint32_t errors;       /**< records that could not be written */
    tern_netif_t *netif;   /**< interface captured by tern_pcap_start, or NULL */
} tern_pcap_t;

/** Prepare @p pc (no file). @return 0 or a negative errno. */
int tern_pcap_init(tern_pcap_t *pc);

/**
 * Create (truncate) @p path and write the global header.
 * @return 0; -EINVAL for NULL; -EBUSY if a file is open; -errno of fopen/fwrite.
 */
int tern_pcap_open(tern_pcap_t *pc, const char *path, uint32_t linktype);

/**
 * Write one record: the concatenation of @p iol, stamped now (real clock).
 * @return 0; -EBADF when no file is open; -EIO on a write error (counted).
 */
int tern_pcap_write(tern_pcap_t *pc, const tern_iolist_t *iol, size_t count);

/** tern_pcap_write() with an explicit timestamp, in microseconds since 1970 (for tests). */
int tern_pcap_write_at(tern_pcap_t *pc, uint64_t unix_us, const tern_iolist_t *iol, size_t count);

/** Records written to the current (or last) file, read under the writer's mutex. */
uint32_t tern_pcap_frames(tern_pcap_t *pc);

/** Close the file (if any). @return 0; -EIO if the final flush failed. */
int tern_pcap_close(tern_pcap_t *pc);

/** A tern_netif_capture_fn_t writing every frame to the tern_pcap_t @p ctx. */
void tern_pcap_capture(void *ctx, const tern_iolist_t *iol, size_t count, bool tx);

/**
 * Open @p path and capture every frame of @p netif into it (netapi SET
 * TERN_NETOPT_CAPTURE, so the hook changes on the interface's own turn).
 * @return 0; -EBUSY if @p pc is capturing already; tern_pcap_open()'s errors;
 *         the SET's error (then the file is closed again).
 */
int tern_pcap_start(tern_pcap_t *pc, tern_netif_t *netif, const char *path, uint32_t linktype);

/**
 * Stop capturing (remove the hook: after this returns no frame is written)
 * and close the file. @return 0; -ENOENT if @p pc is not capturing; -EIO.
 */
int tern_pcap_stop(tern_pcap_t *pc);

/** Release what tern_pcap_init() created (closes the file, without unhooking). */
void tern_pcap_destroy(tern_pcap_t *pc);

#endif /* TERN_PORT_PCAP_H */
