/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The I/O seam: every read and write of /sys, /dev, /proc, /run, /etc and
 * /usr/lib, every udev property lookup and every module load goes through
 * here.  Paths passed in are absolute ("/sys/block/sda/queue/scheduler")
 * and get the root from SCHEDCTL_ROOT (default "/") prefixed.
 *
 * With SCHEDCTL_ROOT set to anything but "/", the seam runs in fake mode
 * (see cli/README.md for the fake tree's layout): udev
 * properties come from $ROOT/run/udev/data-fake/<name>, module loads and
 * scheduler switches are emulated, and write failures can be injected.
 */
#ifndef SCHEDCTL_SYSFS_H
#define SCHEDCTL_SYSFS_H

#include <stdbool.h>
#include <stddef.h>

struct sc_kv {
	char *key;
	char *value;
};

/* Set the root; NULL takes SCHEDCTL_ROOT from the environment. */
int sc_io_init(const char *root);
void sc_io_fini(void);
bool sc_io_fake(void);
const char *sc_io_root(void);
/* --udev: take the event device's properties from the environment. */
void sc_io_udev_env(bool on);

/* Root-prefixed path; caller frees. */
char *sc_path(const char *abs);

/* Whole file, trailing newline removed.  0 or -errno. */
int sc_read(const char *abs, char **out);
/* One write(2) of val; 0 or -errno.  Fake mode: injection, emulation. */
int sc_write(const char *abs, const char *val);
/* A configuration file (rooted: abs is under the root, else a user's
 * path): 0 and its bytes (NUL-terminated, *len without it; /dev/null is
 * empty), or -errno: -EINVAL not a regular file, -EISDIR, -EFBIG larger
 * than max bytes. */
int sc_read_conf(const char *abs, bool rooted, size_t max, char **out, size_t *len);
bool sc_exists(const char *abs);
bool sc_is_dir(const char *abs);
/* Sorted entry names without "." and ".."; 0 or -errno. */
int sc_list_dir(const char *abs, char ***names, size_t *n);
/* Canonical absolute path inside the root (root stripped); 0 or -errno. */
int sc_realpath(const char *abs, char **out);

/*
 * The whole disk of block device <sys>: disk = sys and 0 for a disk, the
 * parent disk and 1 for a partition, -ENODEV for no such block device.
 * libudev (the parent of devtype "disk"); in fake mode, the tree's
 * /sys/class/block links and "partition" files.
 */
int sc_block_parent(const char *sys, char *disk, size_t len);

/* udev properties of block device <name> (libudev, or the fake file). */
int sc_udev_props(const char *name, struct sc_kv **props, size_t *n);
void sc_kv_free(struct sc_kv *kv, size_t n);

/* Is module <alias> known (modules.alias / fake tree)?  Load it. */
bool sc_module_exists(const char *alias);
int sc_module_load(const char *alias);

/* Per-device writer lock: /run/schedctl/<dev>.lock, waited for at most
 * timeout_ms.  Returns fd or -errno (-EWOULDBLOCK on timeout). */
int sc_lock(const char *dev, int timeout_ms);
void sc_unlock(int fd);

/* Retry delays are scaled by this many microseconds per millisecond unit
 * (1000 normally; tests set SCHEDCTL_FAST=1 to make it 10). */
void sc_sleep_ms(unsigned int ms);

void sc_strv_free(char **v, size_t n);
/* Append a printf-formatted string to *v (*n entries); -ENOMEM on failure,
 * leaving *v as it was. */
int sc_strv_pushf(char ***v, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
