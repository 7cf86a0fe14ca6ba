// SPDX-License-Identifier: GPL-2.0
/*
 * In the VM, on a kernel with failslab (the debug kernel of make
 * check-debug): insmod with the n-th slab allocation failing, for n = n0,
 * n0 + 1, ... until a load makes fewer allocations than n. The module
 * loader's own allocations come first, then vcube_init's (engine, devices,
 * sysfs, netlink); n0 is a few before vcube_init's first, counted by a
 * load whose parameters vcube_init refuses (BAD_PARAMS) before it
 * allocates anything but its own state. Every load must either fail with
 * ENOMEM and leave nothing behind (no module, no /dev/vcube0, no
 * /sys/class/vcube), or succeed whole and unload. Meanwhile a child opens /dev/vcube0 as fast as it can,
 * so that a failure after the devices exist meets an open file (issue 19,
 * D6: the open must be refused until nothing can fail any more). KASAN and
 * kmemleak on that kernel judge what the error paths free.
 *
 *   faults MODULE.ko PARAMS BAD_PARAMS
 *
 * Uses /proc/thread-self/fail-nth (Documentation/fault-injection): the
 * caller sets /sys/kernel/debug/failslab/ignore-gfp-wait to N and verbose
 * to 0. Prints "ok - ..." / "not ok - ..." lines; exits 1 if any failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tap.h"

/* the most allocations a load may make before the sweep gives up */
#define MAX_NTH 5000

static int fail_nth_set(unsigned int n)
{
	char buf[16];
	int fd, len, ret;

	fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%u", n);
	ret = write(fd, buf, len) == len ? 0 : -errno;
	close(fd);
	return ret;
}

/* What is left of fail-nth: 0 once the fault was injected. */
static int fail_nth_get(void)
{
	char buf[16] = "";
	int fd, n;

	fd = open("/proc/thread-self/fail-nth", O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -1;
}

/*
 * insmod @ko with @params, its @n-th fault point failing: 0 or -errno, and
 * in @rest what was left of fail-nth (0: the fault was injected).
 */
static int load_failing(int ko, const char *params, unsigned int n, int *rest)
{
	int ret;

	fail_nth_set(n);
	ret = syscall(SYS_finit_module, ko, params, 0) ? -errno : 0;
	*rest = fail_nth_get();
	fail_nth_set(0);
	return ret;
}

/* How many fault points a load with @params passes (it must fail). */
static int load_points(int ko, const char *params)
{
	unsigned int big = 1000000;
	int rest;

	if (!load_failing(ko, params, big, &rest) || rest <= 0)
		return -1;
	return big - rest;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* rmmod vcube, waiting out the opener's open file (up to 10 s) */
static int module_remove(void)
{
	int i;

	for (i = 0; i < 10000; i++) {
		if (!syscall(SYS_delete_module, "vcube", O_NONBLOCK))
			return 0;
		if (errno != EWOULDBLOCK && errno != EAGAIN)
			return -1;
		usleep(1000);
	}
	return -1;
}

/* Open /dev/vcube0 in a loop until killed. */
static void opener(void)
{
	int fd;

	for (;;) {
		fd = open("/dev/vcube0", O_RDWR);
		if (fd >= 0)
			close(fd);
	}
}

int main(int argc, char **argv)
{
	unsigned int n, n0, failures = 0, bad = 0, loads = 0, left_behind = 0;
	int ko, ret, rest, before;
	pid_t child;

	if (argc != 4) {
		fprintf(stderr, "usage: faults MODULE.ko PARAMS BAD_PARAMS\n");
		return 2;
	}
	ko = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (ko < 0) {
		perror(argv[1]);
		return 2;
	}
	if (fail_nth_set(0)) {
		printf("not ok - /proc/thread-self/fail-nth: %s\n", strerror(errno));
		return 1;
	}
	before = load_points(ko, argv[3]);
	if (before < 0) {
		printf("not ok - insmod %s was to fail in vcube_init: %s\n",
		       argv[3], strerror(errno));
		return 1;
	}
	/* a margin: the loader's count may differ by a parameter's copy */
	n0 = before > 8 ? before - 8 : 1;
	printf("# a load refused by vcube_init passes %d fault points: from %u\n",
	       before, n0);
	fflush(stdout);
	child = fork();
	if (child == 0)
		opener();

	for (n = n0; n <= n0 + MAX_NTH; n++) {
		if ((n - n0) % 100 == 99) {
			printf("# allocation %u\n", n);
			fflush(stdout);
		}
		ret = load_failing(ko, argv[2], n, &rest);
		if (ret == 0) {
			loads++;
			if (module_remove()) {
				printf("not ok - rmmod after load %u: %s\n", n,
				       strerror(errno));
				failed = 1;
				break;
			}
			if (rest != 0)	/* the load made fewer than n */
				break;
			continue;
		}
		failures++;
		if (ret != -ENOMEM) {
			if (bad++ < 5)
				printf("# allocation %u failed: insmod got %s, not ENOMEM\n",
				       n, strerror(-ret));
		}
		if (exists("/sys/module/vcube") || exists("/dev/vcube0") ||
		    exists("/sys/class/vcube")) {
			if (left_behind++ < 5)
				printf("# allocation %u failed: something of vcube's is left\n",
				       n);
		}
	}
	kill(child, SIGKILL);
	child_status(child);

	T(n <= n0 + MAX_NTH,
	  "insmod %s: each of its slab allocations %u..%u made to fail in turn",
	  argv[2], n0, n - 1);
	T(failures > 0 && bad == 0, "each of the %u failed loads got ENOMEM (%u other errors)",
	  failures, bad);
	T(left_behind == 0, "each failed load left no module, device or class behind (%u did)",
	  left_behind);
	T(loads > 0 && !exists("/sys/module/vcube"),
	  "%u loads that absorbed their failure and the last, whole one unloaded", loads);
	return failed;
}
