/* SPDX-License-Identifier: GPL-2.0 */
/* A fake device tree under a temporary SCHEDCTL_ROOT. */
#ifndef SCHEDCTL_TEST_FAKE_H
#define SCHEDCTL_TEST_FAKE_H

#include <stdbool.h>
#include <stddef.h>

struct fake_disk {
	const char *name;
	const char *sched;	/* queue/scheduler line; NULL: no file */
	int rotational;
	const char *zoned;	/* NULL: "none" */
	int hwq;
	int major;
	const char *driver;	/* device/driver target name, or NULL */
	const char *subsystem;	/* device/subsystem target name, or NULL */
	const char *props;	/* udev properties, "K=V\nK=V" */
};

/* mkdtemp, sc_io_init on it, /proc/devices.  Returns the root. */
const char *fake_root(void);
void fake_cleanup(void);
/* Write a file below the root (parents created). */
void fake_put(const char *rel, const char *content);
/* Its content, newline stripped; static buffer; "" if missing. */
const char *fake_get(const char *rel);
bool fake_exists(const char *rel);
void fake_symlink(const char *target, const char *rel);
void fake_disk(const struct fake_disk *d);
/* mq-deadline and xdeadline templates under fake/iosched */
void fake_schedulers(void);
/*
 * cmd(argc, argv) with its stdout in out[] and its stderr in err[] (each
 * NUL-terminated, cut at its size), through files below the root.
 * Returns cmd's exit status.
 */
int fake_run(int (*cmd)(int, char **), int argc, char **argv,
	     char *out, size_t outlen, char *err, size_t errlen);

#endif
