/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * @brief Shell line parsing and the command table.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "tern/fmt.h"
#include "tern/shell.h"

void tern_shell_init(tern_shell_t *sh, tern_stack_t *stack,
                     void (*write)(void *ctx, const char *text, size_t len), void *write_ctx)
{
    sh->stack = stack;
    sh->write = write;
    sh->write_ctx = write_ctx;
    sh->cmds = NULL;
    sh->current = NULL;
    sh->netif_hooks = NULL;
}

void tern_shell_add_netif_hook(tern_shell_t *sh, tern_shell_netif_hook_t *hook)
{
    tern_shell_netif_hook_t **link = &sh->netif_hooks;
    while (*link != NULL) {
        link = &(*link)->next;
    }
    hook->next = NULL;
    *link = hook;
}

int tern_shell_add(tern_shell_t *sh, tern_shell_cmd_t *cmd)
{
    if (sh == NULL || cmd == NULL || cmd->name == NULL || cmd->fn == NULL) {
        return -EINVAL;
    }
    tern_shell_cmd_t **link = &sh->cmds;
    while (*link != NULL && strcmp((*link)->name, cmd->name) < 0) {
        link = &(*link)->next;
    }
    if (*link != NULL && strcmp((*link)->name, cmd->name) == 0) {
        return -EEXIST;
    }
    cmd->next = *link;
    *link = cmd;
    return 0;
}

void tern_shell_printf(tern_shell_t *sh, const char *fmt, ...)
{
    char line[TERN_CONF_SHELL_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int len = tern_vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (len < 0) {
        return;
    }
    if ((size_t)len >= sizeof(line)) {
        len = (int)sizeof(line) - 1;
    }
    sh->write(sh->write_ctx, line, (size_t)len);
}

/* Split @p line into words in place. @return number of words or negative errno. */
static int split_words(char *line, char **argv, int max)
{
    int argc = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            p++;
        }
        if (*p == '\0') {
            return argc;
        }
        if (argc == max) {
            return -E2BIG;
        }
        char *out = p;
        argv[argc++] = out;
        bool quoted = false;
        while (*p != '\0' && (quoted || (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n'))) {
            if (*p == '"') {
                quoted = !quoted;
                p++;
                continue;
            }
            *out++ = *p++;
        }
        if (quoted) {
            return -EINVAL;
        }
        if (*p != '\0') {
            p++;
        }
        *out = '\0';
    }
}

int tern_shell_run(tern_shell_t *sh, char *line)
{
    char *argv[TERN_CONF_SHELL_ARGS_MAX];
    const char *first = line;
    while (*first == ' ' || *first == '\t') {
        first++;
    }
    if (*first == '#') {
        return 0;
    }
    int argc = split_words(line, argv, TERN_CONF_SHELL_ARGS_MAX);
    if (argc == -E2BIG) {
        tern_shell_printf(sh, "shell: too many words (at most %d)\n", TERN_CONF_SHELL_ARGS_MAX);
        return argc;
    }
    if (argc < 0) {
        tern_shell_printf(sh, "shell: unterminated quote\n");
        return argc;
    }
    if (argc == 0) {
        return 0;
    }
    for (tern_shell_cmd_t *c = sh->cmds; c != NULL; c = c->next) {
        if (strcmp(c->name, argv[0]) == 0) {
            sh->current = c;
            int res = c->fn(sh, argc, argv);
            sh->current = NULL;
            if (res < 0) {
                tern_shell_printf(sh, "%s: %s\n", argv[0], tern_strerror(res));
            }
            return res;
        }
    }
    tern_shell_printf(sh, "shell: unknown command '%s' (try 'help')\n", argv[0]);
    return -ENOENT;
}

const char *tern_strerror(int err)
{
    switch (-err) {
    case 0:
        return "success";
    case EINVAL:
        return "invalid argument";
    case ENOENT:
        return "not found";
    case ENOMEM:
        return "out of packet buffer memory";
    case ENOBUFS:
        return "queue or buffer full";
    case ENOTSUP:
        return "not supported";
    case EOVERFLOW:
        return "value too large";
    case ENODEV:
        return "no such interface";
    case EMSGSIZE:
        return "message too long";
    case ENETDOWN:
        return "interface down";
    case EBUSY:
        return "busy";
    case ETIMEDOUT:
        return "timed out";
    case E2BIG:
        return "too many arguments";
    case EEXIST:
        return "already exists";
    case EIO:
        return "input/output error";
    default:
        return "error";
    }
}
