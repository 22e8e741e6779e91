// SPDX-License-Identifier: GPL-2.0
/*
 * Classification never looks at the device name: "nullb0" may be renamed,
 * "sda" may be USB, virtio-scsi or an SMR drive.  It uses, in this order:
 *
 *   stacked    device-mapper or md (dm/uuid, md/, DM_UUID/MD_LEVEL, or the
 *              major's driver device-mapper/md/mdp); bio-based ones have no
 *              I/O scheduler, the scheduling happens on slaves/
 *   multipath  a path of a dm-multipath map (DM_MULTIPATH_DEVICE_PATH=1 or
 *              a holder whose dm/uuid starts with "mpath-")
 *   virtual    virtio, xen, loop, zram, nbd, rbd, null_blk, brd, ubd: from
 *              device/driver, device/subsystem, or the major's driver in
 *              /proc/devices
 *   usb        ID_BUS=usb, a usb ID_PATH, or removable=1
 *   smr        queue/zoned host-aware|host-managed and rotational
 *   zns        queue/zoned host-aware|host-managed and not rotational
 *   hdd        queue/rotational=1 (NVMe HDDs included)
 *   nvme       NVMe transport, more than one hardware queue
 *   nvme-sq    NVMe transport, one hardware queue
 *   ssd        anything else that is not rotational
 *
 * The udev property SCHEDCTL_CLASS (set by an admin's udev rule, or in a
 * test) overrides all of it.  A scsi_debug disk has the real sd driver and
 * classifies by its attributes (hdd, ssd, smr), which the tests rely on.
 */
#define _GNU_SOURCE
#include "classify.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *const sc_classes[] = {
	"stacked", "multipath", "virtual", "usb", "smr", "zns", "hdd",
	"nvme", "nvme-sq", "ssd", NULL,
};

bool sc_class_valid(const char *name)
{
	for (const char *const *c = sc_classes; *c; c++)
		if (!strcmp(*c, name))
			return true;
	return false;
}

static void why(struct sc_class *c, const char *fmt, ...)
{
	size_t l = strlen(c->why);
	va_list ap;

	if (l && l < sizeof(c->why) - 2) {
		strcpy(c->why + l, ", ");
		l += 2;
	}
	va_start(ap, fmt);
	vsnprintf(c->why + l, sizeof(c->why) - l, fmt, ap);
	va_end(ap);
}

static bool in(const char *s, const char *const *list, bool prefix)
{
	if (!s)
		return false;
	for (; *list; list++)
		if (prefix ? !strncmp(s, *list, strlen(*list)) : !strcmp(s, *list))
			return true;
	return false;
}

static const char *const virt_drivers[] = {
	"virtio_blk", "vbd", "xen_blkfront", "null_blk", "nbd", "rbd", NULL,
};
static const char *const virt_subsystems[] = { "virtio", "xen", "xen-backend", NULL };
static const char *const virt_majors[] = {	/* prefixes: rbd registers "rbd<N>" */
	"loop", "zram", "nbd", "rbd", "nullb", "virtblk", "xvd", "ramdisk", "ubd", NULL,
};
static const char *const stacked_majors[] = { "device-mapper", "md", "mdp", NULL };

static void transport(const struct sc_device *d, struct sc_class *c)
{
	const char *bus = sc_prop(d, "ID_BUS");
	const char *path = sc_prop(d, "ID_PATH");

	if (bus && !strcmp(bus, "nvme"))
		snprintf(c->transport, sizeof(c->transport), "nvme");
	else if (d->subsystem && (!strcmp(d->subsystem, "nvme") ||
				  !strcmp(d->subsystem, "nvme-subsystem")))
		snprintf(c->transport, sizeof(c->transport), "nvme");
	else if ((bus && !strcmp(bus, "usb")) || (path && strstr(path, "usb-")))
		snprintf(c->transport, sizeof(c->transport), "usb");
	else if (bus)
		snprintf(c->transport, sizeof(c->transport), "%s", bus);
	else if (d->subsystem)
		snprintf(c->transport, sizeof(c->transport), "%s", d->subsystem);
}

void sc_classify(const struct sc_device *d, struct sc_class *c)
{
	const char *ov = sc_prop(d, "SCHEDCTL_CLASS");
	const char *mp = sc_prop(d, "DM_MULTIPATH_DEVICE_PATH");
	const char *bus = sc_prop(d, "ID_BUS");
	bool zoned = strcmp(d->zoned, "none") && d->zoned[0];

	memset(c, 0, sizeof(*c));
	transport(d, c);

	if (ov && sc_class_valid(ov)) {
		c->name = ov;
		why(c, "udev property SCHEDCTL_CLASS=%s", ov);
		return;
	}
	if (d->dm_uuid || d->md || sc_prop(d, "DM_UUID") || sc_prop(d, "MD_LEVEL") ||
	    in(d->major_name, stacked_majors, false)) {
		c->name = "stacked";
		if (d->dm_uuid || sc_prop(d, "DM_UUID"))
			why(c, "device-mapper (dm uuid \"%s\")",
			    d->dm_uuid ? d->dm_uuid : sc_prop(d, "DM_UUID"));
		else if (d->md || sc_prop(d, "MD_LEVEL"))
			why(c, "md RAID");
		else
			why(c, "major driver %s", d->major_name);
		why(c, d->has_sched ? "request-based (has a scheduler)"
				    : "bio-based (no I/O scheduler)");
		return;
	}
	if ((mp && !strcmp(mp, "1")) || d->holder_mpath) {
		c->name = "multipath";
		why(c, mp && !strcmp(mp, "1") ? "DM_MULTIPATH_DEVICE_PATH=1"
					      : "held by a dm-multipath map");
		return;
	}
	if (in(d->driver, virt_drivers, false) || in(d->subsystem, virt_subsystems, false) ||
	    in(d->major_name, virt_majors, true)) {
		c->name = "virtual";
		if (in(d->driver, virt_drivers, false))
			why(c, "driver %s", d->driver);
		else if (in(d->subsystem, virt_subsystems, false))
			why(c, "parent subsystem %s", d->subsystem);
		else
			why(c, "major driver %s", d->major_name);
		return;
	}
	if ((bus && !strcmp(bus, "usb")) || !strcmp(c->transport, "usb") || d->removable == 1) {
		c->name = "usb";
		if (!strcmp(c->transport, "usb"))
			why(c, bus && !strcmp(bus, "usb") ? "ID_BUS=usb" : "usb ID_PATH");
		else
			why(c, "removable=1");
		return;
	}
	if (zoned) {
		c->name = d->rotational == 1 ? "smr" : "zns";
		why(c, "queue/zoned=%s", d->zoned);
		why(c, "queue/rotational=%d", d->rotational);
		return;
	}
	if (d->rotational == 1) {
		c->name = "hdd";
		why(c, "queue/rotational=1");
		if (!strcmp(c->transport, "nvme"))
			why(c, "NVMe HDD");
		return;
	}
	why(c, "queue/rotational=%d", d->rotational);
	if (!strcmp(c->transport, "nvme")) {
		c->name = d->hwq > 1 ? "nvme" : "nvme-sq";
		why(c, "transport nvme");
		why(c, "%d hardware queue%s", d->hwq, d->hwq == 1 ? "" : "s");
		return;
	}
	c->name = "ssd";
	if (c->transport[0])
		why(c, "transport %s", c->transport);
}
