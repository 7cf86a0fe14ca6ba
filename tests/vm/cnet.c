// SPDX-License-Identifier: GPL-2.0
/*
 * The control network through the module, run under vcube-run:
 *
 *   cnet times     the costs of Table 7's operations (cm5 profile), every
 *                  member leaving at once, and the ioctl's refusals
 *   cnet absent    a network without one: -EOPNOTSUPP, and the library's
 *                  cm5_control algorithms unusable (-EDOM)
 *   cnet kill      the last rank dies before the barrier: the others get
 *                  -EDEADLK
 *   cnet signal    rank 0 is interrupted while it waits for rank 1: the
 *                  ioctl answers -EINTR, and entering again completes
 *   cnet chunks    with max_msg=64, reductions and scans longer than the
 *                  kernel holds at once, in pieces, at the same cost
 *
 * Every rank prints "ok - ..." or "not ok - ..." lines; exits 1 on any
 * failure.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vcube.h"

static unsigned int me, np;
static int failed;

#define CHECK(cond, ...)						\
	do {								\
		int ok_ = !!(cond);					\
									\
		if (!ok_ || me == 0) {					\
			printf("%s - rank %u: ", ok_ ? "ok" : "not ok", me); \
			printf(__VA_ARGS__);				\
			putchar('\n');					\
		}							\
		failed |= !ok_;						\
	} while (0)

static struct vcube_cnet args(unsigned int kind)
{
	struct vcube_cnet a = { .kind = kind, .nodes = np };

	return a;
}

/* The time one operation takes when every member enters at once. */
static uint64_t timed(struct vcube_comm *c, struct vcube_cnet *a, int *ret)
{
	struct vcube_node *n = vcube_comm_node(c);
	struct vcube_cnet b = args(VCUBE_CNET_BARRIER);
	uint64_t t0 = 0, t1 = 0;

	*ret = vcube_node_cnet(n, &b);
	*ret = *ret ?: vcube_node_clock(n, &t0);
	*ret = *ret ?: vcube_node_cnet(n, a);
	*ret = *ret ?: vcube_node_clock(n, &t1);
	if (!*ret && (a->time != t1 || a->last != t0))
		*ret = -ERANGE;
	return t1 - t0;
}

static int refused(struct vcube_node *n, struct vcube_cnet a, int want)
{
	int ret = ioctl(vcube_node_fd(n), VCUBE_IOC_CNET, &a);

	return ret == -1 && errno == want;
}

/* Table 7: a barrier takes one word's time, 6 us. */
static void cost_barrier(struct vcube_comm *c)
{
	struct vcube_cnet a;
	uint64_t t;
	int ret;

	a = args(VCUBE_CNET_BARRIER);
	t = timed(c, &a, &ret);
	CHECK(!ret && t == 6000, "barrier: %d, %llu ns (one word, 6 us)", ret,
	      (unsigned long long)t);
}

/* Table 7: a reduction of ints 6 us, of doubles 42 us; the operands. */
static void cost_reduce(struct vcube_comm *c)
{
	int32_t iv = (int32_t)me, iall[4096];
	double dv = me * 0.5, dall[4096];
	struct vcube_cnet a;
	uint64_t t;
	unsigned int i;
	int ret, bad = 0;

	a = args(VCUBE_CNET_REDUCE);
	a.op = VCUBE_OP_MAX;
	a.type = VCUBE_TYPE_S32;
	a.count = 1;
	a.sbuf = (uintptr_t)&iv;
	a.rbuf = (uintptr_t)iall;
	a.rlen = sizeof(iall);
	t = timed(c, &a, &ret);
	for (i = 0; i < np; i++)
		bad += iall[i] != (int32_t)i;
	CHECK(!ret && t == 6000 && !bad,
	      "reduce int with max: %d, %llu ns (Table 7: 6 us), operands %s",
	      ret, (unsigned long long)t, bad ? "wrong" : "in node order");

	a.type = VCUBE_TYPE_DOUBLE;
	a.sbuf = (uintptr_t)&dv;
	a.rbuf = (uintptr_t)dall;
	t = timed(c, &a, &ret);
	for (i = 0, bad = 0; i < np; i++)
		bad += dall[i] != i * 0.5;
	CHECK(!ret && t == 42000 && !bad,
	      "reduce double with max: %d, %llu ns (Table 7: 42 us)", ret,
	      (unsigned long long)t);
}

/* Table 7: a broadcast of 65 doubles 0.917 ms, its bytes intact. */
static void cost_bcast(struct vcube_comm *c)
{
	uint8_t msg[520];
	struct vcube_cnet a;
	uint64_t t;
	unsigned int i;
	int ret, bad;

	a = args(VCUBE_CNET_BCAST);
	a.root = np - 1;
	a.count = sizeof(msg);
	for (i = 0; i < sizeof(msg); i++)
		msg[i] = me == np - 1 ? (uint8_t)(i * 7 + 1) : 0;
	a.sbuf = a.rbuf = (uintptr_t)msg;
	a.rlen = sizeof(msg);
	t = timed(c, &a, &ret);
	for (i = 0, bad = 0; i < sizeof(msg); i++)
		bad += msg[i] != (uint8_t)(i * 7 + 1);
	CHECK(!ret && t == 917000 && !bad,
	      "broadcast of 65 doubles: %d, %llu ns (Table 7: 0.917 ms)", ret,
	      (unsigned long long)t);
}

/* Every member leaves the operations at the same virtual time. */
static void leave_together(struct vcube_comm *c)
{
	struct vcube_node *n = vcube_comm_node(c);
	uint64_t t, hi, lo;
	int ret;

	ret = vcube_node_clock(n, &t);
	ret = ret ?: vcube_reduce_run(c, "cm5_control", VCUBE_OP_MAX,
				      VCUBE_TYPE_U64, &t, &hi, 1);
	ret = ret ?: vcube_reduce_run(c, "cm5_control", VCUBE_OP_MIN,
				      VCUBE_TYPE_U64, &t, &lo, 1);
	CHECK(!ret && hi == lo, "every rank at %llu ns after them",
	      (unsigned long long)lo);
}

/*
 * The ioctl's refusals, before anything is entered; the network still
 * works for all of them after.
 */
static void refusals(struct vcube_comm *c)
{
	struct vcube_node *n = vcube_comm_node(c);
	int32_t iv = (int32_t)me, iall[4096];
	struct vcube_cnet a;
	uint64_t t;
	int ret;

	a = args(VCUBE_CNET_BARRIER);
	a.flags = 1;
	CHECK(refused(n, a, EINVAL), "unknown flags: EINVAL");
	a = args(VCUBE_CNET_BARRIER);
	a.pad = 1;
	CHECK(refused(n, a, EINVAL), "non-zero pad: EINVAL");
	a = args(9);
	CHECK(refused(n, a, EINVAL), "unknown kind: EINVAL");
	a = args(VCUBE_CNET_BARRIER);
	a.first = me + 1;
	a.nodes = 1;
	CHECK(refused(n, a, EINVAL), "a partition without the caller: EINVAL");
	a.first = 0;
	a.nodes = 100000;
	CHECK(refused(n, a, EINVAL), "a partition past the network: EINVAL");
	a = args(VCUBE_CNET_REDUCE);
	a.type = VCUBE_TYPE_DOUBLE;
	a.op = VCUBE_OP_BXOR;
	a.count = 1;
	CHECK(refused(n, a, EINVAL), "xor of doubles: EINVAL");
	a.op = VCUBE_OP_SUM;
	a.type = 7;
	CHECK(refused(n, a, EINVAL), "unknown type: EINVAL");
	a.type = VCUBE_TYPE_S32;
	a.sbuf = (uintptr_t)&iv;
	a.rbuf = (uintptr_t)iall;
	a.rlen = 4 * np - 1;
	CHECK(refused(n, a, EMSGSIZE), "too little room for the operands: EMSGSIZE");
	a.rlen = sizeof(iall);
	a.count = 1ULL << 40;
	CHECK(refused(n, a, EMSGSIZE), "2^40 elements: EMSGSIZE");
	a.count = 1;
	a.sbuf = 8;
	CHECK(refused(n, a, EFAULT), "an operand at a bad address: EFAULT");
	a.sbuf = (uintptr_t)&iv;
	a.rbuf = 0xffff800000000000ULL;
	CHECK(refused(n, a, EFAULT), "room at a kernel address: EFAULT");
	CHECK(ioctl(vcube_node_fd(n), _IO(VCUBE_IOC_MAGIC, 0x3f), &a) == -1 &&
	      errno == ENOTTY, "unknown ioctl: ENOTTY");
	/* and the network still works for all of them */
	a = args(VCUBE_CNET_BARRIER);
	t = timed(c, &a, &ret);
	CHECK(!ret && t == 6000, "a barrier after the refusals: %d", ret);
}

/* cnet times: Table 7's costs, every member leaving at once, refusals. */
static void times(struct vcube_comm *c)
{
	cost_barrier(c);
	cost_reduce(c);
	cost_bcast(c);
	leave_together(c);
	refusals(c);
}

static void absent(struct vcube_comm *c)
{
	struct vcube_cnet a = args(VCUBE_CNET_BARRIER);
	uint64_t v = 1, out;

	CHECK(!vcube_comm_cnet(c), "no control network here");
	CHECK(vcube_node_cnet(vcube_comm_node(c), &a) == -EOPNOTSUPP,
	      "a barrier: EOPNOTSUPP");
	CHECK(vcube_algo_usable(c, VCUBE_ALGO_SYNC, "cm5_control") == -EDOM,
	      "cm5_control is no barrier here (EDOM)");
	CHECK(vcube_reduce_run(c, "cm5_control", VCUBE_OP_SUM, VCUBE_TYPE_U64,
			       &v, &out, 1) == -EDOM,
	      "cm5_control is no reduction here (EDOM)");
}

static void kill_last(struct vcube_comm *c)
{
	int ret;

	if (me == np - 1)
		raise(SIGKILL);
	ret = vcube_sync_run(c, "cm5_control");
	CHECK(ret == -EDEADLK, "a member died before the barrier: %s",
	      strerror(-ret));
}

/*
 * max_msg=64: a reduction of 100 u64 on 8 ranks holds 6400 bytes, so the
 * library cuts it in pieces; the cost is still 100 elements of 2 words.
 */
static void chunks(struct vcube_comm *c)
{
	struct vcube_net_desc net;
	uint64_t in[100], out[100], t0 = 0, t1 = 0;
	unsigned int i, bad = 0;
	int ret;

	for (i = 0; i < 100; i++)
		in[i] = (uint64_t)me * 1000 + i;
	ret = vcube_net_describe(NULL, &net);
	ret = ret ?: vcube_sync_run(c, "cm5_control");
	ret = ret ?: vcube_node_clock(vcube_comm_node(c), &t0);
	ret = ret ?: vcube_reduce_run(c, "cm5_control", VCUBE_OP_SUM,
				      VCUBE_TYPE_U64, in, out, 100);
	ret = ret ?: vcube_node_clock(vcube_comm_node(c), &t1);
	for (i = 0; !ret && i < 100; i++)
		bad += out[i] != 1000ULL * np * (np - 1) / 2 + (uint64_t)np * i;
	CHECK(!ret && !bad && t1 - t0 == 100 * 2 * net.cnet_word_ns,
	      "100 sums past max_msg, in pieces: %d, %u wrong, %llu ns", ret,
	      bad, (unsigned long long)(t1 - t0));
	ret = vcube_scan_run(c, "cm5_control", VCUBE_OP_MAX, VCUBE_TYPE_U64,
			     in, out, 100);
	for (i = 0, bad = 0; !ret && i < 100; i++)
		bad += out[i] != (uint64_t)me * 1000 + i;
	CHECK(!ret && !bad, "100 scans past max_msg, in pieces: %d", ret);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void signalled(struct vcube_comm *c)
{
	struct vcube_node *n = vcube_comm_node(c);
	struct vcube_cnet a = args(VCUBE_CNET_REDUCE);
	struct vcube_net_desc net;
	struct sigaction sa;
	int32_t v = (int32_t)me + 10, all[64];
	int ret, eintr = 0;

	ret = vcube_net_describe(NULL, &net);
	CHECK(!ret, "the network in sysfs: %d", ret);
	a.op = VCUBE_OP_SUM;
	a.type = VCUBE_TYPE_S32;
	a.count = 1;
	a.sbuf = (uintptr_t)&v;
	a.rbuf = (uintptr_t)all;
	a.rlen = sizeof(all);
	if (me == 1)
		sleep(2);	/* real time: rank 0 waits in the kernel */
	if (me == 0) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;	/* no SA_RESTART */
		sigaction(SIGALRM, &sa, NULL);
		alarm(1);
	}
	for (;;) {
		ret = ioctl(vcube_node_fd(n), VCUBE_IOC_CNET, &a);
		if (!ret || errno != EINTR)
			break;
		eintr++;
	}
	if (me == 0)
		CHECK(eintr >= 1, "a signal while waiting: EINTR %d time(s)",
		      eintr);
	/* both entered at 0: out one int's time later */
	CHECK(!ret && all[0] == 10 && all[1] == 11 && a.time == net.cnet_word_ns,
	      "entering again completes, every operand there: %d, %d %d at %llu ns",
	      ret ? -errno : 0, all[0], all[1], (unsigned long long)a.time);
}

int main(int argc, char **argv)
{
	struct vcube_comm *c;
	int ret;

	if (argc != 2 || (strcmp(argv[1], "times") && strcmp(argv[1], "absent") &&
			  strcmp(argv[1], "kill") && strcmp(argv[1], "signal") &&
			  strcmp(argv[1], "chunks"))) {
		printf("usage: vcube-run -n N cnet times|absent|kill|signal|chunks\n");
		return argc == 2 && !strcmp(argv[1], "--help") ? 0 : 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = vcube_comm_open(&c);
	if (ret) {
		fprintf(stderr, "cnet: %s\n", strerror(-ret));
		return 1;
	}
	me = vcube_comm_rank(c);
	np = vcube_comm_size(c);
	if (!strcmp(argv[1], "times"))
		times(c);
	else if (!strcmp(argv[1], "absent"))
		absent(c);
	else if (!strcmp(argv[1], "kill"))
		kill_last(c);
	else if (!strcmp(argv[1], "chunks"))
		chunks(c);
	else
		signalled(c);
	vcube_comm_close(c);
	return failed;
}
