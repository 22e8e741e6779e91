# SPDX-License-Identifier: GPL-2.0
# schedctl from the installed package files, without udevd: classification
# of real devices, get/set, apply with the shipped policy, rollback on a
# write the kernel refuses, concurrent applies, and unprivileged use.
. /tests/lib.sh

S=/usr/sbin/schedctl
check "schedctl is installed" test -x $S
check "vendor policy is installed" test -e /usr/lib/schedctl/schedctl.conf
check "admin config is installed" test -e /etc/schedctl.conf

modprobe scsi_debug dev_size_mb=64 && modprobe sd_mod
i=0
while [ $i -lt 50 ] && ! grep -qs scsi_debug /sys/block/sd*/device/model; do
	sleep 0.1; i=$((i + 1))
done
sd=
for m in /sys/block/sd*/device/model; do
	grep -q scsi_debug "$m" && sd=$(echo "$m" | cut -d/ -f4)
done
check "scsi_debug disk present" test -n "$sd"
nb=$(nullb_create cli0 submit_queues=1)
check "null_blk disk present" test -b "/dev/$nb"

# Classification comes from attributes, not names.
is "$($S classify "$sd" | sed -n '1s/.*: class \([^ ]*\).*/\1/p')" ssd "$sd: scsi_debug is an ssd"
is "$($S classify "$nb" | sed -n '1s/.*: class \([^ ]*\).*/\1/p')" virtual "$nb: null_blk is virtual"
echo 1 >"/sys/block/$sd/queue/rotational"
is "$($S classify "$sd" | sed -n '1s/.*: class \([^ ]*\).*/\1/p')" hdd "$sd: rotational scsi_debug is an hdd"
check "classify names the deciding property" sh -c "$S classify $sd | grep -q rotational"
check "classify says which section wins" sh -c "$S classify $sd | grep -q 'class:hdd'"
check "list -J is JSON naming both disks" sh -c \
	"$S list -J | grep -q '\"name\": *\"$sd\"' && $S list -J | grep -q '\"name\": *\"$nb\"'"

# apply with the shipped policy: hdd -> xdeadline (autoloaded), head_request=1.
rmmod xdeadline 2>/dev/null
before=$(sched_current "$sd")
check "apply --dry-run succeeds" sh -c "$S apply --dry-run $sd >/tmp/dry.out"
check "dry run says what would change" grep -q xdeadline /tmp/dry.out
is "$(sched_current "$sd")" "$before" "dry run changed nothing"
check "apply $sd" $S apply "$sd"
is "$(sched_current "$sd")" xdeadline "$sd: policy scheduler applied (module autoloaded)"
is "$(knob "$sd" head_request)" 1 "$sd: policy knob head_request=1 applied"
is "$($S get -n "$sd" head_request | awk '{print $NF}')" 1 "get reads the knob back"
check "apply again changes nothing" sh -c "$S apply $sd >/tmp/again.out"
check_fails "second apply reports no change for $sd" grep -q 'head_request' /tmp/again.out
check "apply $nb (virtual -> none)" $S apply "$nb"
is "$(sched_current "$nb")" none "$nb: virtual disk gets none"

# /dev path and partition-free by-path forms resolve to the disk.
check "set via /dev path" $S set "/dev/$sd" read_expire=200
is "$(knob "$sd" read_expire)" 200 "set wrote read_expire=200"

# Validation: nothing written on a bad value.
check_fails "set refuses a non-number" $S set "$sd" read_expire=abc
is "$(knob "$sd" read_expire)" 200 "read_expire kept after refusal"
check_fails "set refuses an unknown key" $S set "$sd" no_such_knob=1

# Rollback: the kernel refuses zoned_qd1_writes on a disk that is not
# zoned, after the scheduler switch and read_expire were written.
check "back to mq-deadline" $S set "$sd" scheduler=mq-deadline
$S set "$sd" scheduler=xdeadline read_expire=123 zoned_qd1_writes=1 >/tmp/rb.out 2>&1
rc=$?
cmp_ok "$rc" -ne 0 "set with a refused write fails"
check "the error names the key" grep -q zoned_qd1_writes /tmp/rb.out
is "$(sched_current "$sd")" mq-deadline "scheduler rolled back to mq-deadline"

# A queue attribute the kernel refuses, after a knob write on the same
# scheduler: the knob is restored.
$S set "$sd" scheduler=xdeadline >/dev/null
$S set "$sd" fifo_batch=7 queue.nr_requests=100000000 >/tmp/rb2.out 2>&1
cmp_ok $? -ne 0 "set with a refused nr_requests fails"
is "$(knob "$sd" fifo_batch)" 16 "fifo_batch rolled back to 16"
check "and reported as rolled back, not as done" grep -q "fifo_batch: 16 -> 7 (rolled back)" /tmp/rb2.out

# Two concurrent applies on one disk serialize and agree.
$S set "$sd" scheduler=mq-deadline >/dev/null
$S apply "$sd" >/tmp/c1.out 2>&1 &
p1=$!
$S apply "$sd" >/tmp/c2.out 2>&1 &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
is "$r1:$r2" 0:0 "two concurrent applies both succeed"
is "$(sched_current "$sd"):$(knob "$sd" head_request)" xdeadline:1 "and leave the policy state"
check "lock files live under /run/schedctl" test -d /run/schedctl

# Unprivileged: read yes, write no (and nothing written).
check "nobody can list" su -s /bin/sh nobody -c "$S list >/dev/null"
check "nobody can classify" su -s /bin/sh nobody -c "$S classify $sd >/dev/null"
check "nobody can get" su -s /bin/sh nobody -c "$S get $sd >/dev/null"
su -s /bin/sh nobody -c "$S set $sd read_expire=999" >/tmp/np.out 2>&1
cmp_ok $? -ne 0 "nobody cannot set"
check "with a clear message" grep -qi 'permission\|root\|privilege' /tmp/np.out
is "$(knob "$sd" read_expire)" 500 "nothing written by nobody"

# A partition resolves to its disk (libudev: the parent of devtype disk).
# An MBR with one Linux partition at sector 2048, 4096 sectors long.  Last,
# as re-reading the partition table revalidates the disk (7.x resets the
# rotational flag set above).
printf '\0\0\0\0\203\0\0\0\0\10\0\0\0\20\0\0' | dd of="/dev/$sd" bs=1 seek=446 conv=notrunc 2>/dev/null
printf '\125\252' | dd of="/dev/$sd" bs=1 seek=510 conv=notrunc 2>/dev/null
blockdev --rereadpt "/dev/$sd"
check "partition ${sd}1 appeared" test -e "/sys/class/block/${sd}1"
is "$($S get -n "${sd}1" scheduler 2>/tmp/part.err | awk '{print $2}')" "$(sched_current "$sd")" "get ${sd}1 reads its disk"
check "with a note naming the disk" grep -q "${sd}1 is a partition; using its disk $sd" /tmp/part.err
dd if=/dev/zero of="/dev/$sd" bs=512 count=1 conv=notrunc 2>/dev/null
blockdev --rereadpt "/dev/$sd"

# reset gives the kernel default back.
check "reset $sd" $S reset "$sd"
is "$(sched_current "$sd")" mq-deadline "$sd: kernel default (single queue) restored"

nullb_remove cli0
rmmod scsi_debug 2>/dev/null || { sleep 1; rmmod scsi_debug; }
done_testing
