/* SPDX-License-Identifier: GPL-2.0 */
/* Policy files: parsing, precedence across files, matching devices. */
#ifndef SCHEDCTL_POLICY_H
#define SCHEDCTL_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "classify.h"
#include "device.h"

#define SC_VENDOR_CONF "/usr/lib/schedctl/schedctl.conf"
#define SC_VENDOR_DIR "/usr/lib/schedctl/schedctl.d"
#define SC_ADMIN_CONF "/etc/schedctl.conf"
#define SC_ADMIN_DIR "/etc/schedctl.d"
#define SC_LINE_MAX 4096

/* Section kinds, least specific first; the value is the rank. */
enum sc_sect_kind {
	SC_SECT_DEFAULT,
	SC_SECT_CLASS,
	SC_SECT_MODEL,
	SC_SECT_SERIAL,
	SC_SECT_WWN,
	SC_SECT_ID,
};
extern const char *const sc_sect_kinds[];	/* "default", "class", ... */

struct sc_entry {
	char *key;
	char *value;
	int line;
};

struct sc_section {
	enum sc_sect_kind kind;
	char *pattern;		/* glob; NULL for [default] */
	char *name;		/* "class:hdd" as written, for messages */
	const char *file;	/* owned by sc_policy.files */
	int line;
	struct sc_entry *e;
	size_t n, cap;
};

struct sc_policy {
	struct sc_section *s;
	size_t n, cap;
	char **files;		/* in the order read, without those skipped */
	size_t nfiles;
	char **errs;		/* one per file skipped: "FILE:LINE: message" */
	size_t nerrs;
};

/* A policy file is read only if it is a regular file of at most this size. */
#define SC_POLICY_MAX (4 * 1024 * 1024)

struct sc_setting {
	const char *key;
	const char *value;
	const struct sc_section *from;
	int line;
};

struct sc_resolved {
	struct sc_setting *set;	/* scheduler first, then in order seen */
	size_t n;
	const struct sc_section **won;	/* sections that gave a setting, most specific first */
	size_t nwon;
	const struct sc_section **matched;
	size_t nmatched;
};

/* Parse text as if it were file 'name'; appends to p.
 * On error: -EINVAL and err = "name:line: message". */
int sc_policy_parse(struct sc_policy *p, const char *name, const char *text,
		    char *err, size_t len);
/* Parse file 'abs' (under the root if rooted, else a user's path), shown
 * as 'shown'.  A file with an error adds nothing to p: its error is added
 * to p->errs, and returned as for sc_policy_parse. */
int sc_policy_parse_file(struct sc_policy *p, const char *abs, const char *shown, bool rooted,
			 char *err, size_t len);
/*
 * Read the configured files (or just 'only', a path as given).  A file
 * with an error is skipped and the others are read: then -EINVAL, err the
 * first error and p->errs every one; p holds the files that were good.
 */
int sc_policy_load(struct sc_policy *p, const char *only, char *err, size_t len);
void sc_policy_free(struct sc_policy *p);

int sc_policy_resolve(const struct sc_policy *p, const struct sc_device *d,
		      const char *cls, struct sc_resolved *r);
void sc_resolved_free(struct sc_resolved *r);
/* "id:ata-X+class:hdd" (won sections, most specific first) or "-". */
char *sc_resolved_name(const struct sc_resolved *r);

#endif
