// SPDX-License-Identifier: GPL-2.0
#define _DEFAULT_SOURCE
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

static bool use_syslog;

void sc_log_syslog(bool on)
{
	if (on && !use_syslog)
		openlog("schedctl", LOG_PID, LOG_DAEMON);
	use_syslog = on;
}

bool sc_log_is_syslog(void)
{
	return use_syslog;
}

static void emit(int prio, FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	if (use_syslog) {
		vsyslog(prio, fmt, ap);
		return;
	}
	fputs(prefix, f);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
}

void sc_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(LOG_ERR, stderr, "schedctl: ", fmt, ap);
	va_end(ap);
}

void sc_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(LOG_WARNING, stderr, "schedctl: warning: ", fmt, ap);
	va_end(ap);
}

void sc_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit(LOG_INFO, stdout, "", fmt, ap);
	va_end(ap);
}
