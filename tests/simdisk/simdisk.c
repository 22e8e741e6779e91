// SPDX-License-Identifier: GPL-2.0
/*
 * simdisk: a test-only blk-mq disk whose service times follow a hard disk
 * model, for exercising I/O schedulers (head position, batching, zoned
 * write ordering).  It keeps no data: reads return zeros, writes are
 * dropped.  Not for production use.
 *
 * The model (all times in nanoseconds of CLOCK_MONOTONIC):
 *
 * Geometry.  Zoned bit recording: the LBA range is cut into SD_NR_BANDS
 * equal bands; band i streams at
 *	rate_i = outer - (outer - inner) * (i + 1/2) / SD_NR_BANDS  [bytes/s]
 * so the media rate falls linearly with the LBA from the outer to the inner
 * diameter.  One revolution takes rev = 60 s / rpm and carries
 *	spt_i = rate_i * rev / 512
 * sectors (one track).  Tracks are numbered from the outside in; a band of
 * n sectors holds ceil(n / spt_i) of them.  One surface is modelled, so a
 * "track" is a cylinder and head switches are not modelled.
 *
 * Angle.  Let T(x) be the time to stream from LBA 0 to LBA x at the band
 * rates.  LBA x passes under the head at every time t with
 *	t mod rev == T(x) mod rev
 * which lays consecutive tracks out with the skew that lets a sequential
 * stream cross track boundaries without losing a revolution.
 *
 * Service time of a command for LBAs [x, x + n) started at time s (the
 * later of its arrival and the end of the previous command):
 *	seek(d) = 0 for d = 0, else t2t + (full - t2t) * sqrt((d - 1) / (D - 1))
 *		  with d the distance in tracks from the head, D the number of
 *		  tracks (Ruemmler and Wilkes, "An introduction to disk drive
 *		  modeling", IEEE Computer 1994: seek time grows with the square
 *		  root of the distance);
 *	rot	= (T(x) - (s + seek)) mod rev, the wait until x comes around;
 *	xfer	= T(x + n) - T(x);
 *	done	= s + seek + rot + xfer.
 * A command that arrives before the previous one ends and continues it
 * (d = 0, rot = 0) streams at the media rate.  Defaults are those of a
 * typical 7200 rpm 3.5" SATA datasheet: 1 ms track-to-track, 16 ms full
 * stroke (8.5 ms average), 250 MB/s outer and 120 MB/s inner rate.
 *
 * One actuator serves one command at a time.  With ncq_depth > 1 the drive
 * holds that many commands and picks the one with the shortest positioning
 * time (seek + rot) next; a command older than SD_AGE_NS is served first.
 * The virtual clock: each command starts at the end of the previous one
 * (not when the completion timer happened to fire), so timer latency of a
 * slow guest does not change the model's throughput as long as the host
 * keeps commands queued.
 *
 * Write cache (write_cache=1): a write completes after crossing the host
 * link (host_mbps) into a cache of cache_mb; the cache is destaged in
 * arrival order (contiguous writes merged), at most SD_DESTAGE_MAX sectors
 * per media operation, competing with reads for the actuator by positioning
 * time.  Destaging starts when the cache is half full, a flush waits, writes
 * wait for space, or the oldest dirty data is SD_DESTAGE_IDLE_NS old, and
 * then runs until the cache is empty.  A write waits for cache space; a
 * flush completes once the cache is empty.
 *
 * Read cache (read_cache=1): read_segments segments of segment_kb each, as
 * in a drive's buffer.  A read whose sectors are all in a segment is served
 * from it over the host link (host_mbps) without the actuator; one whose
 * first sector is cached takes the cached part from the segment and reads
 * the rest from the media; any other read allocates the least recently used
 * segment.  After a read from the media the drive keeps reading ahead into
 * that segment while it has nothing else to do, until the segment holds
 * segment_kb beyond what the host has read (it then stops, and resumes when
 * the host reads from the segment again).  The look-ahead is computed from the
 * clock when something happens, not by timers, and a command that needs the
 * actuator takes it at once (the sector being read is finished, a seek is
 * not aborted).  A write or zone reset clears the segments it overlaps.
 *
 * Host-managed zoned mode (zoned=1): zones of zone_size_mb MiB, the first
 * conv_zones conventional.  A write to a sequential zone must start at its
 * write pointer and stay in the zone, or fails with an I/O error; zone
 * append writes at the write pointer and returns the sector.  Zone reset,
 * reset all, open, close and finish take no media time.
 *
 * Statistics: /sys/kernel/debug/simdisk/<disk>/stats (write to reset),
 * geometry in .../geometry.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/bio.h>
#include <linux/hrtimer.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/math64.h>
#include <linux/spinlock.h>
#include "sd_compat.h"

#define SD_NR_BANDS	64
#define SD_AGE_NS	(500 * NSEC_PER_MSEC)
#define SD_DESTAGE_MAX	2048		/* sectors per destage operation */
#define SD_DESTAGE_SLOTS 1024		/* extents in the write cache */
#define SD_DESTAGE_IDLE_NS (50 * NSEC_PER_MSEC)	/* destage when idle this long */
#define SD_MAX_DEVICES	16
#define SD_MAX_SEGMENTS	64

static unsigned int nr_devices = 1;
module_param(nr_devices, uint, 0444);
MODULE_PARM_DESC(nr_devices, "Number of disks (default 1)");
static unsigned long capacity_gb = 1000;
module_param(capacity_gb, ulong, 0444);
MODULE_PARM_DESC(capacity_gb, "Capacity in GB of 10^9 bytes (default 1000)");
static unsigned int rpm = 7200;
module_param(rpm, uint, 0444);
MODULE_PARM_DESC(rpm, "Spindle speed (default 7200)");
static unsigned int seek_t2t_us = 1000;
module_param(seek_t2t_us, uint, 0444);
MODULE_PARM_DESC(seek_t2t_us, "Track-to-track seek, us (default 1000)");
static unsigned int seek_full_us = 16000;
module_param(seek_full_us, uint, 0444);
MODULE_PARM_DESC(seek_full_us, "Full-stroke seek, us (default 16000)");
static unsigned int outer_mbps = 250;
module_param(outer_mbps, uint, 0444);
MODULE_PARM_DESC(outer_mbps, "Media rate at LBA 0, MB/s (default 250)");
static unsigned int inner_mbps = 120;
module_param(inner_mbps, uint, 0444);
MODULE_PARM_DESC(inner_mbps, "Media rate at the last LBA, MB/s (default 120)");
static unsigned int ncq_depth = 32;
module_param(ncq_depth, uint, 0444);
MODULE_PARM_DESC(ncq_depth, "Commands queued in the drive, 1 = no NCQ (default 32)");
static bool write_cache;
module_param(write_cache, bool, 0444);
MODULE_PARM_DESC(write_cache, "Volatile write cache (default off)");
static unsigned int cache_mb = 256;
module_param(cache_mb, uint, 0444);
MODULE_PARM_DESC(cache_mb, "Write cache size, MiB (default 256)");
static unsigned int host_mbps = 550;
module_param(host_mbps, uint, 0444);
MODULE_PARM_DESC(host_mbps, "Host link rate (writes into the write cache, read cache hits), MB/s (default 550)");
static unsigned int max_io_kb = 1024;
module_param(max_io_kb, uint, 0444);
MODULE_PARM_DESC(max_io_kb, "Largest command, KiB (default 1024)");
static bool read_cache = true;
module_param(read_cache, bool, 0444);
MODULE_PARM_DESC(read_cache, "Segmented read cache with look-ahead (default on)");
static unsigned int read_segments = 16;
module_param(read_segments, uint, 0444);
MODULE_PARM_DESC(read_segments, "Read cache segments, at most 64 (default 16)");
static unsigned int segment_kb = 2048;
module_param(segment_kb, uint, 0444);
MODULE_PARM_DESC(segment_kb, "Read cache segment size, KiB (default 2048)");
static bool zoned;
module_param(zoned, bool, 0444);
MODULE_PARM_DESC(zoned, "Host-managed zoned (SMR) disk (default off)");
static unsigned int zone_size_mb = 256;
module_param(zone_size_mb, uint, 0444);
MODULE_PARM_DESC(zone_size_mb, "Zone size, MiB, a power of 2 (default 256)");
static unsigned int conv_zones = 4;
module_param(conv_zones, uint, 0444);
MODULE_PARM_DESC(conv_zones, "Conventional zones at LBA 0 (default 4)");
static bool zero_reads = true;
module_param(zero_reads, bool, 0444);
MODULE_PARM_DESC(zero_reads, "Zero the buffers of reads (default on)");
static unsigned int requeue_every;
module_param(requeue_every, uint, 0644);
MODULE_PARM_DESC(requeue_every,
		 "Hand every Nth read or write back to blk-mq to requeue, before it reaches the model; disks that are not zoned (default 0: never)");

enum sd_kind { SD_READ, SD_WRITE, SD_FLUSH };

struct sd_cmd {
	struct list_head node;
	struct request *rq;
	sector_t sector;
	u32 nr;
	u8 kind;
	blk_status_t status;
	u64 arrival;
};

struct sd_band {
	sector_t start;
	u64 track0;		/* first track of the band */
	u64 time0;		/* streaming time from LBA 0 to start */
	u32 spt;		/* sectors per track */
};

struct sd_extent {
	sector_t sector;
	u32 nr;
	u64 arrival;
};

/*
 * A read cache segment: the sectors [start, end) were read, of which it
 * holds the last seg_sectors (a ring); the host has read up to hwm.  used:
 * LRU stamp, 0 if the segment is free.  full: look-ahead stopped because
 * the segment held a segment's worth beyond hwm (until the host reads).
 */
struct sd_seg {
	sector_t start, end, hwm;
	u64 used;
	bool full;
};

struct sd_zone {
	sector_t wp;
	u8 cond;
	u8 type;
};

struct sd_stats {
	u64 commands, reads, writes, destages, destage_sectors, flushes;
	u64 read_sectors, write_sectors;
	u64 seeks, seek_tracks, seek_ns, rot_ns, xfer_ns, busy_ns, streamed;
	u64 late_ns, max_late_ns;	/* completion timer behind the model */
	u64 cache_writes, cache_waits;
	u64 zone_resets, zone_opens, zone_closes, zone_finishes;
	u64 zone_appends, zone_write_errors;
	u64 requeues;
	u64 rc_hits, rc_partial, rc_misses, rc_hit_sectors, rc_invalidations;
	u64 ra_sectors, ra_ns, ra_starts;
};

struct sd_dev {
	spinlock_t lock;		/* protects everything below */
	struct blk_mq_tag_set tag_set;
	struct gendisk *disk;
	struct dentry *dbg;
	bool dying;
	u64 requeue_seq;		/* reads and writes seen, for requeue_every */

	/* geometry */
	sector_t capacity;
	sector_t band_sects;
	u64 rev_ns, nr_tracks, t2t_ns, full_ns;
	struct sd_band band[SD_NR_BANDS];

	/* actuator */
	struct hrtimer act_timer;
	bool act_busy, act_destage, act_wait, draining;
	u64 act_end;		/* end of the operation or of the wait */
	u64 head_free;		/* end of the last media operation */
	struct sd_cmd *act_cmd;
	sector_t act_sector;
	u32 act_nr;
	u64 head_track;
	struct list_head pending;

	/* write cache and host link */
	struct hrtimer link_timer;
	bool link_busy;
	u64 link_end;
	struct sd_cmd *link_cmd;
	struct list_head link_queue;
	struct list_head flushes;
	u64 cache_used, cache_cap;	/* sectors, including in transfer */
	struct sd_extent *dq;
	unsigned int dq_head, dq_count;

	/* read cache and look-ahead (la_*: valid while la_seg >= 0) */
	struct sd_seg *segs;
	u64 seg_sectors, seg_clock;
	int ra_seg;		/* segment of the last read: look-ahead goes there */
	int la_seg;		/* segment being read ahead into, or -1 */
	sector_t la_from;	/* next sector the look-ahead transfers */
	u64 la_seek_end;	/* end of its seek (not aborted) */
	u64 la_xfer;		/* when la_from is under the head */
	unsigned int link_writes;	/* writes queued on or crossing the link */

	/* zones */
	struct sd_zone *zones;
	unsigned int nr_zones, nr_conv;
	unsigned int zone_shift;

	struct sd_stats st;
};

static struct sd_dev *sd_devs[SD_MAX_DEVICES];
static struct dentry *sd_dbg_root;
static int sd_major;

/* ---- geometry ---------------------------------------------------------- */

static const struct sd_band *sd_band_of(struct sd_dev *dev, sector_t x)
{
	u64 i = div64_u64(x, dev->band_sects);

	return &dev->band[min_t(u64, i, SD_NR_BANDS - 1)];
}

static u64 sd_track(struct sd_dev *dev, sector_t x)
{
	const struct sd_band *b;

	if (x >= dev->capacity)
		x = dev->capacity - 1;
	b = sd_band_of(dev, x);
	return b->track0 + div_u64(x - b->start, b->spt);
}

/* T(x): streaming time from LBA 0 to LBA x. */
static u64 sd_time(struct sd_dev *dev, sector_t x)
{
	const struct sd_band *b = sd_band_of(dev, x ? x - 1 : 0);

	return b->time0 + div_u64((u64)(x - b->start) * dev->rev_ns, b->spt);
}

/* The first LBA x with T(x) >= tau: where a stream is at time tau. */
static sector_t sd_time_ceil(struct sd_dev *dev, u64 tau)
{
	const struct sd_band *b;
	sector_t x;
	int i;

	if (tau >= sd_time(dev, dev->capacity))
		return dev->capacity;
	for (i = SD_NR_BANDS - 1; i > 0; i--)
		if (dev->band[i].start < dev->capacity &&
		    dev->band[i].time0 <= tau)
			break;
	b = &dev->band[i];
	x = b->start + div64_u64((tau - b->time0) * b->spt + dev->rev_ns - 1,
				 dev->rev_ns);
	x = min_t(sector_t, x, dev->capacity);
	while (x > b->start && sd_time(dev, x - 1) >= tau)
		x--;
	while (x < dev->capacity && sd_time(dev, x) < tau)
		x++;
	return x;
}

static u64 sd_seek_ns(struct sd_dev *dev, u64 d)
{
	u64 frac;

	if (!d)
		return 0;
	if (dev->nr_tracks < 2)
		return dev->t2t_ns;
	/* sqrt((d - 1) / (D - 1)) in 16-bit fixed point */
	frac = int_sqrt64(div64_u64((d - 1) << 32, dev->nr_tracks - 1));
	return dev->t2t_ns + (((dev->full_ns - dev->t2t_ns) * frac) >> 16);
}

static int sd_geometry(struct sd_dev *dev)
{
	u64 track = 0, time = 0, rate, delta;
	sector_t len;
	int i;

	dev->rev_ns = div_u64(60ULL * NSEC_PER_SEC, rpm);
	dev->t2t_ns = (u64)seek_t2t_us * NSEC_PER_USEC;
	dev->full_ns = (u64)max(seek_full_us, seek_t2t_us) * NSEC_PER_USEC;
	dev->band_sects = round_up(DIV_ROUND_UP_ULL(dev->capacity, SD_NR_BANDS), 8);
	delta = (u64)(outer_mbps - inner_mbps) * 1000000;
	for (i = 0; i < SD_NR_BANDS; i++) {
		struct sd_band *b = &dev->band[i];

		b->start = min_t(sector_t, (sector_t)i * dev->band_sects,
				 dev->capacity);
		len = min_t(sector_t, dev->band_sects, dev->capacity - b->start);
		rate = (u64)outer_mbps * 1000000 -
			div_u64(delta * (2 * i + 1), 2 * SD_NR_BANDS);
		b->spt = max_t(u64, 1, div64_u64(rate * dev->rev_ns,
						 512ULL * NSEC_PER_SEC));
		b->track0 = track;
		b->time0 = time;
		track += DIV_ROUND_UP_ULL(len, b->spt);
		time += div_u64((u64)len * dev->rev_ns, b->spt);
	}
	dev->nr_tracks = track;
	return 0;
}

/* ---- actuator ---------------------------------------------------------- */

/* Positioning time for LBA x starting at time s: seek + rotational wait. */
static u64 sd_position(struct sd_dev *dev, u64 s, sector_t x, u64 *seek,
		       u64 *rot, u64 *dist)
{
	u64 trk = sd_track(dev, x), phase, arrive, ang;
	u32 rem;

	*dist = trk > dev->head_track ? trk - dev->head_track :
		dev->head_track - trk;
	*seek = sd_seek_ns(dev, *dist);
	arrive = s + *seek;
	div_u64_rem(sd_time(dev, x), dev->rev_ns, &rem);
	phase = rem;
	div_u64_rem(arrive, dev->rev_ns, &rem);
	ang = rem;
	*rot = phase >= ang ? phase - ang : phase + dev->rev_ns - ang;
	return *seek + *rot;
}

/* ---- read cache and look-ahead ------------------------------------------ */

/* First sector segment g still holds. */
static sector_t sd_seg_lo(struct sd_dev *dev, const struct sd_seg *g)
{
	return g->end - g->start > dev->seg_sectors ?
		g->end - dev->seg_sectors : g->start;
}

/* Where look-ahead into g stops: a segment's worth beyond the host. */
static sector_t sd_la_cap(struct sd_dev *dev, const struct sd_seg *g)
{
	return min_t(u64, g->hwm + dev->seg_sectors, dev->capacity);
}

/*
 * Account the look-ahead up to time t: the sectors that passed under the
 * head since it was last accounted join its segment.  It ends by itself
 * when the segment is full (or at the last sector); the head then stays on
 * that track.  The sector under the head at t is counted as read; the
 * look-ahead is then anchored at the end of that sector.
 */
static void sd_la_sync(struct sd_dev *dev, u64 t)
{
	struct sd_seg *g;
	sector_t cap, x;
	u64 at, tc, t0;

	if (dev->la_seg < 0 || t <= dev->la_xfer)
		return;
	g = &dev->segs[dev->la_seg];
	cap = max_t(sector_t, sd_la_cap(dev, g), dev->la_from);
	t0 = sd_time(dev, dev->la_from);
	tc = dev->la_xfer + sd_time(dev, cap) - t0;
	if (t >= tc) {
		x = cap;
		at = tc;
	} else {
		x = min_t(sector_t, cap,
			  sd_time_ceil(dev, t0 + (t - dev->la_xfer)));
		at = dev->la_xfer + sd_time(dev, x) - t0;
	}
	dev->st.ra_sectors += x - dev->la_from;
	dev->st.ra_ns += at - dev->la_xfer;
	g->end = x;
	dev->la_from = x;
	dev->la_xfer = at;
	dev->la_seek_end = at;
	if (x == cap) {
		g->full = true;
		dev->la_seg = -1;
		dev->head_track = sd_track(dev, x);
		dev->head_free = max(dev->head_free, at);
	}
}

/* A command needs the actuator at t: end the look-ahead. */
static void sd_la_stop(struct sd_dev *dev, u64 t)
{
	sd_la_sync(dev, t);
	if (dev->la_seg < 0)
		return;
	dev->head_track = sd_track(dev, dev->la_from);
	dev->head_free = max(dev->head_free, dev->la_seek_end);
	dev->la_seg = -1;
}

/* The actuator is idle from t: read ahead into the last read's segment. */
static void sd_la_begin(struct sd_dev *dev, u64 t)
{
	struct sd_seg *g;
	u64 seek, rot, dist;

	if (!dev->segs || dev->dying || dev->la_seg >= 0 || dev->ra_seg < 0 ||
	    (dev->act_busy && !dev->act_wait) || !list_empty(&dev->pending))
		return;
	g = &dev->segs[dev->ra_seg];
	if (g->full)
		return;
	if (g->end >= sd_la_cap(dev, g)) {
		g->full = true;
		return;
	}
	t = max(t, dev->head_free);
	sd_position(dev, t, g->end, &seek, &rot, &dist);
	dev->la_seg = dev->ra_seg;
	dev->la_from = g->end;
	dev->la_seek_end = t + seek;
	dev->la_xfer = t + seek + rot;
	dev->st.ra_starts++;
}

/*
 * Clear every segment but keep that holds sectors of [lo, hi), as drives
 * clear the segments a write overlaps.  Returns whether any was cleared.
 */
static bool sd_rc_trim(struct sd_dev *dev, sector_t lo, sector_t hi,
		       const struct sd_seg *keep, u64 t)
{
	bool dropped = false;
	struct sd_seg *g;
	unsigned int i;

	for (i = 0; i < read_segments; i++) {
		g = &dev->segs[i];
		if (!g->used || g == keep || g->end <= lo ||
		    sd_seg_lo(dev, g) >= hi)
			continue;
		if (dev->la_seg == (int)i)
			sd_la_stop(dev, t);
		if (dev->ra_seg == (int)i)
			dev->ra_seg = -1;
		g->used = 0;
		dropped = true;
	}
	return dropped;
}

/* A write (or zone reset) of [x, x + n) arrives at t. */
static void sd_rc_invalidate(struct sd_dev *dev, sector_t x, sector_t n,
			     u64 t)
{
	if (!dev->segs)
		return;
	sd_la_sync(dev, t);
	if (sd_rc_trim(dev, x, x + n, NULL, t))
		dev->st.rc_invalidations++;
}

/*
 * A read arrives at t.  Returns true if the cache holds all of it.  If it
 * holds the first sectors, those are taken from the cache and c shrinks to
 * the rest, which the media must supply.
 */
static bool sd_rc_lookup(struct sd_dev *dev, struct sd_cmd *c, u64 t)
{
	struct sd_seg *g;
	unsigned int i;
	u32 n;

	sd_la_sync(dev, t);
	for (i = 0; i < read_segments; i++) {
		g = &dev->segs[i];
		if (!g->used || c->sector < sd_seg_lo(dev, g) ||
		    c->sector >= g->end)
			continue;
		g->used = ++dev->seg_clock;
		dev->ra_seg = i;
		if (c->sector + c->nr <= g->end) {
			dev->st.rc_hits++;
			dev->st.rc_hit_sectors += c->nr;
			g->hwm = max_t(sector_t, g->hwm, c->sector + c->nr);
			g->full = false;	/* room again: look-ahead may resume */
			return true;
		}
		n = g->end - c->sector;
		dev->st.rc_partial++;
		dev->st.rc_hit_sectors += n;
		g->hwm = g->end;
		c->sector += n;
		c->nr -= n;
		return false;
	}
	dev->st.rc_misses++;
	return false;
}

/* A read of [x, x + nr) from the media ended: its data enter a segment. */
static void sd_rc_fill(struct sd_dev *dev, sector_t x, u32 nr, u64 t)
{
	struct sd_seg *g = NULL;
	unsigned int i, v = 0;

	for (i = 0; i < read_segments; i++) {
		if (dev->segs[i].used < dev->segs[v].used)
			v = i;
		if (dev->segs[i].used && x >= sd_seg_lo(dev, &dev->segs[i]) &&
		    x <= dev->segs[i].end) {
			g = &dev->segs[i];
			break;
		}
	}
	if (!g) {
		g = &dev->segs[v];
		if (dev->la_seg == (int)v)
			sd_la_stop(dev, t);
		g->start = x;
		g->end = x;
		g->hwm = x;
	}
	sd_rc_trim(dev, x, x + nr, g, t);
	g->end = max_t(sector_t, g->end, x + nr);
	g->hwm = max_t(sector_t, g->hwm, x + nr);
	g->full = false;
	g->used = ++dev->seg_clock;
	dev->ra_seg = g - dev->segs;
}

static bool sd_cache_blocked(struct sd_dev *dev)
{
	struct sd_cmd *w;

	if (dev->link_busy || list_empty(&dev->link_queue))
		return false;
	w = list_first_entry(&dev->link_queue, struct sd_cmd, node);
	return w->kind == SD_WRITE && dev->cache_used + w->nr > dev->cache_cap;
}

/*
 * Choose the next media operation at time t and schedule it: the oldest
 * command if it has waited too long, the oldest destage if writes wait for
 * cache space, else the shortest positioning time.  Returns false if idle.
 */
static bool sd_act_pick(struct sd_dev *dev, u64 t)
{
	struct sd_cmd *c, *best = NULL, *oldest = NULL;
	u64 best_at = U64_MAX, seek, rot, dist, s, at;
	bool destage = false;
	struct sd_extent *e = NULL;
	sector_t x;
	u32 nr;

	list_for_each_entry(c, &dev->pending, node) {
		if (!oldest || c->arrival < oldest->arrival)
			oldest = c;
		s = max(t, c->arrival);
		at = s + sd_position(dev, s, c->sector, &seek, &rot, &dist);
		if (at < best_at) {
			best_at = at;
			best = c;
		}
	}
	if (dev->dq_count) {
		e = &dev->dq[dev->dq_head];
		if (dev->cache_used * 2 >= dev->cache_cap ||
		    !list_empty(&dev->flushes) || sd_cache_blocked(dev) ||
		    t >= e->arrival + SD_DESTAGE_IDLE_NS)
			dev->draining = true;
	} else {
		dev->draining = false;
	}
	if (dev->draining) {
		s = max(t, e->arrival);
		at = s + sd_position(dev, s, e->sector, &seek, &rot, &dist);
		if (at < best_at || sd_cache_blocked(dev)) {
			best_at = at;
			best = NULL;
			destage = true;
		}
	}
	if (oldest && t > oldest->arrival + SD_AGE_NS) {
		best = oldest;
		destage = false;
	}
	if (!best && !destage) {
		if (!dev->dq_count)
			return false;
		/* only dirty data, not enough to start: look again later */
		dev->act_wait = true;
		dev->act_busy = true;
		dev->act_destage = false;
		dev->act_cmd = NULL;
		dev->act_end = max(t, e->arrival + SD_DESTAGE_IDLE_NS);
		return true;
	}

	if (destage) {
		x = e->sector;
		nr = min_t(u32, e->nr, SD_DESTAGE_MAX);
		s = max(t, e->arrival);
		e->sector += nr;
		e->nr -= nr;
		if (!e->nr) {
			dev->dq_head = (dev->dq_head + 1) % SD_DESTAGE_SLOTS;
			dev->dq_count--;
		}
		dev->st.destages++;
		dev->st.destage_sectors += nr;
		dev->act_cmd = NULL;
	} else {
		list_del_init(&best->node);
		x = best->sector;
		nr = best->nr;
		s = max(t, best->arrival);
		dev->act_cmd = best;
		if (best->kind == SD_READ) {
			dev->st.reads++;
			dev->st.read_sectors += nr;
		} else {
			dev->st.writes++;
			dev->st.write_sectors += nr;
		}
	}
	sd_position(dev, s, x, &seek, &rot, &dist);
	dev->act_destage = destage;
	dev->act_wait = false;
	dev->act_sector = x;
	dev->act_nr = nr;
	dev->act_end = s + seek + rot + sd_time(dev, x + nr) - sd_time(dev, x);
	dev->st.commands++;
	if (dist) {
		dev->st.seeks++;
		dev->st.seek_tracks += dist;
		dev->st.seek_ns += seek;
	} else if (!rot) {
		dev->st.streamed++;
	}
	dev->st.rot_ns += rot;
	dev->st.xfer_ns += sd_time(dev, x + nr) - sd_time(dev, x);
	dev->st.busy_ns += dev->act_end - s;
	dev->act_busy = true;
	return true;
}

/* Start the actuator if it is idle and there is work. */
static void sd_act_kick(struct sd_dev *dev, u64 t)
{
	if (dev->dying)
		return;
	/*
	 * Waiting for dirty data to age: stop waiting, unless the timer is
	 * firing right now (it then waits for our lock and picks the work).
	 */
	if (dev->act_wait && hrtimer_try_to_cancel(&dev->act_timer) >= 0) {
		dev->act_wait = false;
		dev->act_busy = false;
		t = max(t, dev->head_free);
	}
	if (dev->act_busy)
		return;
	sd_la_stop(dev, t);
	t = max(t, dev->head_free);
	if (sd_act_pick(dev, t))
		hrtimer_start(&dev->act_timer, ns_to_ktime(dev->act_end),
			      HRTIMER_MODE_ABS);
	sd_la_begin(dev, t);
}

static bool sd_link_pick(struct sd_dev *dev, u64 t)
{
	struct sd_cmd *w;
	u64 s;

	if (dev->link_busy || list_empty(&dev->link_queue))
		return false;
	w = list_first_entry(&dev->link_queue, struct sd_cmd, node);
	if (w->kind == SD_WRITE && dev->cache_used + w->nr > dev->cache_cap) {
		dev->st.cache_waits++;
		return false;
	}
	list_del_init(&w->node);
	if (w->kind == SD_WRITE)
		dev->cache_used += w->nr;
	s = max3(t, dev->link_end, w->arrival);
	dev->link_end = s + div_u64((u64)w->nr * 512 * NSEC_PER_USEC,
				    host_mbps);
	dev->link_cmd = w;
	dev->link_busy = true;
	return true;
}

static void sd_link_kick(struct sd_dev *dev, u64 t)
{
	if (!dev->dying && sd_link_pick(dev, t))
		hrtimer_start(&dev->link_timer, ns_to_ktime(dev->link_end),
			      HRTIMER_MODE_ABS);
}

/* Flushes complete once nothing is in the cache or on its way there. */
static void sd_flushes_done(struct sd_dev *dev, struct list_head *done)
{
	if (dev->cache_used || dev->link_writes)
		return;
	list_splice_tail_init(&dev->flushes, done);
}

static void sd_end_list(struct list_head *done)
{
	struct sd_cmd *c, *n;

	list_for_each_entry_safe(c, n, done, node) {
		list_del_init(&c->node);
		blk_mq_end_request(c->rq, c->status);
	}
}

static enum hrtimer_restart sd_act_fire(struct hrtimer *timer)
{
	struct sd_dev *dev = container_of(timer, struct sd_dev, act_timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	unsigned long flags;
	LIST_HEAD(done);
	u64 t, now, late;

	spin_lock_irqsave(&dev->lock, flags);
	t = dev->act_end;
	now = ktime_get_ns();
	late = now > t ? now - t : 0;
	dev->st.late_ns += late;
	dev->st.max_late_ns = max(dev->st.max_late_ns, late);
	dev->act_busy = false;
	if (dev->act_wait) {
		dev->act_wait = false;
	} else {
		dev->head_free = t;
		dev->head_track = sd_track(dev, dev->act_sector + dev->act_nr);
	}
	if (dev->act_destage) {
		dev->cache_used -= dev->act_nr;
		sd_link_kick(dev, t);
		sd_flushes_done(dev, &done);
	} else if (dev->act_cmd) {
		if (dev->segs && dev->act_cmd->kind == SD_READ)
			sd_rc_fill(dev, dev->act_sector, dev->act_nr, t);
		list_add_tail(&dev->act_cmd->node, &done);
		dev->act_cmd = NULL;
	}
	if (!dev->dying) {
		sd_la_stop(dev, t);
		t = max(t, dev->head_free);
		if (sd_act_pick(dev, t)) {
			hrtimer_set_expires(timer, ns_to_ktime(dev->act_end));
			ret = HRTIMER_RESTART;
		}
		sd_la_begin(dev, t);
	}
	spin_unlock_irqrestore(&dev->lock, flags);
	sd_end_list(&done);
	return ret;
}

static bool sd_dq_add(struct sd_dev *dev, sector_t sector, u32 nr, u64 t)
{
	struct sd_extent *e;

	if (dev->dq_count) {
		e = &dev->dq[(dev->dq_head + dev->dq_count - 1) % SD_DESTAGE_SLOTS];
		if (e->sector + e->nr == sector && e->nr + nr >= e->nr) {
			e->nr += nr;
			return true;
		}
	}
	if (dev->dq_count == SD_DESTAGE_SLOTS)
		return false;
	e = &dev->dq[(dev->dq_head + dev->dq_count) % SD_DESTAGE_SLOTS];
	e->sector = sector;
	e->nr = nr;
	e->arrival = t;
	dev->dq_count++;
	return true;
}

static enum hrtimer_restart sd_link_fire(struct hrtimer *timer)
{
	struct sd_dev *dev = container_of(timer, struct sd_dev, link_timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	unsigned long flags;
	struct sd_cmd *w;
	LIST_HEAD(done);
	u64 t;

	spin_lock_irqsave(&dev->lock, flags);
	w = dev->link_cmd;
	t = dev->link_end;
	dev->link_busy = false;
	dev->link_cmd = NULL;
	if (w->kind == SD_READ) {
		/* a read served from the read cache */
		list_add_tail(&w->node, &done);
	} else {
		dev->link_writes--;
		if (sd_dq_add(dev, w->sector, w->nr, t)) {
			dev->st.cache_writes++;
			dev->st.write_sectors += w->nr;
			list_add_tail(&w->node, &done);
		} else {
			/* no extent slot: write through like a drive without cache */
			dev->cache_used -= w->nr;
			list_add_tail(&w->node, &dev->pending);
		}
		sd_act_kick(dev, t);
	}
	if (!dev->dying && sd_link_pick(dev, t)) {
		hrtimer_set_expires(timer, ns_to_ktime(dev->link_end));
		ret = HRTIMER_RESTART;
	}
	sd_flushes_done(dev, &done);
	spin_unlock_irqrestore(&dev->lock, flags);
	sd_end_list(&done);
	return ret;
}

/* ---- zones ------------------------------------------------------------- */

static sector_t sd_zone_start(struct sd_dev *dev, unsigned int z)
{
	return (sector_t)z << dev->zone_shift;
}

static sector_t sd_zone_end(struct sd_dev *dev, unsigned int z)
{
	return sd_zone_start(dev, z + 1);
}

/* Check and account a write or zone append; may move cmd->sector. */
static blk_status_t sd_zone_write(struct sd_dev *dev, struct sd_cmd *c,
				  bool append)
{
	unsigned int z = c->sector >> dev->zone_shift;
	struct sd_zone *zn;

	if (z >= dev->nr_zones)
		return BLK_STS_IOERR;
	zn = &dev->zones[z];
	if (zn->type == BLK_ZONE_TYPE_CONVENTIONAL) {
		if (append || c->sector + c->nr > sd_zone_end(dev, z))
			return BLK_STS_IOERR;
		return BLK_STS_OK;
	}
	if (append) {
		if (c->sector != sd_zone_start(dev, z))
			return BLK_STS_IOERR;
		c->sector = zn->wp;
		dev->st.zone_appends++;
	}
	if (zn->cond == BLK_ZONE_COND_FULL || c->sector != zn->wp ||
	    c->sector + c->nr > sd_zone_end(dev, z))
		return BLK_STS_IOERR;
	zn->wp += c->nr;
	if (zn->wp == sd_zone_end(dev, z))
		zn->cond = BLK_ZONE_COND_FULL;
	else if (zn->cond != BLK_ZONE_COND_EXP_OPEN)
		zn->cond = BLK_ZONE_COND_IMP_OPEN;
	return BLK_STS_OK;
}

static void sd_zone_reset(struct sd_dev *dev, unsigned int z)
{
	dev->zones[z].wp = sd_zone_start(dev, z);
	dev->zones[z].cond = BLK_ZONE_COND_EMPTY;
}

static blk_status_t sd_zone_mgmt(struct sd_dev *dev, enum req_op op,
				 sector_t sector, u64 t)
{
	unsigned int z = sector >> dev->zone_shift;
	struct sd_zone *zn;

	if (op == REQ_OP_ZONE_RESET_ALL) {
		for (z = dev->nr_conv; z < dev->nr_zones; z++)
			sd_zone_reset(dev, z);
		sd_rc_invalidate(dev, sd_zone_start(dev, dev->nr_conv),
				 dev->capacity - sd_zone_start(dev, dev->nr_conv), t);
		dev->st.zone_resets++;
		return BLK_STS_OK;
	}
	if (z >= dev->nr_zones || sector != sd_zone_start(dev, z))
		return BLK_STS_IOERR;
	zn = &dev->zones[z];
	if (zn->type == BLK_ZONE_TYPE_CONVENTIONAL)
		return BLK_STS_IOERR;
	switch (op) {
	case REQ_OP_ZONE_RESET:
		sd_zone_reset(dev, z);
		sd_rc_invalidate(dev, sd_zone_start(dev, z),
				 1ULL << dev->zone_shift, t);
		dev->st.zone_resets++;
		break;
	case REQ_OP_ZONE_OPEN:
		if (zn->cond != BLK_ZONE_COND_FULL)
			zn->cond = BLK_ZONE_COND_EXP_OPEN;
		dev->st.zone_opens++;
		break;
	case REQ_OP_ZONE_CLOSE:
		if (zn->cond == BLK_ZONE_COND_IMP_OPEN ||
		    zn->cond == BLK_ZONE_COND_EXP_OPEN)
			zn->cond = zn->wp == sd_zone_start(dev, z) ?
				BLK_ZONE_COND_EMPTY : BLK_ZONE_COND_CLOSED;
		dev->st.zone_closes++;
		break;
	case REQ_OP_ZONE_FINISH:
		zn->wp = sd_zone_end(dev, z);
		zn->cond = BLK_ZONE_COND_FULL;
		dev->st.zone_finishes++;
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	return BLK_STS_OK;
}

static int sd_report_zones_impl(struct gendisk *disk, sector_t sector,
				unsigned int nr_zones, sd_report_fn fn,
				void *ctx)
{
	struct sd_dev *dev = disk->private_data;
	unsigned int z = sector >> dev->zone_shift, i;
	struct blk_zone bz;
	unsigned long flags;
	int ret;

	for (i = 0; i < nr_zones && z < dev->nr_zones; i++, z++) {
		memset(&bz, 0, sizeof(bz));
		bz.start = sd_zone_start(dev, z);
		bz.len = 1ULL << dev->zone_shift;
		bz.capacity = bz.len;
		spin_lock_irqsave(&dev->lock, flags);
		bz.wp = dev->zones[z].wp;
		bz.cond = dev->zones[z].cond;
		bz.type = dev->zones[z].type;
		spin_unlock_irqrestore(&dev->lock, flags);
		ret = fn(&bz, i, ctx);
		if (ret)
			return ret;
	}
	return i;
}

static int sd_init_zones(struct sd_dev *dev)
{
	unsigned int z;

	dev->zone_shift = ilog2((u64)zone_size_mb << 11);
	dev->nr_zones = dev->capacity >> dev->zone_shift;
	if (!dev->nr_zones)
		return -EINVAL;
	dev->capacity = (sector_t)dev->nr_zones << dev->zone_shift;
	dev->nr_conv = min(conv_zones, dev->nr_zones - 1);
	dev->zones = kvcalloc(dev->nr_zones, sizeof(*dev->zones), GFP_KERNEL);
	if (!dev->zones)
		return -ENOMEM;
	for (z = 0; z < dev->nr_zones; z++) {
		if (z < dev->nr_conv) {
			dev->zones[z].type = BLK_ZONE_TYPE_CONVENTIONAL;
			dev->zones[z].cond = BLK_ZONE_COND_NOT_WP;
			dev->zones[z].wp = sd_zone_end(dev, z);
		} else {
			dev->zones[z].type = BLK_ZONE_TYPE_SEQWRITE_REQ;
			sd_zone_reset(dev, z);
		}
	}
	return 0;
}

/* ---- blk-mq ------------------------------------------------------------ */

/* requeue_every: is this read or write the one to hand back? */
static bool sd_requeue_this(struct sd_dev *dev, enum req_op op)
{
	unsigned int every = READ_ONCE(requeue_every);
	unsigned long flags;
	bool requeue;

	if (!every || dev->zones || (op != REQ_OP_READ && op != REQ_OP_WRITE))
		return false;
	spin_lock_irqsave(&dev->lock, flags);
	requeue = ++dev->requeue_seq % every == 0;
	if (requeue)
		dev->st.requeues++;
	spin_unlock_irqrestore(&dev->lock, flags);
	return requeue;
}

static blk_status_t sd_queue_rq(struct blk_mq_hw_ctx *hctx,
				const struct blk_mq_queue_data *bd)
{
	struct sd_dev *dev = hctx->queue->queuedata;
	struct request *rq = bd->rq;
	struct sd_cmd *c = blk_mq_rq_to_pdu(rq);
	enum req_op op = req_op(rq);
	blk_status_t sts = BLK_STS_OK;
	unsigned long flags;
	struct bio *bio;
	u64 now;

	blk_mq_start_request(rq);
	if (sd_requeue_this(dev, op)) {
		blk_mq_requeue_request(rq, true);
		return BLK_STS_OK;
	}
	INIT_LIST_HEAD(&c->node);
	c->rq = rq;
	c->sector = blk_rq_pos(rq);
	c->nr = blk_rq_sectors(rq);
	c->status = BLK_STS_OK;

	switch (op) {
	case REQ_OP_READ:
		c->kind = SD_READ;
		if (zero_reads)
			__rq_for_each_bio(bio, rq)
				zero_fill_bio(bio);
		break;
	case REQ_OP_WRITE:
	case REQ_OP_ZONE_APPEND:
		c->kind = SD_WRITE;
		break;
	case REQ_OP_FLUSH:
		c->kind = SD_FLUSH;
		break;
	case REQ_OP_ZONE_RESET:
	case REQ_OP_ZONE_RESET_ALL:
	case REQ_OP_ZONE_OPEN:
	case REQ_OP_ZONE_CLOSE:
	case REQ_OP_ZONE_FINISH:
		if (!dev->zones) {
			sts = BLK_STS_NOTSUPP;
			break;
		}
		spin_lock_irqsave(&dev->lock, flags);
		sts = sd_zone_mgmt(dev, op, c->sector, ktime_get_ns());
		spin_unlock_irqrestore(&dev->lock, flags);
		blk_mq_end_request(rq, sts);
		return BLK_STS_OK;
	default:
		sts = BLK_STS_NOTSUPP;
		break;
	}
	if (sts != BLK_STS_OK) {
		blk_mq_end_request(rq, sts);
		return BLK_STS_OK;
	}
	if (c->kind != SD_FLUSH &&
	    (!c->nr || c->sector + c->nr > dev->capacity)) {
		blk_mq_end_request(rq, BLK_STS_IOERR);
		return BLK_STS_OK;
	}

	now = ktime_get_ns();
	c->arrival = now;
	spin_lock_irqsave(&dev->lock, flags);
	if (c->kind == SD_WRITE && dev->zones) {
		sts = sd_zone_write(dev, c, op == REQ_OP_ZONE_APPEND);
		if (sts != BLK_STS_OK) {
			unsigned int z = c->sector >> dev->zone_shift;

			dev->st.zone_write_errors++;
			if (z < dev->nr_zones)
				pr_info_ratelimited("%s: write refused: sector %llu, %u sectors, zone %u write pointer %llu\n",
						    dev->disk->disk_name, (u64)c->sector, c->nr, z,
						    (u64)dev->zones[z].wp);
			spin_unlock_irqrestore(&dev->lock, flags);
			blk_mq_end_request(rq, sts);
			return BLK_STS_OK;
		}
		if (op == REQ_OP_ZONE_APPEND)
			rq->__sector = c->sector;
	}
	if (c->kind == SD_FLUSH) {
		LIST_HEAD(done);

		dev->st.flushes++;
		list_add_tail(&c->node, &dev->flushes);
		sd_flushes_done(dev, &done);
		spin_unlock_irqrestore(&dev->lock, flags);
		sd_end_list(&done);
		return BLK_STS_OK;
	}
	if (c->kind == SD_WRITE)
		sd_rc_invalidate(dev, c->sector, c->nr, now);
	if (c->kind == SD_READ && dev->segs && sd_rc_lookup(dev, c, now)) {
		/* all cached: over the link, the actuator stays free */
		list_add_tail(&c->node, &dev->link_queue);
		sd_link_kick(dev, now);
		sd_la_begin(dev, now);
	} else if (c->kind == SD_WRITE && write_cache) {
		dev->link_writes++;
		list_add_tail(&c->node, &dev->link_queue);
		sd_link_kick(dev, now);
	} else {
		list_add_tail(&c->node, &dev->pending);
		sd_act_kick(dev, now);
	}
	spin_unlock_irqrestore(&dev->lock, flags);
	return BLK_STS_OK;
}

static const struct blk_mq_ops sd_mq_ops = {
	.queue_rq	= sd_queue_rq,
};

static const struct block_device_operations sd_fops = {
	.owner		= THIS_MODULE,
	.report_zones	= sd_report_zones,
};

/* ---- debugfs ----------------------------------------------------------- */

static int sd_stats_show(struct seq_file *m, void *v)
{
	struct sd_dev *dev = m->private;
	struct sd_stats s;
	unsigned long flags;
	u64 cache_used;

	spin_lock_irqsave(&dev->lock, flags);
	sd_la_sync(dev, ktime_get_ns());	/* look-ahead up to now */
	s = dev->st;
	cache_used = dev->cache_used;
	spin_unlock_irqrestore(&dev->lock, flags);

	seq_printf(m, "commands %llu\n", s.commands);
	seq_printf(m, "reads %llu\n", s.reads);
	seq_printf(m, "writes %llu\n", s.writes);
	seq_printf(m, "destages %llu\n", s.destages);
	seq_printf(m, "destage_sectors %llu\n", s.destage_sectors);
	seq_printf(m, "flushes %llu\n", s.flushes);
	seq_printf(m, "read_sectors %llu\n", s.read_sectors);
	seq_printf(m, "write_sectors %llu\n", s.write_sectors);
	seq_printf(m, "seeks %llu\n", s.seeks);
	seq_printf(m, "seek_distance_tracks %llu\n", s.seek_tracks);
	seq_printf(m, "seek_ns %llu\n", s.seek_ns);
	seq_printf(m, "mean_seek_us %llu\n",
		   s.seeks ? div64_u64(s.seek_ns, s.seeks * 1000) : 0);
	seq_printf(m, "rot_wait_ns %llu\n", s.rot_ns);
	seq_printf(m, "transfer_ns %llu\n", s.xfer_ns);
	seq_printf(m, "busy_ns %llu\n", s.busy_ns);
	seq_printf(m, "streamed %llu\n", s.streamed);
	seq_printf(m, "timer_late_ns %llu\n", s.late_ns);
	seq_printf(m, "timer_max_late_ns %llu\n", s.max_late_ns);
	seq_printf(m, "cache_writes %llu\n", s.cache_writes);
	seq_printf(m, "cache_waits %llu\n", s.cache_waits);
	seq_printf(m, "cache_used_sectors %llu\n", cache_used);
	seq_printf(m, "zone_resets %llu\n", s.zone_resets);
	seq_printf(m, "zone_opens %llu\n", s.zone_opens);
	seq_printf(m, "zone_closes %llu\n", s.zone_closes);
	seq_printf(m, "zone_finishes %llu\n", s.zone_finishes);
	seq_printf(m, "zone_appends %llu\n", s.zone_appends);
	seq_printf(m, "zone_write_errors %llu\n", s.zone_write_errors);
	seq_printf(m, "requeues %llu\n", s.requeues);
	seq_printf(m, "cache_read_hits %llu\n", s.rc_hits);
	seq_printf(m, "cache_read_partial %llu\n", s.rc_partial);
	seq_printf(m, "cache_read_misses %llu\n", s.rc_misses);
	seq_printf(m, "cache_hit_sectors %llu\n", s.rc_hit_sectors);
	seq_printf(m, "cache_invalidations %llu\n", s.rc_invalidations);
	seq_printf(m, "readahead_starts %llu\n", s.ra_starts);
	seq_printf(m, "readahead_sectors %llu\n", s.ra_sectors);
	seq_printf(m, "readahead_ns %llu\n", s.ra_ns);
	return 0;
}

static int sd_stats_open(struct inode *inode, struct file *file)
{
	return single_open(file, sd_stats_show, inode->i_private);
}

static ssize_t sd_stats_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	struct sd_dev *dev = file_inode(file)->i_private;
	unsigned long flags;

	spin_lock_irqsave(&dev->lock, flags);
	memset(&dev->st, 0, sizeof(dev->st));
	spin_unlock_irqrestore(&dev->lock, flags);
	return count;
}

static const struct file_operations sd_stats_fops = {
	.owner		= THIS_MODULE,
	.open		= sd_stats_open,
	.read		= seq_read,
	.write		= sd_stats_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int sd_geometry_show(struct seq_file *m, void *v)
{
	struct sd_dev *dev = m->private;
	unsigned int z;

	seq_printf(m, "capacity_sectors %llu\n", (u64)dev->capacity);
	seq_printf(m, "rev_ns %llu\n", dev->rev_ns);
	seq_printf(m, "tracks %llu\n", dev->nr_tracks);
	seq_printf(m, "spt_outer %u\n", dev->band[0].spt);
	seq_printf(m, "spt_inner %u\n", dev->band[SD_NR_BANDS - 1].spt);
	seq_printf(m, "stream_ns %llu\n", sd_time(dev, dev->capacity));
	seq_printf(m, "read_segments %u\n", dev->segs ? read_segments : 0);
	seq_printf(m, "segment_sectors %llu\n", dev->seg_sectors);
	seq_printf(m, "zones %u\n", dev->nr_zones);
	seq_printf(m, "conv_zones %u\n", dev->nr_conv);
	if (dev->zones)
		for (z = dev->nr_conv; z < min(dev->nr_zones, dev->nr_conv + 4); z++)
			seq_printf(m, "zone %u wp %llu cond %u\n", z,
				   (u64)dev->zones[z].wp, dev->zones[z].cond);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sd_geometry);

/* Sequential zones that are not empty: number, write pointer offset, cond. */
static int sd_zones_show(struct seq_file *m, void *v)
{
	struct sd_dev *dev = m->private;
	unsigned long flags;
	struct sd_zone zn;
	unsigned int z;

	for (z = dev->nr_conv; z < dev->nr_zones; z++) {
		spin_lock_irqsave(&dev->lock, flags);
		zn = dev->zones[z];
		spin_unlock_irqrestore(&dev->lock, flags);
		if (zn.cond != BLK_ZONE_COND_EMPTY)
			seq_printf(m, "%u %llu %u\n", z,
				   (u64)(zn.wp - sd_zone_start(dev, z)), zn.cond);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sd_zones);

/* ---- setup ------------------------------------------------------------- */

static void sd_destroy(struct sd_dev *dev)
{
	unsigned long flags;

	if (dev->disk) {
		/* waits for every request, destaging what the cache holds */
		del_gendisk(dev->disk);
	}
	spin_lock_irqsave(&dev->lock, flags);
	dev->dying = true;
	spin_unlock_irqrestore(&dev->lock, flags);
	hrtimer_cancel(&dev->link_timer);
	hrtimer_cancel(&dev->act_timer);
	debugfs_remove_recursive(dev->dbg);
	if (dev->disk) {
		put_disk(dev->disk);
		blk_mq_free_tag_set(&dev->tag_set);
	}
	kvfree(dev->zones);
	kvfree(dev->dq);
	kfree(dev->segs);
	kfree(dev);
}

static int sd_create(int idx)
{
	struct sd_qparams qp = {
		.lbs = 512,
		.pbs = 4096,
		.max_sectors = max_io_kb * 2,
		.write_cache = write_cache,
	};
	struct sd_dev *dev;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	spin_lock_init(&dev->lock);
	INIT_LIST_HEAD(&dev->pending);
	INIT_LIST_HEAD(&dev->link_queue);
	INIT_LIST_HEAD(&dev->flushes);
	xd_hrtimer_setup(&dev->act_timer, sd_act_fire, CLOCK_MONOTONIC,
			 HRTIMER_MODE_ABS);
	xd_hrtimer_setup(&dev->link_timer, sd_link_fire, CLOCK_MONOTONIC,
			 HRTIMER_MODE_ABS);
	dev->capacity = div_u64((u64)capacity_gb * 1000000000ULL, 4096) * 8;
	dev->cache_cap = (u64)cache_mb << 11;
	dev->dq = kvcalloc(SD_DESTAGE_SLOTS, sizeof(*dev->dq), GFP_KERNEL);
	if (!dev->dq) {
		ret = -ENOMEM;
		goto out;
	}
	dev->ra_seg = -1;
	dev->la_seg = -1;
	if (read_cache) {
		dev->segs = kcalloc(read_segments, sizeof(*dev->segs),
				    GFP_KERNEL);
		if (!dev->segs) {
			ret = -ENOMEM;
			goto out;
		}
		dev->seg_sectors = (u64)segment_kb * 2;
	}
	if (zoned) {
		ret = sd_init_zones(dev);
		if (ret)
			goto out;
		qp.zone_sectors = 1U << dev->zone_shift;
		qp.max_append = min(qp.zone_sectors, qp.max_sectors);
	}
	sd_geometry(dev);

	dev->tag_set.ops = &sd_mq_ops;
	dev->tag_set.nr_hw_queues = 1;
	dev->tag_set.queue_depth = ncq_depth;
	dev->tag_set.numa_node = NUMA_NO_NODE;
	dev->tag_set.cmd_size = sizeof(struct sd_cmd);
	dev->tag_set.flags = SD_MQ_FLAGS;
	dev->tag_set.driver_data = dev;
	ret = blk_mq_alloc_tag_set(&dev->tag_set);
	if (ret)
		goto out;

	dev->disk = sd_alloc_disk(&dev->tag_set, &qp, dev);
	if (IS_ERR(dev->disk)) {
		ret = PTR_ERR(dev->disk);
		dev->disk = NULL;
		blk_mq_free_tag_set(&dev->tag_set);
		goto out;
	}
	dev->disk->major = sd_major;
	dev->disk->first_minor = idx;
	dev->disk->minors = 1;
	dev->disk->fops = &sd_fops;
	dev->disk->private_data = dev;
	snprintf(dev->disk->disk_name, DISK_NAME_LEN, "simdisk%d", idx);
	set_capacity(dev->disk, dev->capacity);
	if (zoned) {
		ret = sd_revalidate_zones(dev->disk, &qp);
		if (ret)
			goto out_disk;
	}
	ret = add_disk(dev->disk);
	if (ret)
		goto out_disk;

	dev->dbg = debugfs_create_dir(dev->disk->disk_name, sd_dbg_root);
	debugfs_create_file("stats", 0600, dev->dbg, dev, &sd_stats_fops);
	debugfs_create_file("geometry", 0400, dev->dbg, dev, &sd_geometry_fops);
	if (dev->zones)
		debugfs_create_file("zones", 0400, dev->dbg, dev, &sd_zones_fops);
	sd_devs[idx] = dev;
	pr_info("%s: %llu sectors, %llu tracks, %u rpm, %u-%u MB/s, ncq %u%s%s%s\n",
		dev->disk->disk_name, (u64)dev->capacity, dev->nr_tracks, rpm,
		outer_mbps, inner_mbps, ncq_depth,
		read_cache ? ", read cache" : "",
		write_cache ? ", write cache" : "", zoned ? ", zoned" : "");
	return 0;

out_disk:
	put_disk(dev->disk);
	dev->disk = NULL;
	blk_mq_free_tag_set(&dev->tag_set);
out:
	kvfree(dev->zones);
	kvfree(dev->dq);
	kfree(dev->segs);
	kfree(dev);
	return ret;
}

static int __init sd_init(void)
{
	unsigned int i;
	int ret;

	if (!nr_devices || nr_devices > SD_MAX_DEVICES || !rpm ||
	    !ncq_depth || !outer_mbps || inner_mbps > outer_mbps ||
	    !inner_mbps || !host_mbps || !capacity_gb || max_io_kb < 4 ||
	    (read_cache && (!read_segments || read_segments > SD_MAX_SEGMENTS ||
			    segment_kb < 4)) ||
	    (zoned && (!zone_size_mb || !is_power_of_2(zone_size_mb)))) {
		pr_err("invalid parameters\n");
		return -EINVAL;
	}
	sd_major = register_blkdev(0, "simdisk");
	if (sd_major < 0)
		return sd_major;
	sd_dbg_root = debugfs_create_dir("simdisk", NULL);
	for (i = 0; i < nr_devices; i++) {
		ret = sd_create(i);
		if (ret)
			goto fail;
	}
	return 0;
fail:
	while (i--)
		sd_destroy(sd_devs[i]);
	debugfs_remove_recursive(sd_dbg_root);
	unregister_blkdev(sd_major, "simdisk");
	return ret;
}

static void __exit sd_exit(void)
{
	unsigned int i;

	for (i = 0; i < nr_devices; i++)
		if (sd_devs[i])
			sd_destroy(sd_devs[i]);
	debugfs_remove_recursive(sd_dbg_root);
	unregister_blkdev(sd_major, "simdisk");
}

module_init(sd_init);
module_exit(sd_exit);
MODULE_DESCRIPTION("Simulated hard disk (seek, rotation, SMR zones) for I/O scheduler tests");
MODULE_LICENSE("GPL");
