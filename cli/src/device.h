/* SPDX-License-Identifier: GPL-2.0 */
/* Resolving DEV arguments to whole disks and reading what we know of them. */
#ifndef SCHEDCTL_DEVICE_H
#define SCHEDCTL_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "sysfs.h"

#define SC_NAME_MAX 64

struct sc_device {
	char name[SC_NAME_MAX];	/* kernel name, e.g. "sda" or "cciss!c0d0" */
	bool has_sched;		/* queue/scheduler has a [bracketed] choice */
	char *sched;		/* current scheduler, NULL without one */
	char **avail;		/* available schedulers */
	size_t navail;
	int rotational;		/* -1: unknown */
	char zoned[16];		/* none, host-aware, host-managed */
	int hwq;		/* entries of mq/ */
	int removable;
	char *model, *serial, *wwn;
	char **ids;		/* /dev/disk/by-id link names */
	size_t nids;
	char *driver;		/* basename of device/driver */
	char *subsystem;	/* basename of device/subsystem */
	char *major_name;	/* driver of the major in /proc/devices */
	char *dm_uuid;		/* dm/uuid of a device-mapper device */
	bool md;		/* has md/ */
	char **slaves;
	size_t nslaves;
	bool holder_mpath;	/* a holder is a dm-multipath map */
	struct sc_kv *props;	/* udev properties */
	size_t nprops;
};

/*
 * Resolve "sda", "/dev/sda", a /dev/disk/by-id link or a partition to its
 * whole disk's kernel name.  *part gets the partition's name (or "").
 * 0 or -errno (-ENODEV: no such block device).
 */
int sc_device_resolve(const char *arg, char name[SC_NAME_MAX], char part[SC_NAME_MAX]);

int sc_device_load(const char *name, struct sc_device *d);
void sc_device_free(struct sc_device *d);
const char *sc_prop(const struct sc_device *d, const char *key);
/* /sys/block/DEV/ATTR without its trailing newline; NULL if unreadable.  Caller frees. */
char *sc_block_attr(const char *dev, const char *attr);

/* All whole disks (entries of /sys/block), sorted. */
int sc_device_list(char ***names, size_t *n);

/* Parse a queue/scheduler line.  *cur is NULL when nothing is bracketed. */
int sc_parse_sched_list(const char *line, char **cur, char ***avail, size_t *n);

/* Helpers for building sysfs paths. */
char *sc_qpath(const char *dev, const char *attr);	/* /sys/block/D/queue/A */
bool sc_device_gone(const char *dev);

/*
 * The disks with an I/O scheduler under a stacked (bio-based) device:
 * slaves/ followed down through further stacked devices, partitions
 * resolved to their disks, each disk once, in the order found.
 */
int sc_device_members(const char *name, char ***out, size_t *n);

/*
 * Other writers of queue/scheduler: udev rules other than
 * 60-schedctl.rules, an active tuned profile, TLP, saptune.  One message
 * per finding, "... also sets queue/scheduler (FILE:LINE)".
 */
int sc_conflicts(char ***out, size_t *n);

#endif
