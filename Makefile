# SPDX-License-Identifier: GPL-2.0
#
# schedctl: I/O scheduler modules, control CLI, udev rules.
#
#   make                 build what can be built here (modules if headers
#                        for KVER exist)
#   make modules KVER=   build the scheduler modules for one kernel
#   make check           unit tests, checkpatch, and VM tests on Debian's
#                        6.1, 6.12 and newest kernels; last line
#                        "N passed, N failed"
#   make check-unit      the tests that need no VM
#   make check-vm KERNELS="6.1 7.x"
#   make demo            boot the newest kernel and show the schedulers
#
# Downloads and build roots are cached in $(SCHEDCTL_CACHE), never here.

KVER ?= $(shell uname -r)
KERNELS ?= 6.1 6.12 7.x
SCHEDCTL_CACHE ?= /var/cache/schedctl-dev
export SCHEDCTL_CACHE

all:
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

check-vm: deps
	tests/check.sh vm $(KERNELS)

demo: deps
	tests/vm/demo.sh

clean:
	rm -rf build kmod/generated
	-$(MAKE) -C kmod clean KVER=$(KVER) 2>/dev/null

.PHONY: all modules deps check check-unit check-vm demo clean
