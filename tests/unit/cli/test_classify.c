// SPDX-License-Identifier: GPL-2.0
/* The classifier over a table of property sets, and device reading,
 * resolving and classifying from a fake tree. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "device.h"
#include "fake.h"
#include "tests.h"

struct row {
	const char *what;
	bool has_sched;
	int rot;
	const char *zoned;
	int hwq;
	int removable;
	const char *driver, *subsystem, *major;
	const char *dm_uuid;
	bool md, holder_mpath;
	const char *props;	/* "K=V K=V" */
	const char *cls;
	const char *why;	/* substring of the reason */
};

static const struct row rows[] = {
	{ "NVMe SSD, 8 queues", true, 0, "none", 8, 0, NULL, "nvme", "blkext", NULL, false, false,
	  "ID_BUS=nvme", "nvme", "8 hardware queues" },
	{ "NVMe SSD, 1 queue", true, 0, "none", 1, 0, NULL, "nvme", "blkext", NULL, false, false,
	  "", "nvme-sq", "1 hardware queue" },
	{ "NVMe multipath ns", true, 0, "none", 4, 0, NULL, "nvme-subsystem", "blkext", NULL, false, false,
	  "", "nvme", "transport nvme" },
	{ "NVMe HDD", true, 1, "none", 2, 0, NULL, "nvme", "blkext", NULL, false, false,
	  "ID_BUS=nvme", "hdd", "NVMe HDD" },
	{ "SATA SSD", true, 0, "none", 1, 0, "sd", "scsi", "sd", NULL, false, false,
	  "ID_BUS=ata ID_MODEL=Samsung_SSD_870", "ssd", "transport ata" },
	{ "SATA HDD", true, 1, "none", 1, 0, "sd", "scsi", "sd", NULL, false, false,
	  "ID_BUS=ata", "hdd", "queue/rotational=1" },
	{ "host-aware SMR", true, 1, "host-aware", 1, 0, "sd", "scsi", "sd", NULL, false, false,
	  "ID_BUS=ata", "smr", "queue/zoned=host-aware" },
	{ "host-managed SMR", true, 1, "host-managed", 1, 0, "sd", "scsi", "sd", NULL, false, false,
	  "ID_BUS=scsi", "smr", "queue/zoned=host-managed" },
	{ "ZNS", true, 0, "host-managed", 4, 0, NULL, "nvme", "blkext", NULL, false, false,
	  "ID_BUS=nvme", "zns", "queue/zoned=host-managed" },
	{ "scsi_debug rotational", true, 1, "none", 1, 0, "sd", "scsi", "sd", NULL, false, false,
	  "ID_BUS=scsi ID_MODEL=scsi_debug", "hdd", "rotational=1" },
	{ "scsi_debug host-managed", true, 1, "host-managed", 1, 0, "sd", "scsi", "sd", NULL, false, false,
	  "ID_BUS=scsi ID_MODEL=scsi_debug", "smr", "host-managed" },
	{ "scsi_debug non-rotational", true, 0, "none", 1, 0, "sd", "scsi", "sd", NULL, false, false,
	  "ID_BUS=scsi ID_MODEL=scsi_debug", "ssd", "rotational=0" },
	{ "USB stick", true, 1, "none", 1, 0, "sd", "scsi", "sd", NULL, false, false,
	  "ID_BUS=usb", "usb", "ID_BUS=usb" },
	{ "USB by ID_PATH", true, 0, "none", 1, 0, "sd", "scsi", "sd", NULL, false, false,
	  "ID_PATH=pci-0000:00:14.0-usb-0:1:1.0-scsi-0:0:0:0", "usb", "usb ID_PATH" },
	{ "removable card", true, 0, "none", 1, 1, "mmcblk", "mmc", "mmc", NULL, false, false,
	  "", "usb", "removable=1" },
	{ "virtio", true, 1, "none", 4, 0, "virtio_blk", "virtio", "virtblk", NULL, false, false,
	  "", "virtual", "driver virtio_blk" },
	{ "xen", true, 0, "none", 1, 0, "vbd", "xen", "xvd", NULL, false, false,
	  "", "virtual", "driver vbd" },
	{ "loop", true, 0, "none", 1, 0, NULL, NULL, "loop", NULL, false, false,
	  "", "virtual", "major driver loop" },
	{ "null_blk, rotational and zoned", true, 1, "host-managed", 2, 0, NULL, NULL, "nullb", NULL, false, false,
	  "", "virtual", "major driver nullb" },
	{ "zram (no scheduler)", false, 0, "none", 0, 0, NULL, NULL, "zram", NULL, false, false,
	  "", "virtual", "zram" },
	{ "nbd", true, 0, "none", 1, 0, NULL, NULL, "nbd", NULL, false, false,
	  "", "virtual", "nbd" },
	{ "rbd", true, 0, "none", 1, 0, NULL, NULL, "rbd3", NULL, false, false,
	  "", "virtual", "rbd3" },
	{ "multipath path by property", true, 1, "none", 1, 0, "sd", "scsi", "sd", NULL, false, false,
	  "ID_BUS=scsi DM_MULTIPATH_DEVICE_PATH=1", "multipath", "DM_MULTIPATH_DEVICE_PATH=1" },
	{ "multipath path by holder", true, 0, "none", 1, 0, "sd", "scsi", "sd", NULL, false, true,
	  "ID_BUS=scsi", "multipath", "held by a dm-multipath map" },
	{ "not a multipath path", true, 0, "none", 1, 0, "sd", "scsi", "sd", NULL, false, false,
	  "DM_MULTIPATH_DEVICE_PATH=0", "ssd", "" },
	{ "bio-based dm (LVM)", false, 0, "none", 0, 0, NULL, NULL, "device-mapper",
	  "LVM-abcdef", false, false, "DM_NAME=vg-root", "stacked", "bio-based" },
	{ "request-based dm-multipath map", true, 0, "none", 1, 0, NULL, NULL, "device-mapper",
	  "mpath-3600", false, false, "", "stacked", "request-based" },
	{ "md RAID", false, 0, "none", 0, 0, NULL, NULL, "md", NULL, true, false,
	  "MD_LEVEL=raid1", "stacked", "md RAID" },
	{ "dm by major only", false, 0, "none", 0, 0, NULL, NULL, "device-mapper", NULL, false, false,
	  "", "stacked", "major driver device-mapper" },
	{ "override", true, 1, "none", 1, 0, NULL, NULL, "nullb", NULL, false, false,
	  "SCHEDCTL_CLASS=hdd", "hdd", "SCHEDCTL_CLASS=hdd" },
	{ "invalid override ignored", true, 0, "none", 1, 0, NULL, NULL, "nullb", NULL, false, false,
	  "SCHEDCTL_CLASS=floppy", "virtual", "nullb" },
};

static void build(const struct row *r, struct sc_device *d)
{
	char *dup = strdup(r->props), *tok, *save = NULL;

	memset(d, 0, sizeof(*d));
	strcpy(d->name, "x");
	d->has_sched = r->has_sched;
	d->rotational = r->rot;
	snprintf(d->zoned, sizeof(d->zoned), "%s", r->zoned);
	d->hwq = r->hwq;
	d->removable = r->removable;
	d->driver = r->driver ? strdup(r->driver) : NULL;
	d->subsystem = r->subsystem ? strdup(r->subsystem) : NULL;
	d->major_name = r->major ? strdup(r->major) : NULL;
	d->dm_uuid = r->dm_uuid ? strdup(r->dm_uuid) : NULL;
	d->md = r->md;
	d->holder_mpath = r->holder_mpath;
	for (tok = strtok_r(dup, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		d->props = realloc(d->props, (d->nprops + 1) * sizeof(*d->props));
		d->props[d->nprops].key = strndup(tok, (size_t)(eq - tok));
		d->props[d->nprops].value = strdup(eq + 1);
		d->nprops++;
	}
	free(dup);
}

START_TEST(table)
{
	const struct row *r = &rows[_i];
	struct sc_device d;
	struct sc_class c;

	build(r, &d);
	sc_classify(&d, &c);
	ck_assert_msg(!strcmp(c.name, r->cls), "%s: class %s, expected %s (%s)", r->what, c.name,
		      r->cls, c.why);
	ck_assert_msg(strstr(c.why, r->why), "%s: reason \"%s\" lacks \"%s\"", r->what, c.why, r->why);
	sc_device_free(&d);
}
END_TEST

/* ---- from a fake tree ---- */

static void setup(void)
{
	fake_root();
}

START_TEST(load_and_classify)
{
	struct fake_disk fd = {
		.name = "nvme0n1", .sched = "[none] mq-deadline", .rotational = 0, .hwq = 4,
		.major = 259, .subsystem = "nvme",
		.props = "ID_MODEL=Fast_NVMe\nID_SERIAL_SHORT=S123\nID_WWN=eui.0025\n"
			 "DEVLINKS=/dev/disk/by-id/nvme-Fast_NVMe_S123 /dev/disk/by-path/pci-0000:01:00.0-nvme-1",
	};
	struct sc_device d;
	struct sc_class c;

	fake_disk(&fd);
	ck_assert_int_eq(sc_device_load("nvme0n1", &d), 0);
	ck_assert(d.has_sched);
	ck_assert_str_eq(d.sched, "none");
	ck_assert_uint_eq(d.navail, 2);
	ck_assert_str_eq(d.avail[1], "mq-deadline");
	ck_assert_int_eq(d.hwq, 4);
	ck_assert_int_eq(d.rotational, 0);
	ck_assert_str_eq(d.subsystem, "nvme");
	ck_assert_str_eq(d.major_name, "blkext");
	ck_assert_str_eq(d.model, "Fast_NVMe");
	ck_assert_str_eq(d.serial, "S123");
	ck_assert_str_eq(d.wwn, "eui.0025");
	ck_assert_uint_eq(d.nids, 1);
	ck_assert_str_eq(d.ids[0], "nvme-Fast_NVMe_S123");
	sc_classify(&d, &c);
	ck_assert_str_eq(c.name, "nvme");
	sc_device_free(&d);
}
END_TEST

START_TEST(load_stacked)
{
	struct fake_disk dm = { .name = "dm-0", .sched = "none", .major = 253 };
	struct fake_disk sdb = { .name = "sdb", .sched = "[mq-deadline] none", .rotational = 1, .hwq = 1 };
	struct sc_device d;
	struct sc_class c;

	fake_disk(&dm);
	fake_disk(&sdb);
	fake_put("/sys/block/sdb/sdb1/partition", "1");
	fake_symlink("../../block/sdb/sdb1", "/sys/class/block/sdb1");
	fake_put("/sys/block/dm-0/dm/uuid", "LVM-xyz");
	fake_symlink("../../sdb/sdb1", "/sys/block/dm-0/slaves/sdb1");
	ck_assert_int_eq(sc_device_load("dm-0", &d), 0);
	ck_assert(!d.has_sched);	/* "none" without brackets */
	ck_assert_uint_eq(d.nslaves, 1);
	ck_assert_str_eq(d.slaves[0], "sdb");	/* the partition's disk */
	sc_classify(&d, &c);
	ck_assert_str_eq(c.name, "stacked");
	ck_assert_ptr_nonnull(strstr(c.why, "bio-based"));
	sc_device_free(&d);
}
END_TEST

START_TEST(resolve)
{
	struct fake_disk sda = { .name = "sda", .sched = "[mq-deadline] none", .rotational = 1, .hwq = 1 };
	char name[SC_NAME_MAX], part[SC_NAME_MAX];

	fake_disk(&sda);
	fake_put("/sys/block/sda/sda2/partition", "2");
	fake_symlink("../../block/sda/sda2", "/sys/class/block/sda2");
	fake_put("/dev/sda", "");
	fake_put("/dev/sda2", "");
	fake_symlink("../../sda2", "/dev/disk/by-id/ata-DISK_1-part2");
	fake_symlink("../../sda", "/dev/disk/by-id/ata-DISK_1");

	ck_assert_int_eq(sc_device_resolve("sda", name, part), 0);
	ck_assert_str_eq(name, "sda");
	ck_assert_str_eq(part, "");
	ck_assert_int_eq(sc_device_resolve("/dev/sda", name, part), 0);
	ck_assert_str_eq(name, "sda");
	ck_assert_int_eq(sc_device_resolve("sda2", name, part), 0);
	ck_assert_str_eq(name, "sda");
	ck_assert_str_eq(part, "sda2");
	ck_assert_int_eq(sc_device_resolve("/dev/disk/by-id/ata-DISK_1", name, part), 0);
	ck_assert_str_eq(name, "sda");
	ck_assert_int_eq(sc_device_resolve("/dev/disk/by-id/ata-DISK_1-part2", name, part), 0);
	ck_assert_str_eq(name, "sda");
	ck_assert_str_eq(part, "sda2");
	ck_assert_int_eq(sc_device_resolve("sdz", name, part), -ENODEV);
	ck_assert_int_eq(sc_device_resolve("/dev/sdz", name, part), -ENODEV);
	ck_assert_int_eq(sc_device_resolve("../sda", name, part), -ENODEV);
	ck_assert_int_eq(sc_device_resolve("", name, part), -ENODEV);
}
END_TEST

START_TEST(udev_environment)
{
	struct fake_disk sdb = { .name = "sdb", .sched = "[mq-deadline] none", .rotational = 0,
				 .hwq = 1, .props = "ID_BUS=ata" };
	struct sc_device d;
	struct sc_class c;

	fake_disk(&sdb);
	/* apply --udev: the event's environment wins over the database */
	setenv("DEVPATH", "/devices/pci0000:00/usb1/1-1/host6/target6:0:0/6:0:0:0/block/sdb", 1);
	setenv("ID_BUS", "usb", 1);
	sc_io_udev_env(true);
	ck_assert_int_eq(sc_device_load("sdb", &d), 0);
	ck_assert_str_eq(sc_prop(&d, "ID_BUS"), "usb");
	sc_classify(&d, &c);
	ck_assert_str_eq(c.name, "usb");
	sc_device_free(&d);
	/* another device's event: its own properties */
	setenv("DEVPATH", "/devices/virtual/block/sdc", 1);
	ck_assert_int_eq(sc_device_load("sdb", &d), 0);
	ck_assert_str_eq(sc_prop(&d, "ID_BUS"), "ata");
	sc_device_free(&d);
	sc_io_udev_env(false);
	unsetenv("DEVPATH");
	unsetenv("ID_BUS");
}
END_TEST

START_TEST(sched_list)
{
	char *cur, **av;
	size_t n;

	ck_assert_int_eq(sc_parse_sched_list("none [mq-deadline] xdeadline", &cur, &av, &n), 0);
	ck_assert_str_eq(cur, "mq-deadline");
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(av[2], "xdeadline");
	free(cur);
	sc_strv_free(av, n);
	ck_assert_int_eq(sc_parse_sched_list("none", &cur, &av, &n), 0);
	ck_assert_ptr_null(cur);	/* bio-based */
	sc_strv_free(av, n);
	ck_assert_int_eq(sc_parse_sched_list("", &cur, &av, &n), 0);
	ck_assert_ptr_null(cur);
	ck_assert_uint_eq(n, 0);
	sc_strv_free(av, n);
}
END_TEST

Suite *suite_classify(void)
{
	Suite *s = suite_create("classify");
	TCase *tc = tcase_create("table");
	TCase *tf = tcase_create("tree");

	tcase_add_loop_test(tc, table, 0, (int)(sizeof(rows) / sizeof(rows[0])));
	tcase_add_test(tc, sched_list);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tf, setup, fake_cleanup);
	tcase_add_test(tf, load_and_classify);
	tcase_add_test(tf, load_stacked);
	tcase_add_test(tf, resolve);
	tcase_add_test(tf, udev_environment);
	suite_add_tcase(s, tf);
	return s;
}
