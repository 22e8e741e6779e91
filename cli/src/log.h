/* SPDX-License-Identifier: GPL-2.0 */
/* Messages: stderr/stdout normally, syslog under udev (stderr is lost). */
#ifndef SCHEDCTL_LOG_H
#define SCHEDCTL_LOG_H

#include <stdbool.h>

void sc_log_syslog(bool on);
bool sc_log_is_syslog(void);
/* "schedctl: ..." on stderr, or LOG_ERR / LOG_WARNING. */
void sc_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Results: stdout, or LOG_INFO. */
void sc_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
