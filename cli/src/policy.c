// SPDX-License-Identifier: GPL-2.0
/*
 * Why not libeconf: version 0.5.1 (Debian 12) reports a parse error as an
 * enum without file or line, silently joins duplicate keys, and keeps no
 * line numbers that would let us point at an unknown key or a bad value
 * later.
 *
 * Why inih (Debian 12: version 55): it splits "key = value" lines with a
 * callback per pair, and ini_parse_stream() takes our own fgets-style
 * reader, so every error can still say "FILE:LINE: what was expected".
 * reader() hands inih one physical line per call and counts them, so
 * handler() knows the line it is called for; it does the semantic checks
 * (known key, valid value, no duplicate) and keeps the first error.  A key
 * line inih refuses (no "=") is one for which handler() was not called
 * before the next read; ini_parse_stream()'s own error line is a fallback.
 *
 * What the reader keeps from inih v55 as built by Debian, and why:
 * - section headers: inih does not call the handler for a header (so an
 *   empty or misspelt section would go unnoticed), cuts section names at
 *   49 bytes (long [id:...] patterns), and accepts "[a] junk".  The reader
 *   parses "[...]" lines itself and hands inih an empty line instead.
 * - line length: inih's line buffer is INI_MAX_LINE = 200 bytes, and a
 *   longer line would go on as a new line with wrong line numbers.  The
 *   reader trims each line and hands over only key lines, so comments and
 *   headers may have SC_LINE_MAX bytes, key lines 198 (documented); a
 *   longer key line is an error naming the limit.
 * - white space: lines are trimmed before inih sees them, so an indented
 *   line is a line of its own, never inih's multi-line continuation;
 *   CRLF line ends go with the trimming.
 * - "name: value": inih accepts ":" for "="; handler() refuses it.
 * Taken from inih, documented in schedctl.conf(5): an inline comment in a
 * key line starts at a ";" after white space; a UTF-8 BOM at the start of
 * a file is skipped (the reader does it, whatever inih was built with).
 * Debian's inih also exports run-time switches (ini_allow_multiline, ...);
 * upstream's does not, so they are left alone.
 *
 * Format: "[kind:pattern]" or "[default]" section headers, "key = value"
 * lines, whole-line comments starting with # or ;, blank lines.
 *
 * Files, in the order read (later wins per key within the same section
 * rank): /usr/lib/schedctl/schedctl.conf, /etc/schedctl.conf, then the
 * drop-ins "*.conf" of /usr/lib/schedctl/schedctl.d and /etc/schedctl.d
 * sorted by file name, where an /etc drop-in masks the /usr/lib one of the
 * same name (a link to /dev/null masks it with nothing).  /etc/schedctl.conf
 * is layered over the vendor file rather than masking it, so the commented
 * template that "make install" puts there cannot switch the vendor
 * defaults off.
 */
#define _GNU_SOURCE
#include "policy.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <search.h>
#include <sys/stat.h>

#include <ini.h>

#include "keys.h"
#include "sysfs.h"

const char *const sc_sect_kinds[] = {
	"default", "class", "model", "serial", "wwn", "id", NULL,
};

static int rank(enum sc_sect_kind k)
{
	switch (k) {
	case SC_SECT_DEFAULT:
		return 0;
	case SC_SECT_CLASS:
		return 1;
	case SC_SECT_MODEL:
		return 2;
	default:
		return 3;	/* serial, wwn, id: one device */
	}
}

static int perr(char *err, size_t len, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int o = snprintf(err, len, "%s:%d: ", file, line);

	va_start(ap, fmt);
	if (o >= 0 && (size_t)o < len)
		vsnprintf(err + o, len - (size_t)o, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static const char *intern_file(struct sc_policy *p, const char *name)
{
	char **nf;

	for (size_t i = 0; i < p->nfiles; i++)
		if (!strcmp(p->files[i], name))
			return p->files[i];
	nf = realloc(p->files, (p->nfiles + 1) * sizeof(*nf));
	if (!nf)
		return NULL;
	p->files = nf;
	if (!(nf[p->nfiles] = strdup(name)))
		return NULL;
	return nf[p->nfiles++];
}

/*
 * fnmatch() cannot tell a malformed pattern from one that does not match:
 * "[model:ST[]" would silently match nothing.  NULL if pat is well formed
 * for fnmatch(pat, s, 0), else what is wrong with it.
 */
static const char *glob_error(const char *pat)
{
	for (const char *c = pat; *c; c++) {
		if (*c == '\\') {
			if (!c[1])
				return "ends with \"\\\"";
			c++;
		} else if (*c == '[') {
			const char *e = c + 1;

			if (*e == '!' || *e == '^')
				e++;
			if (*e == ']')
				e++;	/* a literal ] first */
			while (*e && *e != ']') {
				if (e[0] == '[' && (e[1] == ':' || e[1] == '.' || e[1] == '=')) {
					const char *close = strchr(e + 2, e[1]);

					if (!close || close[1] != ']')
						return "has an unclosed \"[:\" class";
					e = close + 2;
					continue;
				}
				e++;
			}
			if (!*e)
				return "has an unclosed \"[\"";
			c = e;
		}
	}
	return NULL;
}

static int parse_header(char *h, const char *file, int line, enum sc_sect_kind *kind,
			char **pattern, char *err, size_t len)
{
	char *colon, *pat;
	int k;

	h = trim(h);
	if (!strcmp(h, "default")) {
		*kind = SC_SECT_DEFAULT;
		*pattern = NULL;
		return 0;
	}
	colon = strchr(h, ':');
	if (!colon)
		return perr(err, len, file, line,
			    "expected [default] or [KIND:PATTERN] with KIND one of class, model, serial, wwn, id; got [%s]",
			    h);
	*colon = '\0';
	pat = trim(colon + 1);
	h = trim(h);
	for (k = 1; sc_sect_kinds[k]; k++)
		if (!strcmp(sc_sect_kinds[k], h))
			break;
	if (!sc_sect_kinds[k])
		return perr(err, len, file, line,
			    "unknown section kind \"%s\" (expected default, class, model, serial, wwn or id)",
			    h);
	if (!*pat)
		return perr(err, len, file, line, "empty pattern in [%s:]", h);
	if (glob_error(pat))
		return perr(err, len, file, line, "pattern \"%s\" %s (a literal [ is \"\\[\")",
			    pat, glob_error(pat));
	if (k == SC_SECT_CLASS && !strpbrk(pat, "*?[") && !sc_class_valid(pat)) {
		char list[256] = "";

		for (const char *const *c = sc_classes; *c; c++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 c == sc_classes ? "" : ", ", *c);
		return perr(err, len, file, line, "unknown class \"%s\" (expected one of %s)",
			    pat, list);
	}
	*kind = (enum sc_sect_kind)k;
	*pattern = strdup(pat);
	return *pattern ? 0 : -ENOMEM;
}

/*
 * Lookups while one file is parsed, with tsearch(3) trees so that parsing
 * is O(n log n), not quadratic: the sections of this file by header, and
 * the keys of each section (duplicates are errors).
 */
struct sect_node {
	enum sc_sect_kind kind;
	const char *pattern;	/* owned by the section; NULL for [default] */
	size_t i;		/* index in p->s */
};

struct key_node {
	size_t sec;		/* index in p->s */
	const char *key;	/* owned by the entry */
	int line;
};

static int sect_cmp(const void *a, const void *b)
{
	const struct sect_node *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (!x->pattern || !y->pattern)
		return !!x->pattern - !!y->pattern;
	return strcmp(x->pattern, y->pattern);
}

static int key_cmp(const void *a, const void *b)
{
	const struct key_node *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return strcmp(x->key, y->key);
}

static void node_free(void *n)
{
	free(n);
}

/* State shared by the reader and the handler of one ini_parse_stream(). */
struct pctx {
	struct sc_policy *p;
	const char *file;
	const char *pos;	/* the text not yet read */
	int line;		/* physical line last read */
	size_t cur;		/* index of the current section, (size_t)-1 before one */
	bool pending;		/* a key line went to inih, no handler call yet */
	char *s;		/* the line last read, trimmed (points into raw) */
	char raw[SC_LINE_MAX + 1];
	char *err;
	size_t len;
	int r;			/* the first error, 0 while there is none */
	void *sects;		/* struct sect_node tree */
	void *keys;		/* struct key_node tree */
};

static int start_section(struct pctx *c, char *s)
{
	enum sc_sect_kind kind = SC_SECT_DEFAULT;
	char *pattern = NULL, *end = s + strlen(s) - 1;
	struct sc_section *sec, *ns;
	int r;

	if (*end != ']')
		return perr(c->err, c->len, c->file, c->line,
			    "expected \"]\" at the end of the section header");
	*end = '\0';
	r = parse_header(s + 1, c->file, c->line, &kind, &pattern, c->err, c->len);
	if (r)
		return r;
	{
		struct sect_node want = { kind, pattern, 0 }, **found;

		found = tfind(&want, &c->sects, sect_cmp);
		if (found) {	/* same header again in this file: continue it */
			free(pattern);
			c->cur = (*found)->i;
			return 0;
		}
	}
	if (c->p->n == c->p->cap) {
		size_t cap = c->p->cap ? c->p->cap * 2 : 16;

		ns = realloc(c->p->s, cap * sizeof(*ns));
		if (!ns) {
			free(pattern);
			return -ENOMEM;
		}
		c->p->s = ns;
		c->p->cap = cap;
	}
	sec = &c->p->s[c->p->n];
	memset(sec, 0, sizeof(*sec));
	sec->kind = kind;
	sec->pattern = pattern;
	sec->file = c->file;
	sec->line = c->line;
	if (asprintf(&sec->name, "%s%s%s", sc_sect_kinds[kind],
		     pattern ? ":" : "", pattern ? pattern : "") < 0) {
		sec->name = NULL;
		free(pattern);
		return -ENOMEM;
	}
	{
		struct sect_node *node = malloc(sizeof(*node));

		if (node)
			*node = (struct sect_node){ kind, pattern, c->p->n };
		if (!node || !tsearch(node, &c->sects, sect_cmp)) {
			free(node);
			free(sec->name);
			free(pattern);
			return -ENOMEM;
		}
	}
	c->cur = c->p->n++;
	return 0;
}

/* A key line inih did not pass to the handler: it has no "=". */
static int syntax_error(struct pctx *c)
{
	return perr(c->err, c->len, c->file, c->line,
		    "expected \"key = value\" or \"[section]\", got \"%.64s\"", c->s);
}

/* inih's fgets-style reader: one physical line per call, so inih's line
 * numbers are ours.  See the comment at the top for what it keeps from
 * inih and why. */
static char *reader(char *buf, int num, void *stream)
{
	struct pctx *c = stream;
	const char *nl;
	size_t ll;

	if (c->pending && !c->r)
		c->r = syntax_error(c);
	if (c->r || !*c->pos)
		return NULL;
	nl = strchr(c->pos, '\n');
	ll = nl ? (size_t)(nl - c->pos) : strlen(c->pos);
	c->line++;
	if (ll > SC_LINE_MAX) {
		c->r = perr(c->err, c->len, c->file, c->line, "line longer than %d bytes",
			    SC_LINE_MAX);
		return NULL;
	}
	memcpy(c->raw, c->pos, ll);
	c->raw[ll] = '\0';
	c->pos += ll + (nl ? 1 : 0);
	c->s = c->raw;
	if (c->line == 1 && !strncmp(c->s, "\xef\xbb\xbf", 3))
		c->s += 3;	/* a UTF-8 byte order mark */
	c->s = trim(c->s);	/* CR too; inih sees no indented lines */
	buf[0] = '\0';
	if (!*c->s || *c->s == '#' || *c->s == ';')
		return buf;
	if (*c->s == '[') {
		c->r = start_section(c, c->s);
		return c->r ? NULL : buf;
	}
	/* room for the line, '\n' (so that a growing buffer stops) and '\0' */
	if (num < 3 || strlen(c->s) > (size_t)num - 2) {
		c->r = perr(c->err, c->len, c->file, c->line,
			    "\"key = value\" line longer than %d bytes", num - 2);
		return NULL;
	}
	snprintf(buf, (size_t)num, "%s\n", c->s);
	c->pending = true;
	return buf;
}

/* Called by inih for each "name = value" (or "name: value") line. */
static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct pctx *c = user;
	const char *eq = strchr(c->s, '='), *colon = strchr(c->s, ':');
	char rawkey[SC_LINE_MAX + 1], kerr[256];
	struct sc_section *sec;
	struct sc_entry *ne;
	struct sc_key k;

	(void)section;	/* ours is c->cur: see start_section() */
	c->pending = false;
	if (c->r)
		return 0;
	if (colon && (!eq || colon < eq)) {
		/* inih's "name: value"; not ours, the key ends at "=" */
		if (!eq) {
			c->r = syntax_error(c);
			return 0;
		}
		snprintf(rawkey, sizeof(rawkey), "%.*s", (int)(eq - c->s), c->s);
		name = trim(rawkey);
	}
	if (c->cur == (size_t)-1) {
		c->r = perr(c->err, c->len, c->file, c->line,
			    "\"%s\" outside a section (start with [default] or [class:...])", name);
		return 0;
	}
	if (!*name) {
		c->r = perr(c->err, c->len, c->file, c->line, "missing key before \"=\"");
		return 0;
	}
	if (sc_key_parse(name, &k, kerr, sizeof(kerr))) {
		c->r = perr(c->err, c->len, c->file, c->line, "%s", kerr);
		return 0;
	}
	if (!*value) {
		c->r = perr(c->err, c->len, c->file, c->line, "%s: expected a value after \"=\"", name);
		return 0;
	}
	if (sc_value_check(&k, value, kerr, sizeof(kerr))) {
		c->r = perr(c->err, c->len, c->file, c->line, "%s: %s", name, kerr);
		return 0;
	}
	sec = &c->p->s[c->cur];
	{
		struct key_node want = { c->cur, name, 0 }, **found;

		found = tfind(&want, &c->keys, key_cmp);
		if (found) {
			c->r = perr(c->err, c->len, c->file, c->line,
				    "duplicate key \"%s\" in [%s] (first set at line %d)",
				    name, sec->name, (*found)->line);
			return 0;
		}
	}
	if (sec->n == sec->cap) {
		size_t cap = sec->cap ? sec->cap * 2 : 8;

		ne = realloc(sec->e, cap * sizeof(*ne));
		if (!ne) {
			c->r = -ENOMEM;
			return 0;
		}
		sec->e = ne;
		sec->cap = cap;
	}
	ne = sec->e;
	ne[sec->n].key = strdup(name);
	ne[sec->n].value = strdup(value);
	ne[sec->n].line = c->line;
	if (!ne[sec->n].key || !ne[sec->n].value) {
		free(ne[sec->n].key);
		free(ne[sec->n].value);
		c->r = -ENOMEM;
		return 0;
	}
	{
		struct key_node *node = malloc(sizeof(*node));

		if (node)
			*node = (struct key_node){ c->cur, ne[sec->n].key, c->line };
		if (!node || !tsearch(node, &c->keys, key_cmp)) {
			free(node);
			free(ne[sec->n].key);
			free(ne[sec->n].value);
			c->r = -ENOMEM;
			return 0;
		}
	}
	sec->n++;
	return 1;
}

static void free_section(struct sc_section *s)
{
	for (size_t j = 0; j < s->n; j++) {
		free(s->e[j].key);
		free(s->e[j].value);
	}
	free(s->e);
	free(s->pattern);
	free(s->name);
}

int sc_policy_parse(struct sc_policy *p, const char *name, const char *text,
		    char *err, size_t len)
{
	size_t nsect = p->n, nfiles = p->nfiles;
	struct pctx *c;
	int r;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->p = p;
	c->file = intern_file(p, name);
	c->pos = text;
	c->cur = (size_t)-1;
	c->err = err;
	c->len = len;
	if (!c->file) {
		free(c);
		return -ENOMEM;
	}
	r = ini_parse_stream(reader, c, handler, c);
	if (c->pending && !c->r)	/* the last line */
		c->r = syntax_error(c);
	if (!c->r && r > 0)	/* not expected: every line inih refuses is caught above */
		c->r = perr(err, len, c->file, r, "expected \"key = value\" or \"[section]\"");
	else if (!c->r && r < 0)
		c->r = -ENOMEM;
	r = c->r;
	tdestroy(c->sects, node_free);
	tdestroy(c->keys, node_free);
	free(c);
	if (r) {	/* all or nothing: drop what this file added */
		while (p->n > nsect)
			free_section(&p->s[--p->n]);
		if (p->nfiles > nfiles)
			free(p->files[--p->nfiles]);
	}
	return r;
}

int sc_policy_parse_file(struct sc_policy *p, const char *abs, const char *shown, bool rooted,
			 char *err, size_t len)
{
	char *text = NULL;
	size_t n = 0;
	const char *nul;
	int r = sc_read_conf(abs, rooted, SC_POLICY_MAX, &text, &n);

	if (r == -EINVAL)
		snprintf(err, len, "%s: not a regular file (skipped unread)", shown);
	else if (r == -EFBIG)
		snprintf(err, len, "%s: larger than %d bytes (skipped unread)", shown, SC_POLICY_MAX);
	else if (r)
		snprintf(err, len, "%s: %s", shown, strerror(-r));
	else if ((nul = memchr(text, '\0', n))) {
		int line = 1;

		for (const char *c = text; c < nul; c++)
			line += *c == '\n';
		r = perr(err, len, shown, line, "NUL byte (a binary file?)");
	} else {
		r = sc_policy_parse(p, shown, text, err, len);
	}
	free(text);
	if (r && sc_strv_pushf(&p->errs, &p->nerrs, "%s", err))
		return -ENOMEM;
	return r;
}

/* A configured file: missing is fine. */
static int parse_file(struct sc_policy *p, const char *abs, char *err, size_t len)
{
	if (!sc_exists(abs)) {
		char *full = sc_path(abs);
		struct stat st;
		bool dangling = full && !lstat(full, &st);

		free(full);
		if (!dangling)
			return 0;
	}
	return sc_policy_parse_file(p, abs, abs, true, err, len);
}

/* A drop-in directory: missing is fine, anything else that cannot be
 * listed is an error. */
static int list_dropins(struct sc_policy *p, const char *dir, char ***v, size_t *n)
{
	int r = sc_list_dir(dir, v, n);

	if (!r || r == -ENOENT)
		return 0;
	if (r == -ENOTDIR)
		return sc_strv_pushf(&p->errs, &p->nerrs, "%s: not a directory (skipped)", dir);
	return sc_strv_pushf(&p->errs, &p->nerrs, "%s: %s", dir, strerror(-r));
}

static int ends_with(const char *s, const char *suf)
{
	size_t l = strlen(s), sl = strlen(suf);

	return l > sl && !strcmp(s + l - sl, suf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sc_policy_load(struct sc_policy *p, const char *only, char *err, size_t len)
{
	char **v = NULL, **w = NULL, **all = NULL;
	size_t nv = 0, nw = 0, na = 0;
	int r = 0;

	memset(p, 0, sizeof(*p));
	err[0] = '\0';
	if (only)	/* an explicit file is a user path, not one under the root */
		return sc_policy_parse_file(p, only, only, false, err, len);
	parse_file(p, SC_VENDOR_CONF, err, len);
	parse_file(p, SC_ADMIN_CONF, err, len);
	if (list_dropins(p, SC_VENDOR_DIR, &v, &nv) || list_dropins(p, SC_ADMIN_DIR, &w, &nw)) {
		r = -ENOMEM;
		goto out;
	}
	/* the union of names; /etc wins for a name in both */
	all = calloc(nv + nw + 1, sizeof(*all));
	if (!all) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nv; i++)
		all[na++] = v[i];
	for (size_t i = 0; i < nw; i++)
		all[na++] = w[i];
	if (na)
		qsort(all, na, sizeof(*all), cmp_str);
	for (size_t i = 0; i < na; i++) {
		bool admin = bsearch(&all[i], w, nw, sizeof(*w), cmp_str) != NULL;
		char *path;

		/* hidden files (editors' ".#x.conf") are not read */
		if (all[i][0] == '.' || !ends_with(all[i], ".conf") ||
		    (i > 0 && !strcmp(all[i], all[i - 1])))
			continue;
		if (asprintf(&path, "%s/%s", admin ? SC_ADMIN_DIR : SC_VENDOR_DIR, all[i]) < 0) {
			r = -ENOMEM;
			break;
		}
		if (sc_policy_parse_file(p, path, path, true, err, len) == -ENOMEM)
			r = -ENOMEM;
		free(path);
		if (r)
			break;
	}
out:
	free(all);
	sc_strv_free(v, nv);
	sc_strv_free(w, nw);
	if (!r && p->nerrs) {
		snprintf(err, len, "%s", p->errs[0]);
		r = -EINVAL;
	}
	return r;
}

void sc_policy_free(struct sc_policy *p)
{
	for (size_t i = 0; i < p->n; i++)
		free_section(&p->s[i]);
	free(p->s);
	sc_strv_free(p->files, p->nfiles);
	sc_strv_free(p->errs, p->nerrs);
	memset(p, 0, sizeof(*p));
}

static bool glob(const char *pat, const char *s)
{
	return s && fnmatch(pat, s, 0) == 0;
}

static bool matches(const struct sc_section *s, const struct sc_device *d, const char *cls)
{
	switch (s->kind) {
	case SC_SECT_DEFAULT:
		return true;
	case SC_SECT_CLASS:
		return glob(s->pattern, cls);
	case SC_SECT_MODEL:
		return glob(s->pattern, d->model) || glob(s->pattern, sc_prop(d, "ID_MODEL"));
	case SC_SECT_SERIAL:
		return glob(s->pattern, d->serial) || glob(s->pattern, sc_prop(d, "ID_SERIAL")) ||
		       glob(s->pattern, sc_prop(d, "ID_SERIAL_SHORT"));
	case SC_SECT_WWN:
		return glob(s->pattern, d->wwn) || glob(s->pattern, sc_prop(d, "ID_WWN"));
	case SC_SECT_ID:
		for (size_t i = 0; i < d->nids; i++)
			if (glob(s->pattern, d->ids[i]))
				return true;
		return false;
	}
	return false;
}

int sc_policy_resolve(const struct sc_policy *p, const struct sc_device *d,
		      const char *cls, struct sc_resolved *r)
{
	const struct sc_section **m;
	size_t nm = 0;

	memset(r, 0, sizeof(*r));
	m = calloc(p->n + 1, sizeof(*m));
	r->set = calloc(1, sizeof(*r->set));	/* grown below */
	if (!m || !r->set) {
		free(m);
		free(r->set);
		r->set = NULL;
		return -ENOMEM;
	}
	/* Stable by rank: file order decides within a rank. */
	for (int rk = 0; rk <= 3; rk++)
		for (size_t i = 0; i < p->n; i++)
			if (rank(p->s[i].kind) == rk && matches(&p->s[i], d, cls))
				m[nm++] = &p->s[i];
	r->matched = m;
	r->nmatched = nm;
	{
		/* key -> index in r->set: struct key_node with sec as the index */
		void *idx = NULL;
		size_t cap = 1;
		int err = 0;

		for (size_t i = 0; i < nm && !err; i++) {
			for (size_t j = 0; j < m[i]->n && !err; j++) {
				const struct sc_entry *e = &m[i]->e[j];
				struct key_node want = { 0, e->key, 0 }, *node, **found;
				size_t k;

				found = tfind(&want, &idx, key_cmp);
				if (found) {
					k = (*found)->line;
				} else {
					if (r->n == cap) {
						struct sc_setting *ns = realloc(r->set, cap * 2 * sizeof(*ns));

						if (!ns) {
							err = -ENOMEM;
							break;
						}
						r->set = ns;
						cap *= 2;
					}
					k = r->n;
					node = malloc(sizeof(*node));
					if (node)
						*node = (struct key_node){ 0, e->key, (int)k };
					if (!node || !tsearch(node, &idx, key_cmp)) {
						free(node);
						err = -ENOMEM;
						break;
					}
					r->n++;
				}
				r->set[k] = (struct sc_setting){ e->key, e->value, m[i], e->line };
			}
		}
		tdestroy(idx, node_free);
		if (err)
			return err;
	}
	/* scheduler first: knobs depend on it */
	for (size_t k = 1; k < r->n; k++)
		if (!strcmp(r->set[k].key, "scheduler")) {
			struct sc_setting t = r->set[k];

			memmove(&r->set[1], &r->set[0], k * sizeof(t));
			r->set[0] = t;
			break;
		}
	r->won = calloc(nm + 1, sizeof(*r->won));
	if (!r->won)
		return -ENOMEM;
	for (size_t i = nm; i-- > 0;) {
		bool gave = false;

		for (size_t k = 0; k < r->n && !gave; k++)
			gave = r->set[k].from == m[i];
		if (gave)
			r->won[r->nwon++] = m[i];
	}
	return 0;
}

void sc_resolved_free(struct sc_resolved *r)
{
	free(r->set);
	free(r->won);
	free(r->matched);
	memset(r, 0, sizeof(*r));
}

char *sc_resolved_name(const struct sc_resolved *r)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	if (!r->nwon)
		return strdup("-");
	f = open_memstream(&out, &len);
	if (!f)
		return NULL;
	for (size_t i = 0; i < r->nwon; i++)
		fprintf(f, "%s%s", i ? "+" : "", r->won[i]->name);
	fclose(f);
	return out;
}
