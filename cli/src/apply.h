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

/* What became of a change once sc_apply() returned. */
enum sc_change_state {
	SC_CH_DONE,		/* made and kept (or, dry run, would be made) */
	SC_CH_UNDONE,		/* made, then rolled back: not in effect */
	SC_CH_KEPT,		/* made, and rolling it back failed: still in effect */
};

struct sc_change {
	char *key;
	char *old;		/* NULL: the scheduler's default after a switch */
	char *new;
	enum sc_change_state state;
};

/* A setting left out, and why ("not a knob of mq-deadline"). */
struct sc_skip {
	char *key;
	char *why;
};

struct sc_report {
	struct sc_change *c;
	size_t n;
	char **notes;		/* informational: skipped settings, fallbacks */
	size_t nnotes;
	struct sc_skip *skips;	/* the skipped settings among the notes */
	size_t nskips;
	char err[1024];		/* the error, "sda: read_expire: ..." */
};

/* Bounds, in milliseconds: lock wait, EBUSY retries of a switch. */
extern unsigned int sc_lock_timeout_ms;

/*
 * rep->c lists every change made, each with its state: after a failed
 * write the ones rolled back are SC_CH_UNDONE, those whose rollback failed
 * SC_CH_KEPT.  A loaded module ("module") stays loaded: always SC_CH_DONE.
 */
int sc_apply(const char *dev, const struct sc_req *req, size_t n, unsigned int flags,
	     struct sc_report *rep);
void sc_report_free(struct sc_report *rep);

#endif
