/* SPDX-License-Identifier: GPL-2.0 */
/* Ordered apply with validation and rollback: scheduler, knobs, queue. */
#ifndef SCHEDCTL_APPLY_H
#define SCHEDCTL_APPLY_H

#include <stdbool.h>
#include <stddef.h>

/* Exit codes, also returned by sc_apply (see schedctl(8)). */
enum {
	SC_EXIT_OK = 0,
	SC_EXIT_FAIL = 1,	/* failed; nothing changed or all rolled back */
	SC_EXIT_USAGE = 2,	/* usage, policy file or validation error: nothing written */
	SC_EXIT_PARTIAL = 3,	/* failed and the rollback failed too */
};

enum {
	SC_DRY_RUN = 1 << 0,	/* change nothing, report what would change */
	SC_LENIENT = 1 << 1,	/* policy: skip what the device or the chosen
				 * scheduler does not have, with a note */
};

struct sc_req {
	const char *key;
	const char *value;
	const char *origin;	/* "file:line" for messages, or NULL */
};

struct sc_change {
	char *key;
	char *old;		/* NULL: the scheduler's default after a switch */
	char *new;
};

struct sc_report {
	struct sc_change *c;
	size_t n;
	char **notes;		/* informational: skipped settings, fallbacks */
	size_t nnotes;
	char err[1024];		/* the error, "sda: read_expire: ..." */
};

/* Bounds, in milliseconds: lock wait, EBUSY retries of a switch. */
extern unsigned int sc_lock_timeout_ms;

int sc_apply(const char *dev, const struct sc_req *req, size_t n, unsigned int flags,
	     struct sc_report *rep);
void sc_report_free(struct sc_report *rep);

#endif
