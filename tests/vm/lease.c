// SPDX-License-Identifier: GPL-2.0
/*
 * In the VM: the idle lease (D5). Node 0 sends node 1 a message, then its
 * process sits in user space (as a stopped or computing process would);
 * node 1 receives it. Node 1 binds once node 0 has: bound alone, its wait
 * would be a deadlock (a loaded host once ran node 1 first).
 *
 *   lease off   (idle_lease_ms=0): node 0 holds virtual time where it
 *               stopped, so node 1's receive waits for it: not done after
 *               2 s; done once node 0 closes.
 *   lease on    (idle_lease_ms=200): node 0's lease runs out; node 1's
 *               receive completes while node 0 still sleeps; node 0's
 *               next call starts no earlier than that receipt.
 *
 * Prints "ok - ..." / "not ok - ..." lines; exits 1 if any failed.
 */
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "vcube.h"

/* Read @len bytes from @fd within @ms: 1 if they came. */
static int read_within(int fd, void *buf, size_t len, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && read(fd, buf, len) == (ssize_t)len;
}

/* Wait up to @ms for a byte on @fd: 1 if one came. */
static int byte_within(int fd, int ms)
{
	char c;

	return read_within(fd, &c, 1, ms);
}

/*
 * @pid's exit status once it exits, within @ms; if it does not, its
 * kernel stack is printed, it is killed, and -1.
 */
static int exit_within(pid_t pid, int ms)
{
	char path[64], line[256];
	int status, i;
	FILE *f;

	for (i = 0; i < ms / 10; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		usleep(10000);
	}
	snprintf(path, sizeof(path), "/proc/%d/stack", (int)pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		printf("# stuck: %s", line);
	if (f)
		fclose(f);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

/* The pipes between the test and its two nodes' processes. */
struct pipes {
	int go[2];		/* node 0 may call again */
	int done[2];		/* node 1's receive completed */
	int times[2];		/* node 1's receipt, node 0's next clock */
	int posted[2];		/* node 1's receive is posted */
	int bound[2];		/* node 0 is bound */
};

/* Node 0: sends, then sleeps in user space until told to call again. */
static _Noreturn void node0(struct pipes *p)
{
	struct vcube_node *n;
	uint64_t t;
	char c = 0;

	/* bound, and sends once node 1's receive is posted */
	if (vcube_node_open(0, &n) || write(p->bound[1], &c, 1) != 1 ||
	    !byte_within(p->posted[0], 10000) ||
	    vcube_node_send(n, 1, 0, &c, 1, VCUBE_SEND_FORCED, NULL))
		_exit(2);
	byte_within(p->go[0], 10000);
	if (vcube_node_delay(n, 1000) || vcube_node_clock(n, &t) ||
	    write(p->times[1], &t, sizeof(t)) != sizeof(t))
		_exit(3);
	_exit(0);
}

/* Node 1: receives node 0's message, says when. */
static _Noreturn void node1(struct pipes *p)
{
	struct vcube_node *n;
	struct vcube_status st;
	uint64_t req;
	char c = 0;
	int ret;

	/* once node 0 is bound: alone, its wait would be a deadlock */
	if (!byte_within(p->bound[0], 10000) ||
	    vcube_node_open(1, &n) ||
	    vcube_node_irecv(n, 0, 0, &c, 1, &req) ||
	    write(p->posted[1], &c, 1) != 1)
		_exit(2);
	ret = vcube_node_wait(n, req, &st);
	if (ret) {
		printf("# node 1's wait: %s\n", strerror(-ret));
		_exit(3);
	}
	if (write(p->times[1], &st.time, sizeof(st.time)) !=
	    sizeof(st.time) || write(p->done[1], &c, 1) != 1)
		_exit(2);
	_exit(0);
}

/*
 * idle_lease_ms=200: node 1's receive completes while node 0 sleeps; node
 * 0's next call starts no earlier than that receipt.
 */
static void lease_on(struct pipes *p, pid_t a)
{
	uint64_t got = 0, later = 0;
	char c = 0;

	T(byte_within(p->done[0], 5000),
	  "idle_lease_ms=200: node 1's receive completes while node 0 sleeps in user space");
	T(write(p->go[1], &c, 1) == 1 && child_status(a) == 0,
	  "node 0 comes back and calls again");
	T(read_within(p->times[0], &got, sizeof(got), 5000) &&
	  read_within(p->times[0], &later, sizeof(later), 5000) &&
	  later >= got,
	  "node 0's next call starts after the receipt it let commit (%llu >= %llu ns)",
	  (unsigned long long)later, (unsigned long long)got);
}

/* No lease: node 1's receive waits for node 0 until node 0 calls again. */
static void lease_off(struct pipes *p, pid_t a)
{
	char c = 0;

	T(!byte_within(p->done[0], 2000),
	  "no lease: node 1's receive still waits for node 0, asleep in user space, after 2 s");
	T(write(p->go[1], &c, 1) == 1 && child_status(a) == 0 &&
	  byte_within(p->done[0], 5000),
	  "once node 0 calls and closes, node 1's receive completes");
}

int main(int argc, char **argv)
{
	struct pipes p;
	pid_t a, b;
	int on, status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2 || (strcmp(argv[1], "on") && strcmp(argv[1], "off"))) {
		fprintf(stderr, "usage: lease on|off\n");
		return 2;
	}
	on = !strcmp(argv[1], "on");
	if (pipe(p.go) || pipe(p.done) || pipe(p.times) || pipe(p.posted) ||
	    pipe(p.bound))
		return 1;
	a = fork();
	if (!a)
		node0(&p);
	b = fork();
	if (!b)
		node1(&p);
	/* the children's ends only: a read sees the end when they exit */
	close(p.go[0]);
	close(p.done[1]);
	close(p.times[1]);
	close(p.posted[0]);
	close(p.posted[1]);
	close(p.bound[0]);
	close(p.bound[1]);
	if (on)
		lease_on(&p, a);
	else
		lease_off(&p, a);
	status = exit_within(b, 5000);
	T(status == 0, "node 1 exits 0 (%d)", status);
	return failed;
}
