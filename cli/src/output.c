// SPDX-License-Identifier: GPL-2.0
#define _DEFAULT_SOURCE
#include "output.h"

#include <errno.h>
#include <libsmartcols.h>
#include <stdlib.h>

struct sc_out {
	struct libscols_table *tb;
	size_t ncols;
};

struct sc_out *sc_out_new(const char *name, const struct sc_out_col *cols, size_t ncols,
			  bool json, bool noheadings)
{
	struct sc_out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->tb = scols_new_table();
	if (!o->tb) {
		free(o);
		return NULL;
	}
	o->ncols = ncols;
	scols_table_set_name(o->tb, name);
	scols_table_enable_json(o->tb, json);
	scols_table_enable_noheadings(o->tb, noheadings);
	for (size_t i = 0; i < ncols; i++) {
		struct libscols_column *cl;

		cl = scols_table_new_column(o->tb, cols[i].name, 0,
					    cols[i].right ? SCOLS_FL_RIGHT : 0);
		if (!cl) {
			sc_out_free(o);
			return NULL;
		}
		if (cols[i].number)
			scols_column_set_json_type(cl, SCOLS_JSON_NUMBER);
	}
	return o;
}

int sc_out_row(struct sc_out *o, const char *const *vals)
{
	struct libscols_line *ln = scols_table_new_line(o->tb, NULL);

	if (!ln)
		return -ENOMEM;
	for (size_t i = 0; i < o->ncols; i++)
		if (vals[i] && scols_line_set_data(ln, i, vals[i]))
			return -ENOMEM;
	return 0;
}

int sc_out_print(struct sc_out *o)
{
	return scols_print_table(o->tb);
}

void sc_out_free(struct sc_out *o)
{
	if (!o)
		return;
	scols_unref_table(o->tb);
	free(o);
}
