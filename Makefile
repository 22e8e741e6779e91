# SPDX-License-Identifier: GPL-2.0
#
# schedctl: I/O scheduler modules, control CLI, udev rules.
#
#   make                 build what can be built here: the CLI where its
#                        libraries are installed (make deps), the modules
#                        where headers for KVER exist
#   make modules KVER=   build the scheduler modules for one kernel
#   make check           unit tests, checkpatch, packaging, and the VM
#                        tests and blktests on Debian's 6.1, 6.12 and
#                        newest kernels and the debug kernel (lockdep,
#                        KASAN, kmemleak, fault injection), built from
#                        Debian's source; KERNELS= picks labels; last line
#                        "N passed, N failed"
#   make check-unit      the tests that need no VM
#   make check-vm KERNELS="6.1 7.x"
#   make check-blktests KERNELS="6.1 7.x"
#                        blktests (the upstream block-layer suite) in
#                        QEMU with our schedulers; BLKTESTS_SRC= a tree
#   make demo            boot the newest kernel and show the schedulers
#   make cli             build the schedctl CLI into build/cli/
#   make install         DESTDIR= PREFIX=/usr: CLI, udev rule, policy, man
#                        pages, module sources for DKMS
#   make uninstall       remove what install put there
#   make deb / make rpm  build the packages into build/deb, build/rpm
#   make bench           the benchmarks (KERNEL=7.x), not part of check;
#                        SVG charts in build/bench/charts-KERNEL/
#   make bench-icount    instructions per I/O under -icount and the lock
#                        model (KERNELS, default all three)
#   make bench-mttcg     two CPUs in parallel, multi-threaded TCG (KERNELS,
#                        default 7.x 6.1; an idle host)
#   make bench-lockstat  the scheduler lock's contention per 1000 I/Os,
#                        every scheduler, from the debug kernel's lock_stat
#   make bench-bundle    a self-contained archive for many-core hosts
#                        (KERNELS, default 7.x 6.1)
#
# Downloads and build roots are cached in $(SCHEDCTL_CACHE), never here.

KVER ?= $(shell uname -r)
PREFIX ?= /usr
DESTDIR ?=
VERSION := $(shell cat $(CURDIR)/VERSION)
SRCDIR = $(DESTDIR)$(PREFIX)/src/schedctl-$(VERSION)
KERNELS ?= 6.1 6.12 7.x debug
KERNEL ?= 7.x
SCHEDCTL_CACHE ?= /var/cache/schedctl-dev
export SCHEDCTL_CACHE

CLI_LIBS := smartcols libudev libkmod inih libnl-genl-3.0 json-c

all:
	@if pkg-config --exists $(CLI_LIBS) 2>/dev/null; then $(MAKE) cli; \
	else echo "missing libraries for the CLI: skipping it (make deps installs them;" \
		"pkg-config: $(CLI_LIBS))"; fi
	@if [ -d /lib/modules/$(KVER)/build ]; then $(MAKE) modules; \
	else echo "no headers for $(KVER): skipping modules (make modules KVER=...)"; fi

modules:
	$(MAKE) -C kmod KVER=$(KVER)

deps:
	tests/install-deps.sh

check: deps
	tests/check.sh all $(KERNELS)

check-unit: deps
	tests/check.sh unit

check-packaging: deps
	tests/check.sh packaging

check-vm: deps
	tests/check.sh vm $(KERNELS)

check-blktests: deps
	tests/check.sh blktests $(KERNELS)

demo: deps
	tests/vm/demo.sh

cli:
	$(MAKE) -C cli

# The module sources as DKMS builds them: kmod/ without build outputs.
KMOD_SOURCES = $(shell cd kmod && find . -name generated -prune -o -type f \
	\( -name '*.[ch]' -o -name '*.py' -o -name '*.spec' -o -name Kbuild \
	-o -name Makefile \) -print | sort)

install: cli
	$(MAKE) -C cli install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)
	for f in $(KMOD_SOURCES); do \
		install -D -m 0644 kmod/$$f $(SRCDIR)/$$f || exit 1; \
	done
	chmod 0755 $(SRCDIR)/compat/btfgen.py
	sed 's/#MODULE_VERSION#/$(VERSION)/' packaging/dkms.conf >$(SRCDIR)/dkms.conf
	install -D -m 0644 man/xdeadline.4 $(DESTDIR)$(PREFIX)/share/man/man4/xdeadline.4
	install -D -m 0644 man/xbfq.4 $(DESTDIR)$(PREFIX)/share/man/man4/xbfq.4

uninstall:
	$(MAKE) -C cli uninstall DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)
	rm -rf $(SRCDIR)
	rm -f $(DESTDIR)$(PREFIX)/share/man/man4/xdeadline.4 $(DESTDIR)$(PREFIX)/share/man/man4/xbfq.4

# Every file git tracks or would track (committed or not), nothing ignored.
dist:
	mkdir -p build/dist
	git ls-files -co --exclude-standard | sort | \
		tar -czf build/dist/schedctl-$(VERSION).tar.gz \
		--transform 's,^,schedctl-$(VERSION)/,' -T -

deb: dist
	packaging/build-deb.sh $(VERSION)

rpm: dist
	packaging/build-rpm.sh $(VERSION)

bench: deps
	bench/run.sh $(KERNEL)
	bench/plot.py build/bench/$(KERNEL).json --out build/bench/charts-$(KERNEL)

bench-icount: deps
	bench/icount.sh $(if $(filter command line,$(origin KERNELS)),$(KERNELS),6.1 6.12 7.x)

bench-mttcg: deps
	bench/mttcg.sh $(if $(filter command line,$(origin KERNELS)),$(KERNELS),7.x 6.1)

bench-lockstat: deps
	bench/lockstat.sh

bench-startup: deps
	bench/xbfq-startup.sh $(if $(filter command line,$(origin KERNELS)),$(KERNELS),7.x 6.1 6.12)

bench-raising: deps
	VM_APPEND="xd.scale=300 xd.test_timeout=3000 $(VM_APPEND)" \
		bench/xbfq-raising.sh $(if $(filter command line,$(origin KERNELS)),$(KERNELS),7.x 6.1 6.12)

bench-tagwait: deps
	bench/xbfq-tagwait.sh $(if $(filter command line,$(origin KERNELS)),$(KERNELS),7.x 6.1 6.12)

bench-selftest: deps
	bench/selftest.sh $(KERNEL)

bench-bundle: deps
	bench/bundle.sh $(if $(filter command line,$(origin KERNELS)),$(KERNELS),7.x 6.1)

clean:
	rm -rf build kmod/generated
	-$(MAKE) -C kmod clean KVER=$(KVER) 2>/dev/null

.PHONY: all modules deps check check-unit check-packaging check-vm check-blktests demo cli install uninstall \
	dist deb rpm bench bench-icount bench-mttcg bench-lockstat bench-selftest bench-bundle bench-startup bench-raising bench-tagwait clean
