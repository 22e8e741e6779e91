/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hrtimer_setup() (6.13+) replaces hrtimer_init() plus setting .function;
 * keyed on the hrtimer_setup probe.  Shared by xbfq and the test driver
 * simdisk, which do not otherwise need the scheduler compat headers.
 */
#ifndef XD_HRTIMER_H
#define XD_HRTIMER_H

#include <linux/hrtimer.h>
#include "xd_features.h"

static inline void xd_hrtimer_setup(struct hrtimer *t,
				    enum hrtimer_restart (*fn)(struct hrtimer *),
				    clockid_t clock, enum hrtimer_mode mode)
{
#ifdef XD_HRTIMER_SETUP
	hrtimer_setup(t, fn, clock, mode);
#else
	hrtimer_init(t, clock, mode);
	t->function = fn;
#endif
}

#endif /* XD_HRTIMER_H */
