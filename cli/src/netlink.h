/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The schedctl generic netlink family (kmod/schedctl_nl.c; wire format in
 * kmod/uapi/schedctl_nl.h, described in docs/netlink.md): device
 * snapshots with their counters, a device's control groups, and the
 * events group.
 *
 * Everything libnl is in netlink.c.  The data types here and the message
 * decoders (sc_nl_parse_*) take plain netlink messages, so unit tests can
 * feed them messages built by hand; the rate computation and the
 * formatting that commands.c uses are pure functions in stats.c.
 */
#ifndef SCHEDCTL_NETLINK_H
#define SCHEDCTL_NETLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nlmsghdr;
struct sc_group;

#define SC_NL_NAME_MAX 64

struct sc_nl_entry {
	char *name;
	uint64_t value;
};

struct sc_nl_list {
	struct sc_nl_entry *v;
	size_t n;
};

/* One device with a scheduler registered with schedctl_nl. */
struct sc_nl_dev {
	char name[SC_NL_NAME_MAX];
	char sched[SC_NL_NAME_MAX];
	unsigned int major, minor;
	struct sc_nl_list knobs, counters, states;
};

/* Every device (or one), read at one time. */
struct sc_nl_snap {
	struct sc_nl_dev *dev;	/* sorted by name */
	size_t n;
	double t;		/* CLOCK_MONOTONIC seconds when read */
};

enum sc_nl_event_kind {
	SC_EV_ATTACH,
	SC_EV_DETACH,
	SC_EV_KNOB,
	SC_EV_STATE,
	SC_EV_UNKNOWN,		/* a command newer than this schedctl */
};

struct sc_nl_event {
	enum sc_nl_event_kind kind;
	unsigned int cmd;	/* the generic netlink command */
	char dev[SC_NL_NAME_MAX];
	char sched[SC_NL_NAME_MAX];
	unsigned int major, minor;
	bool has_devt;
	char name[SC_NL_NAME_MAX];	/* knob or state (SC_EV_KNOB, _STATE) */
	uint64_t old, new;
};

/* Errors of sc_nl_open() besides -errno from the socket. */
#define SC_NL_ENOFAMILY	1000	/* no "schedctl" family: module not loaded */
#define SC_NL_ENETNS	1001	/* module loaded, family not in this netns */
#define SC_NL_EVERSION	1002	/* incompatible protocol version */
/* Of a request: the module does not know its command (older than us). */
#define SC_NL_ENOCMD	1003

struct sc_nl;

/*
 * Connect and find the family (the kernel autoloads schedctl_nl by its
 * alias where it can).  events: also join the events group and the
 * controller's notifications (to notice the module going away).  0 or a
 * negative error; err gets a message for the user.
 */
int sc_nl_open(struct sc_nl **out, bool events, char *err, size_t errlen);
void sc_nl_close(struct sc_nl *nl);
unsigned int sc_nl_kernel_version(const struct sc_nl *nl);

/*
 * Is a kernel speaking protocol version kver usable?  Requests carry our
 * version, which a newer kernel may still serve (docs/netlink.md, rule 3),
 * so for requests the kernel's version must be at least ours; events are
 * sent in the kernel's version, so for them it must be ours.  0, or
 * -SC_NL_EVERSION with a message in err.
 */
int sc_nl_check_version(unsigned int kver, bool events, char *err, size_t errlen);

/*
 * Read every device (dev NULL) or one (-ENODEV: not registered) into s,
 * retrying a dump that devices coming and going interrupted.  0 or -errno
 * with a message (the kernel's extended ACK, if any) in err.
 */
int sc_nl_get(struct sc_nl *nl, const char *dev, struct sc_nl_snap *s, char *err, size_t errlen);
void sc_nl_snap_free(struct sc_nl_snap *s);
const struct sc_nl_dev *sc_nl_snap_find(const struct sc_nl_snap *s, const char *name);

/*
 * The control groups of disk dev's scheduler (a GET_GROUPS dump; dev is
 * required), the root cgroup's group first, into *g and *n (free with
 * sc_groups_free(*g, *n); paths NULL).  A dump that groups coming or going
 * interrupted (NLM_F_DUMP_INTR) is read again, up to a few times.  0 or
 * -errno with a message (the kernel's extended ACK, if any) in err:
 * -ENODEV (no schedctl scheduler on dev), -EOPNOTSUPP (with the kernel's
 * message: a scheduler without groups), -SC_NL_ENOCMD (a module older than
 * GET_GROUPS: genetlink's EOPNOTSUPP, which has no message), -EAGAIN
 * (interrupted every time), -EPROTO (a malformed group message).
 */
int sc_nl_get_groups(struct sc_nl *nl, const char *dev, struct sc_group **g, size_t *n,
		     char *err, size_t errlen);

/* The socket to poll for events. */
int sc_nl_fd(const struct sc_nl *nl);
/*
 * Read what is waiting (call when the fd is readable) and call cb for
 * each event, in order; cb returns false to stop early.  0, 1 when the
 * family went away (module unloaded), or a negative error (-ENOBUFS:
 * events were lost; reading can go on).
 */
typedef bool (*sc_nl_event_cb)(const struct sc_nl_event *ev, void *arg);
int sc_nl_read_events(struct sc_nl *nl, sc_nl_event_cb cb, void *arg);

/* ---- decoding, without a socket ------------------------------------- */

/* A SCHEDCTL_CMD_GET_DEV message into d (freed with sc_nl_dev_free). */
int sc_nl_parse_dev(const struct nlmsghdr *nlh, struct sc_nl_dev *d);
void sc_nl_dev_free(struct sc_nl_dev *d);
/*
 * A SCHEDCTL_CMD_GET_GROUPS message into g (path NULL): 0, or -EINVAL for
 * another command, a missing or too short GROUP_CGID, _WEIGHT, _BUSY,
 * _ACTIVE or _SERVED, or a BUSY other than 0 or 1.  The device attributes
 * are not needed; unknown attributes are ignored.
 */
int sc_nl_parse_group(const struct nlmsghdr *nlh, struct sc_group *g);
/* A notification into ev. */
int sc_nl_parse_event(const struct nlmsghdr *nlh, struct sc_nl_event *ev);

#endif
