#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run a command in a QEMU (TCG) guest booting a stock Debian kernel, with the
# host's filesystem shared read-only over 9p and vcube.ko loaded.
#
#   vm-run.sh --kdir LINE           print the headers directory of the newest
#                                   installed kernel of LINE (6.12, 6.1), or
#                                   of the debug kernel (LINE "debug", built
#                                   by scripts/debug-kernel.sh)
#   vm-run.sh [--kver LINE] [--modparams "P"] [--no-insmod] -- CMD...
#                                   boot, insmod build/<release>/vcube.ko P,
#                                   run CMD as root in the project directory
#                                   with build/bin on PATH; exit with CMD's
#                                   status (125: the guest never reported one)
#
# Environment: VCUBE_VM_TIMEOUT (seconds, default 900), VCUBE_VM_MEM (MiB,
# default 2048), VCUBE_VM_VERBOSE=1 to show the whole kernel log,
# VCUBE_VM_KODIR=DIR to load DIR/<release>/vcube.ko instead of build/'s
# (build/dkms: the modules make dkms built).
#
# Inside the guest the project directory is read-only; $VCUBE_OUT is a
# writable directory that the host sees as build/vm/out. The command's
# standard output and standard error come back apart (a second serial port).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
line=6.12
modparams=
insmod=1

cache=${VCUBE_CACHE:-$HOME/.cache/vcube}
debugdir=$cache/linux-debug

release_of() {
	local k
	if [ "$1" = debug ]; then
		[ -f "$debugdir/include/config/kernel.release" ] ||
			{ echo "vm-run: no debug kernel in $debugdir (scripts/debug-kernel.sh builds it)" >&2; return 1; }
		cat "$debugdir/include/config/kernel.release"
		return
	fi
	k=$(ls /boot/vmlinuz-"$1".* 2>/dev/null | sort -V | tail -n 1)
	[ -n "$k" ] || { echo "vm-run: no kernel $1 in /boot (run 'make deps')" >&2; return 1; }
	echo "${k#/boot/vmlinuz-}"
}

while [ $# -gt 0 ]; do
	case $1 in
	--kdir)
		rel=$(release_of "$2")
		if [ "$2" = debug ]; then echo "$debugdir"; else echo "/usr/src/linux-headers-$rel"; fi
		exit 0 ;;
	--kver) line=$2; shift 2 ;;
	--modparams) modparams=$2; shift 2 ;;
	--no-insmod) insmod=0; shift ;;
	--) shift; break ;;
	-h|--help) sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "vm-run: unknown option $1" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "vm-run: no command given" >&2; exit 2; }

rel=$(release_of "$line")
kimg=/boot/vmlinuz-$rel
[ "$line" = debug ] && kimg=$debugdir/arch/x86/boot/bzImage
ko=$(realpath -m "${VCUBE_VM_KODIR:-$top/build}")/$rel/vcube.ko
if [ "$insmod" = 1 ] && [ ! -f "$ko" ]; then
	echo "vm-run: $ko is not built (make module KDIR=/usr/src/linux-headers-$rel${VCUBE_VM_KODIR:+, or make dkms})" >&2
	exit 2
fi
for tool in qemu-system-x86_64 busybox modprobe xz cpio; do
	command -v "$tool" >/dev/null || [ -x /bin/$tool ] || {
		echo "vm-run: $tool is missing (run 'make deps')" >&2; exit 2; }
done

# ---- initramfs: busybox and the 9p modules (the debug kernel has them
# built in), rebuilt when this script or the kernel changes.
vmdir=$top/build/vm
initrd=$vmdir/initrd-$rel.cpio.gz
if [ ! -f "$initrd" ] || [ "$initrd" -ot "$0" ] || [ "$initrd" -ot "$kimg" ]; then
	root=$(mktemp -d)
	trap 'rm -rf "$root"' EXIT
	mkdir -p "$root"/{bin,dev,proc,sys,host,mod}
	cp "$(command -v busybox || echo /bin/busybox)" "$root/bin/busybox"
	: > "$root/mod/order"
	[ "$line" = debug ] || for m in virtio_pci 9pnet_virtio 9p; do
		modprobe -S "$rel" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
	done | awk '!seen[$0]++' | while read -r path; do
		name=$(basename "$path")
		case $name in
		*.xz) xz -dc "$path" > "$root/mod/${name%.xz}"; name=${name%.xz} ;;
		*.zst) zstd -dcq "$path" > "$root/mod/${name%.zst}"; name=${name%.zst} ;;
		*) cp "$path" "$root/mod/$name" ;;
		esac
		echo "$name" >> "$root/mod/order"
	done
	cat > "$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /mod/order); do insmod /mod/$m || echo "vm: insmod $m failed"; done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144 host /host || poweroff -f
arg() { tr ' ' '\n' < /proc/cmdline | sed -n "s/^vcubevm.$1=//p"; }
out=$(arg out)
top=$(arg top)
mount -t proc proc /host/proc
mount -t sysfs sys /host/sys
mount -t devtmpfs dev /host/dev
mkdir -p /host/dev/shm /host/dev/pts
# What udev makes on a real system: bash's <(...) opens /dev/fd/N, and
# without these every comparison through it failed as if the files differed.
ln -s /proc/self/fd /host/dev/fd
ln -s /proc/self/fd/0 /host/dev/stdin
ln -s /proc/self/fd/1 /host/dev/stdout
ln -s /proc/self/fd/2 /host/dev/stderr
mount -t tmpfs tmp /host/dev/shm
mount -t devpts pts /host/dev/pts
# Writable scratch directories; a project that lives inside one of them
# (a clone in /tmp) stays visible through a bind mount.
mkdir -p /scratch
for d in /tmp /run /var/tmp; do
	[ -d /host$d ] || continue
	mount -t tmpfs tmp /scratch
	case "$top/" in
	"$d"/*) mkdir -p "/scratch${top#$d}"
		mount --bind "/host$top" "/scratch${top#$d}" ;;
	esac
	mount --move /scratch /host$d
done
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out "/host$out" || poweroff -f
# The job's standard error on the second serial port, the host's stderr,
# through a pipe: the job sees a pipe (tools print progress a line at a
# time, as into a log), and all of it is out before the exit status.
stty -F /dev/ttyS1 raw -echo 2> /dev/null
echo VCUBE-VM-START
# The job's root is /host moved onto / in a mount namespace of its own,
# not a chroot into /host: the kernel refuses user namespaces to a
# chrooted process (unshare -Ur in the tests), not to one whose root is
# its namespace's.
{ { unshare -m sh -c 'cd /host && mount --move . / && exec chroot . /bin/bash "$0"' \
	"$out/job.sh"; echo $? > /job.rc; } 2>&1 >&3 3>&- |
	cat > /dev/ttyS1; } 3>&1
echo "VCUBE-VM-EXIT $(cat /job.rc)"
poweroff -f
INIT
	chmod +x "$root/init"
	mkdir -p "$vmdir"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$initrd.tmp"
	mv "$initrd.tmp" "$initrd"
	rm -rf "$root"
	trap - EXIT
fi

# ---- the job the guest runs, in the writable share.
out=$vmdir/out
mkdir -p "$out"
{
	echo "export PATH=$top/build/bin:$top/scripts:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	echo "export HOME=/root LANG=C.UTF-8 VCUBE_OUT=$out VCUBE_KREL=$rel VCUBE_KO=$ko VCUBE_TOP=$top VCUBE_CACHE=${VCUBE_CACHE:-$HOME/.cache/vcube}"
	echo "cd $top"
	printf 'dmesg -n 3\n'
	if [ "$insmod" = 1 ]; then
		printf 'insmod %q %s || { rc=$?; { echo "vm: insmod vcube.ko %s failed:"; dmesg | grep vcube | tail -n 3; } >&2; exit $rc; }\n' \
			"$ko" "$modparams" "$modparams"
	fi
	printf '%s\n' "$*"
} > "$out/job.sh"

append="console=ttyS0 quiet loglevel=3 panic=-1 vcubevm.out=$out vcubevm.top=$top"
log=$(mktemp)
# the guest's stderr (its second serial port) comes through a FIFO
fifo=$(mktemp -u)
mkfifo "$fifo"
trap 'rm -f "$log" "$fifo"' EXIT
# Multi-threaded TCG now and then panics while the guest kernel patches its
# own text at boot (an int3 oops before init). Such a boot never reached
# the job, so it is retried; a job that started is never run twice.
for attempt in 1 2 3; do
	set +e
	sed -u 's/\r$//' < "$fifo" >&2 &
	errpid=$!
	timeout "${VCUBE_VM_TIMEOUT:-900}" qemu-system-x86_64 \
		-machine q35 -accel tcg,thread=multi -smp 2 -m "${VCUBE_VM_MEM:-2048}" \
		-kernel "$kimg" -initrd "$initrd" -append "$append" \
		-nographic -no-reboot -nodefaults -serial stdio \
		-chardev "file,id=guesterr,path=$fifo" -serial chardev:guesterr \
		-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$out,mount_tag=out,security_model=none,multidevs=remap" \
		< /dev/null 2>&1 | sed -u 's/\r//g' | tee "$log" |
		if [ "${VCUBE_VM_VERBOSE:-0}" = 1 ]; then cat; else
			sed -u -n '/VCUBE-VM-START$/,/^VCUBE-VM-EXIT /{/VCUBE-VM-/d;p}'; fi
	qemu_st=${PIPESTATUS[0]}
	# the reader ends at qemu's close, or now if qemu never opened it
	exec 3<> "$fifo"
	exec 3>&-
	wait "$errpid"
	set -e
	# a guest that booted, or ran out of time (retrying cannot help)
	grep -q 'VCUBE-VM-START$' "$log" || [ "$qemu_st" = 124 ] && break
	echo "vm-run: the guest ($rel) failed to boot (attempt $attempt):" >&2
	grep -a -m 3 -E 'Oops|panic|BUG' "$log" >&2 || tail -n 5 "$log" >&2
done
rc=$(sed -n 's/^VCUBE-VM-EXIT \([0-9]*\)$/\1/p' "$log" | tail -n 1)
if [ -z "$rc" ] && [ "$qemu_st" = 124 ]; then
	echo "vm-run: the guest ($rel) was stopped after VCUBE_VM_TIMEOUT=${VCUBE_VM_TIMEOUT:-900} s; set it higher for a longer job" >&2
	exit 125
fi
if [ -z "$rc" ]; then
	echo "vm-run: the guest ($rel) never reported an exit status; its last lines:" >&2
	tail -n 20 "$log" >&2
	# and the first oops whole: its head says where, and is what scrolls away
	if grep -a -q -E 'BUG:|Oops:|general protection fault' "$log"; then
		echo "vm-run: the first oops:" >&2
		awk '/BUG:|Oops:|general protection fault/ && !s { s = NR } s && NR < s + 80' "$log" >&2
	fi
	exit 125
fi
exit "$rc"
