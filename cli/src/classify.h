/* SPDX-License-Identifier: GPL-2.0 */
/* Device classes, decided from sysfs attributes and udev properties. */
#ifndef SCHEDCTL_CLASSIFY_H
#define SCHEDCTL_CLASSIFY_H

#include "device.h"

/* Every class, in the order classify tries them (also for the man test). */
extern const char *const sc_classes[];

struct sc_class {
	const char *name;	/* one of sc_classes */
	char why[512];		/* the properties that decided it */
	char transport[16];	/* nvme, scsi, usb, virtio, ... or "" */
};

void sc_classify(const struct sc_device *d, struct sc_class *c);
bool sc_class_valid(const char *name);

#endif
