/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Modules and the messages they exchange.
 *
 * A module is anything that receives netapi messages: a protocol, an interface,
 * an application endpoint. It is a caller-allocated struct with a name, a
 * priority, a handler and a bounded message queue whose storage the caller
 * provides. An executor (executor.h) decides on which thread the handler runs;
 * module code is the same under every executor.
 */
#ifndef TERN_MODULE_H
#define TERN_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tern/pkt.h"

struct tern_executor;
struct tern_stack;
struct tern_netapi_opt;

/** Message types. Values from TERN_MSG_USER on are free for modules. */
enum {
    TERN_MSG_SND = 1,    /**< packet going down; content.pkt */
    TERN_MSG_RCV,        /**< packet going up; content.pkt */
    TERN_MSG_GET,        /**< read an option; content.opt; answered by ACK */
    TERN_MSG_SET,        /**< write an option; content.opt; answered by ACK */
    TERN_MSG_ACK,        /**< reply to GET/SET; content.value is the result */
    TERN_MSG_TIMER,      /**< a timer expired; content.value is the timer's value */
    TERN_MSG_NETDEV,     /**< a device event to handle outside interrupt context */
    TERN_MSG_USER = 0x100 /**< first module-specific type */
};

/** Content of a message: what field is valid depends on the type. */
typedef union {
    tern_pkt_t *pkt;                  /**< SND, RCV */
    struct tern_netapi_opt *opt;      /**< GET, SET */
    void *ptr;                        /**< module-specific */
    uintptr_t value;                  /**< ACK, TIMER, module-specific */
} tern_msg_content_t;

/** One message. Small and copied by value into queues. */
typedef struct {
    uint16_t type;                  /**< TERN_MSG_... */
    struct tern_module *sender;     /**< module that sent it; NULL from outside the stack */
    tern_msg_content_t content;     /**< payload of the message */
} tern_msg_t;

/** Bounded FIFO of messages over caller storage (a power-of-two capacity). */
typedef struct {
    tern_msg_t *slots;  /**< storage */
    uint16_t capacity;  /**< number of slots, a power of two */
    uint16_t head;      /**< index of the oldest message */
    uint16_t count;     /**< messages queued */
    uint16_t high_water; /**< most messages ever queued at once */
} tern_msgq_t;

typedef struct tern_module tern_module_t;

/**
 * Handler of a module's messages.
 *
 * For GET and SET the return value is the reply (length of the value, or a
 * negative errno such as -ENOTSUP); for other types it is ignored. A handler
 * that receives a packet (SND/RCV) owns one reference to it and must pass it on
 * or release it.
 */
typedef int (*tern_module_handler_t)(tern_module_t *self, tern_msg_t *msg);

/** A module. Initialise with tern_module_init(); fields are read-only afterwards. */
struct tern_module {
    const char *name;               /**< short name for shell and trace */
    tern_module_handler_t handle;   /**< the message handler */
    void *context;                  /**< the owner's state, for the handler */
    struct tern_stack *stack;       /**< stack the module belongs to (set on attach) */
    struct tern_executor *exec;     /**< executor serving it (set on attach) */
    tern_module_t *next;            /**< executor's list of modules */
    void *exec_slot;                /**< executor-private per-module data */
    tern_msgq_t queue;              /**< pending messages */
    uint32_t queue_full;            /**< messages refused because the queue was full */
    uint8_t priority;               /**< 0 is the most urgent */
    uint8_t running;                /**< executor-private: handlers of it on the stack (loop) */
};

/**
 * Set up a module.
 *
 * @param[out] m         the module
 * @param[in]  name      short name, kept by reference
 * @param[in]  priority  0 (most urgent) .. 255
 * @param[in]  handle    handler, not NULL
 * @param[in]  context   owner state passed through to the handler via m->context
 * @param[in]  slots     queue storage of @p capacity messages
 * @param[in]  capacity  power of two, 2..32768
 * @return 0; -EINVAL if an argument is NULL or @p capacity is not a power of two.
 */
int tern_module_init(tern_module_t *m, const char *name, uint8_t priority,
                     tern_module_handler_t handle, void *context,
                     tern_msg_t *slots, size_t capacity);

/** Append @p msg to @p q. @return 0, or -ENOBUFS when full. Not locked. */
int tern_msgq_put(tern_msgq_t *q, const tern_msg_t *msg);

/** Take the oldest message of @p q into @p msg. @return true if there was one. Not locked. */
bool tern_msgq_get(tern_msgq_t *q, tern_msg_t *msg);

#endif /* TERN_MODULE_H */
