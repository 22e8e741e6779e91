/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Setting names, shared by "schedctl set" and the policy files:
 *
 *   scheduler          a scheduler, or a fallback list "a, b, none"
 *   KNOB               an iosched knob of a known scheduler (read_expire)
 *   iosched.NAME       any iosched knob, also of schedulers we do not know
 *   queue.ATTR         a queue attribute (queue.nr_requests)
 *   zoned_qd1_writes   the native queue/zoned_qd1_writes where the kernel
 *                      has it (7.1+), else the scheduler's knob
 */
#ifndef SCHEDCTL_KEYS_H
#define SCHEDCTL_KEYS_H

#include <stdbool.h>
#include <stddef.h>

enum sc_key_kind {
	SC_KEY_SCHED,
	SC_KEY_IOSCHED,
	SC_KEY_QUEUE,
	SC_KEY_ZONED_QD1,
};

struct sc_key {
	enum sc_key_kind kind;
	char attr[64];		/* knob or queue attribute name */
	long long min, max;	/* for known numeric settings */
	bool known;		/* found in our tables (range checked) */
};

struct sc_knob_def {
	const char *name;
	long long min, max;
	unsigned int scheds;	/* bit i: sc_known_scheds[i] has it */
};

extern const char *const sc_known_scheds[];	/* NULL-terminated */
extern const struct sc_knob_def sc_knobs[];	/* name NULL ends */
extern const struct sc_knob_def sc_queue_attrs[];

/* 0, or -EINVAL with a message ("unknown key ..."). */
int sc_key_parse(const char *key, struct sc_key *k, char *err, size_t len);
/* 0, or -EINVAL/-ERANGE with a message naming what was expected. */
int sc_value_check(const struct sc_key *k, const char *value, char *err, size_t len);
/* Does known scheduler s have knob?  -1: s is not a scheduler we know. */
int sc_sched_has_knob(const char *sched, const char *knob);
/* Split "a, b" into names; checks each name.  0 or -EINVAL. */
int sc_sched_list_parse(const char *value, char ***names, size_t *n, char *err, size_t len);
bool sc_is_integer(const char *s, long long *out);

#endif
