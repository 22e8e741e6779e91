/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xbfq's cgroup groups on a disk (schedctl groups): the debugfs file
 * sched/groups, the cgroup2 mount, cgroup ids to paths, and where a
 * group's weight comes from (io.xbfq.weight).  Every path goes through the
 * seam (sysfs.h), so the unit tests run it on a fake tree.
 */
#ifndef SCHEDCTL_GROUPS_H
#define SCHEDCTL_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

struct sc_group {
	unsigned long long cgid;	/* cgroup id: its directory's inode */
	unsigned int weight;		/* in effect on this disk */
	unsigned int busy;		/* 0 or 1 */
	unsigned int active;		/* queues with requests queued or in flight */
	unsigned long long served;	/* 512-byte sectors */
	char *path;			/* below the cgroup2 mount ("/a/b"); NULL: unknown */
};

/*
 * Parse the text of /sys/kernel/debug/block/DISK/sched/groups, lines of
 * "cgid ID weight W busy B active N served S" (keys in any order, unknown
 * "key value" pairs ignored, empty lines skipped).  0; -EINVAL with
 * *bad_line (1-based) for a line without one of the five keys, with a
 * value that is not a decimal number, or with a key twice; -ENOMEM.
 * *g is NULL when *n is 0.
 */
int sc_groups_parse(const char *text, struct sc_group **g, size_t *n, size_t *bad_line);
void sc_groups_free(struct sc_group *g, size_t n);

/*
 * The mount point (a path inside the root) of a file system of type
 * fstype: from /proc/self/mountinfo (one mounted at its file system's
 * root "/" first, else the first found), else /proc/mounts.  Octal
 * escapes (\040) are undone.  0, -ENOENT (none mounted, or neither file
 * readable) or -ENOMEM.
 */
int sc_find_mount(const char *fstype, char **mnt);

/*
 * Set g[i].path for every group whose cgid is the inode number of a
 * directory at or below mnt (a path inside the root), without following
 * symbolic links or crossing into other mounts; the walk stops once all
 * are found.  Paths are "/" for mnt itself, else "/a/b".  0 or -errno
 * (mnt cannot be walked).
 */
int sc_cgroup_resolve(const char *mnt, struct sc_group *g, size_t n);

enum sc_weight_source {
	SC_WSRC_UNKNOWN,	/* io.xbfq.weight could not be read */
	SC_WSRC_DEFAULT,
	SC_WSRC_OVERRIDE,
};

/* Does the text of io.xbfq.weight have a "MAJ:MIN W" line for maj:min? */
bool sc_weight_has_override(const char *text, unsigned int maj, unsigned int min);

/* Where the weight of the cgroup at path (below mnt) on disk maj:min
 * comes from, from mnt/path/io.xbfq.weight. */
enum sc_weight_source sc_weight_source(const char *mnt, const char *path, unsigned int maj,
				       unsigned int min);

#endif
