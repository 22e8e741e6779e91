// SPDX-License-Identifier: GPL-2.0
/* 6.13+: hrtimer_setup() replaces hrtimer_init() plus setting .function. */
#include <linux/hrtimer.h>
_Static_assert(__builtin_types_compatible_p(typeof(&hrtimer_setup),
	void (*)(struct hrtimer *, enum hrtimer_restart (*)(struct hrtimer *),
		 clockid_t, enum hrtimer_mode)), "");
