# SPDX-License-Identifier: GPL-2.0
# Shared settings for the VM harness scripts (sourced, not run).
#
# Everything downloaded or built for the harness lives under $SCHEDCTL_CACHE,
# outside the repository, so CI can keep it between runs.

SCHEDCTL_CACHE=${SCHEDCTL_CACHE:-/var/cache/schedctl-dev}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${SECURITY_MIRROR:-http://deb.debian.org/debian-security}
VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$VM_DIR/../.." && pwd)

msg() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { msg "error: $*"; exit 1; }

# cache_lock: hold the cache's fetch lock until the calling script exits.
# The scripts that download or unpack into $SCHEDCTL_CACHE take it, so the
# VM suite and the blktests lane, running side by side, never fetch, unpack
# or apt-get update the same thing at once.  Leaf scripts only (a script
# holding it must not run another that takes it).
cache_lock() {
	mkdir -p "$SCHEDCTL_CACHE"
	exec 7>"$SCHEDCTL_CACHE/.fetch.lock"
	flock 7
}

# vm_slot CMD...: run CMD (one QEMU guest) in one of the host's VM slots,
# waiting until one is free.  A TCG guest keeps a host CPU busy and the
# tests' timing assertions need theirs, so at most VM_SLOTS guests
# (default: the host's CPUs) run at once, across the VM suite, the
# blktests lane and any other checkout using the same $SCHEDCTL_CACHE.
# VM_SLOT_PRIO=N (default 0) orders the waiters: a free slot goes to the
# waiter with the highest N.  N is the guest's expected run time in
# seconds, so the longest guests start first and the short ones fill in
# around them (started last, a 25 min guest leaves a core idle at the end
# of the run).  With VM_SLOT_KEY=NAME, N is what the guest of that name
# took the last time it ran to a good end here (kept in the slot
# directory), VM_SLOT_PRIO only the first time.  Waiters of equal N take
# the slots in no particular order.
#
# VM_SLOT_FILL=1: CMD takes one of VM_FILL_SLOTS (default 1) fill slots
# instead, a pool of its own with its own waiters, and runs at nice 19:
# it gets the CPU time the guests in the VM slots leave idle (the Debian
# kernels' VM suites wait on their slow devices about half the time) and
# almost none of what they use.  For guests that assert no timing.
#
# VM_SLOT_NICE=N: CMD in a VM slot runs at nice N (lower than the
# caller's needs root; where renice fails it keeps the caller's).  make
# check's full run runs everything else 10 higher (tests/check.sh).
vm_slot() {
	local n=${VM_SLOTS:-$(nproc)} dir="$SCHEDCTL_CACHE/vm-slots" i fd rc
	local prio=${VM_SLOT_PRIO:-0} key=${VM_SLOT_KEY:-} mark t0 pool= old
	if [ "${VM_SLOT_FILL:-0}" = 1 ]; then
		n=${VM_FILL_SLOTS:-1} pool=fill
	fi
	mkdir -p "$dir"
	if [ -n "$key" ] && [ -s "$dir/took.$key" ]; then
		read -r prio <"$dir/took.$key"
	fi
	mark="$dir/${pool}wait.$BASHPID"
	echo "$prio" >"$mark"
	while :; do
		if ! vm_slot_higher_waiting "$dir" "$prio" "${pool}wait"; then
			for ((i = 1; i <= n; i++)); do
				exec {fd}>>"$dir/$pool$i"
				if flock -n "$fd"; then
					rm -f "$mark"
					t0=$SECONDS
					if [ -n "$pool" ]; then
						(renice -n 19 -p "$BASHPID" >/dev/null && "$@")
						rc=$?
					elif [ -n "${VM_SLOT_NICE:-}" ]; then
						old=$(nice)
						renice -n "$VM_SLOT_NICE" -p "$BASHPID" >/dev/null 2>&1
						"$@"
						rc=$?
						renice -n "$old" -p "$BASHPID" >/dev/null 2>&1
					else
						"$@"
						rc=$?
					fi
					exec {fd}>&-
					[ -z "$key" ] || [ "$rc" != 0 ] ||
						echo $((SECONDS - t0)) >"$dir/took.$key"
					return $rc
				fi
				exec {fd}>&-
			done
		fi
		sleep 2
	done
}

# vm_slot_higher_waiting DIR PRIO KIND: does a waiter of KIND (wait: for
# a VM slot, fillwait: for a fill slot) with a priority above PRIO wait?
# A mark whose process is gone (killed while it waited) is removed.
vm_slot_higher_waiting() {
	local f pid p found=1
	for f in "$1/$3".*; do
		[ -e "$f" ] || continue
		pid=${f##*.}
		if ! kill -0 "$pid" 2>/dev/null; then
			rm -f "$f"
			continue
		fi
		read -r p <"$f" 2>/dev/null || continue
		[ "${p:-0}" -gt "$2" ] 2>/dev/null && found=0
	done
	return $found
}

# The Debian suite that carries each supported kernel generation.
suite_of_label() {
	case "$1" in
	6.1) echo bookworm ;;
	6.12) echo trixie ;;
	7.x | sid | newest) echo sid ;;
	# built from that suite's linux-source (build-debug-kernel.sh)
	debug) echo "${DEBUG_SUITE:-sid}" ;;
	*) die "unknown kernel label '$1' (known: 6.1 6.12 7.x debug)" ;;
	esac
}

# Print the path of an apt.conf for SUITE: own sources, lists, cache and an
# empty dpkg status, so it can only download, never install into the host.
apt_conf_for_suite() {
	local suite=$1 d="$SCHEDCTL_CACHE/apt/$1"
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	[ -e "$d/status" ] || : >"$d/status"
	{
		case "$suite" in
		sid) echo "deb $MIRROR sid main" ;;
		*)
			echo "deb $MIRROR $suite main"
			echo "deb $MIRROR $suite-updates main"
			echo "deb $SECURITY_MIRROR $suite-security main"
			;;
		esac
	} >"$d/sources.list"
	cat >"$d/apt.conf" <<EOC
Dir::Etc::sourcelist "$d/sources.list";
Dir::Etc::sourceparts "-";
Dir::State::lists "$d/lists";
Dir::Cache "$d/cache";
Dir::State::status "$d/status";
Acquire::Check-Valid-Until "false";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
APT::Sandbox::User "root";
EOC
	echo "$d/apt.conf"
}

# Refresh a suite's package lists at most once per SCHEDCTL_APT_TTL seconds.
apt_update_suite() {
	local conf=$1 stamp
	stamp="$(dirname "$conf")/updated"
	if [ -e "$stamp" ] &&
		[ $(($(date +%s) - $(stat -c %Y "$stamp"))) -lt "${SCHEDCTL_APT_TTL:-21600}" ]; then
		return 0
	fi
	APT_CONFIG=$conf apt-get -q update >/dev/null || die "apt-get update failed for $conf"
	touch "$stamp"
}

need_root() {
	[ "$(id -u)" = 0 ] || die "$1 needs root (it installs packages and uses chroot/unshare)"
}

# guest_results LABEL TEST DIR: fetch LABEL's kernel, run the guest script
# TEST there (run_guest_script; its serial log and TAP in DIR) and print
# the "# RESULT ..." lines it logged, for bench/ scripts that tabulate
# them.  Dies, with the failed checks, if the fetch or the run failed.
guest_results() {
	"$VM_DIR/fetch-kernel.sh" "$1" >/dev/null 2>&1 || die "cannot fetch kernel $1"
	run_guest_script "$1" "$2" "$3/$1.log" >"$3/$1.tap" ||
		die "$1: the run failed: $(grep "not ok" "$3/$1.tap" | head -n 3)"
	grep -ao '# RESULT .*' "$3/$1.log"
}

# run_guest_script LABEL TEST LOG: build the modules and an initramfs for
# the kernel LABEL, boot it and run the guest script tests/vm/tests/TEST.sh
# alone; the serial log goes to LOG.  For bench/ scripts that read their
# figures from that log.  Non-zero if the build or the run failed.
run_guest_script() {
	local label=$1 test=$2 log=$3 kodir initrd
	(
		. "$SCHEDCTL_CACHE/kernels/$label.env"
		kodir=$("$VM_DIR/build-modules.sh" "$label") || exit 1
		initrd=$(mktemp "${TMPDIR:-/tmp}/initrd-$label.XXXXXX")
		trap 'rm -f "$initrd"' EXIT
		"$VM_DIR/mkinitramfs.sh" "$label" "$kodir" "$initrd" &&
			"$VM_DIR/run-vm.sh" "$label" "$initrd" "$log" "$test"
	)
}
