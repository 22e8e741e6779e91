/* SPDX-License-Identifier: GPL-2.0 */
/* Tables and JSON through libsmartcols. */
#ifndef SCHEDCTL_OUTPUT_H
#define SCHEDCTL_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

struct sc_out_col {
	const char *name;
	const char *help;
	bool number;		/* JSON number */
	bool right;
};

struct sc_out;

/* name: the JSON top-level array ("blockdevices"). */
struct sc_out *sc_out_new(const char *name, const struct sc_out_col *cols, size_t ncols,
			  bool json, bool noheadings);
/* One row; vals[i] NULL prints empty (JSON null). */
int sc_out_row(struct sc_out *o, const char *const *vals);
int sc_out_print(struct sc_out *o);
void sc_out_free(struct sc_out *o);

#endif
