/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one include for kernel types: public headers, then the private
 * block-layer types (generated from BTF, or the KSRC tree's block/ headers).
 */
#ifndef XD_KERNEL_H
#define XD_KERNEL_H

#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/seq_file.h>
#include <linux/debugfs.h>
#include <linux/rbtree.h>
#include <linux/sbitmap.h>
/* For the blkcg types (xbfq's control groups). */
#include <linux/cgroup.h>
#include <linux/u64_stats_sync.h>
#include "xd_private.h"

#endif /* XD_KERNEL_H */
