// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-sim: run a communication schedule on vcube's model on the host,
 * without the kernel: the same kernel/core engine the module runs, driven
 * from one thread. A node posts its step's receive and send (UNFORCED, as
 * a partner may still be at an earlier step), then waits;
 * when the engine says it is blocked, another runnable node goes on; the
 * engine's wake callback makes it runnable again. The engine's virtual
 * times do not depend on that order, so they equal the module's.
 *
 *   vcube-sim --profile delta --rows 16 --cols 32 --algo pex --len 4096
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "profiles.h"
#include "thakur.h"
#include "topology.h"

struct proc {
	u32 step;		/* next step of the schedule */
	int phase;		/* 0: post, 1: wait for the send, 2: the receive */
	struct vc_req *sr;
	struct vc_req *rr;
	bool queued;
	bool done;
};

static struct vc_engine *eng;
static struct proc *procs;
static u32 *queue, qhead, qtail, nprocs;
static const char *algo;
static u64 len, finish;

static void wake(void *ctx, u32 node)
{
	(void)ctx;
	if (!procs[node].queued && !procs[node].done) {
		procs[node].queued = true;
		queue[qtail++ % nprocs] = node;
	}
}

/* Step @i or later of node @me's schedule: the step, or -1 when done. */
static int schedule(u32 me, u32 i, u32 *to, u32 *from)
{
	for (; i < vcube_thakur_steps(algo, nprocs); i++)
		if (vcube_thakur_step(algo, me, nprocs, i, to, from))
			return i;
	return -1;
}

/* Run node @me until it blocks or ends. */
static int run(u32 me)
{
	struct proc *pr = &procs[me];
	u32 to, from;
	int ret, s;

	for (;;) {
		if (pr->phase == 0) {
			s = schedule(me, pr->step, &to, &from);
			if (s < 0) {
				u64 t = vc_clock(eng, me);

				if (t > finish)
					finish = t;
				pr->done = true;
				vc_unbind(eng, me);
				return 0;
			}
			pr->step = s + 1;
			ret = vc_recv(eng, me, from, s, len, 0, &pr->rr);
			if (!ret)
				ret = vc_send(eng, me, to, s, 0,
					      malloc(len ? len : 1), len, 0,
					      &pr->sr);
			if (ret)
				return ret;
			pr->phase = 1;
		}
		ret = vc_wait(eng, me, pr->phase == 1 ? pr->sr : pr->rr);
		if (ret == VC_BLOCKED_RET)
			return 0;
		if (ret)
			return ret;
		vc_req_free(eng, pr->phase == 1 ? pr->sr : pr->rr);
		pr->phase = pr->phase == 1 ? 2 : 0;
	}
}

static int profile_params(const char *name, struct vc_params *p)
{
	if (!strcmp(name, "delta"))
		*p = vc_profile_delta();
	else if (!strcmp(name, "ap1000"))
		*p = vc_profile_ap1000();
	else if (!strcmp(name, "cm5"))
		*p = vc_profile_cm5();
	else if (!strcmp(name, "ipsc860"))
		*p = vc_profile_ipsc860();
	else if (!strcmp(name, "seidel"))
		*p = vc_profile_seidel();
	else
		return -EINVAL;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vcube-sim --profile NAME --rows R --cols C --algo ALGO --len BYTES\n"
		"       vcube-sim --profile NAME --costs\n\n"
		"Run a complete exchange on vcube's model on the host (no kernel) and\n"
		"print the virtual time the last node finished, in seconds.\n"
		"  --profile   delta, ap1000, cm5, ipsc860 or seidel\n"
		"  --rows, --cols   mesh shape (the profile's topology: delta is a mesh)\n"
		"  --algo      pex, pexgen, pexgenshift or gen (Thakur et al. 1993)\n"
		"  --len       bytes each pair exchanges per step\n"
		"  --alpha-ns, --byte-ns   override the profile's startup and per-byte cost\n"
		"  --lanes N   override the profile's bodies per channel (0: no limit)\n"
		"  --costs     print the profile's startup and per-byte cost (ns) and exit\n");
}

/*
 * Option @name's value @s as a whole number in 0 .. @max, or a clear
 * error: junk, a sign, or too large.
 */
static int sim_parse_num(const char *name, const char *s, u64 max, u64 *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || *v > max) {
		fprintf(stderr, "vcube-sim: bad --%s '%s' (0 .. %llu)\n", name,
			s, (unsigned long long)max);
		return -EINVAL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "profile", required_argument, NULL, 'p' },
		{ "rows", required_argument, NULL, 'r' },
		{ "cols", required_argument, NULL, 'c' },
		{ "algo", required_argument, NULL, 'a' },
		{ "len", required_argument, NULL, 'l' },
		{ "alpha-ns", required_argument, NULL, 'A' },
		{ "byte-ns", required_argument, NULL, 'B' },
		{ "costs", no_argument, NULL, 'C' },
		{ "lanes", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct vcube_topo_params tp = { .kind = VCUBE_TOPO_MESH };
	const char *profile = "delta";
	long long alpha = -1, byte = -1, lanes = -1;
	u64 v;
	bool costs = false;
	struct vcube_topo topo;
	struct vc_params p;
	char err[128];
	u32 i;
	int c, ret;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': profile = optarg; break;
		case 'r':
			if (sim_parse_num("rows", optarg, 4096, &v))
				return 2;
			tp.rows = v;
			break;
		case 'c':
			if (sim_parse_num("cols", optarg, 4096, &v))
				return 2;
			tp.cols = v;
			break;
		case 'a': algo = optarg; break;
		case 'l':
			if (sim_parse_num("len", optarg, 1ULL << 30, &len))
				return 2;
			break;
		case 'A':
			if (sim_parse_num("alpha-ns", optarg, 1000000000, &v))
				return 2;
			alpha = v;
			break;
		case 'B':
			if (sim_parse_num("byte-ns", optarg, 1000000, &v))
				return 2;
			byte = v;
			break;
		case 'C': costs = true; break;
		case 'L':
			if (sim_parse_num("lanes", optarg, 1024, &v))
				return 2;
			lanes = v;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (profile_params(profile, &p)) {
		fprintf(stderr, "vcube-sim: no profile '%s' (delta, ap1000, cm5, ipsc860, seidel)\n",
			profile);
		return 2;
	}
	if (costs) {
		printf("alpha_ns %llu\nbyte_ns %llu\nlanes %u\n",
		       (unsigned long long)p.cost[VC_CLASS_SHORT].base,
		       (unsigned long long)p.cost[VC_CLASS_SHORT].byte, p.lanes);
		return 0;
	}
	if (!algo) {
		usage(stderr);
		return 2;
	}
	if (!vcube_thakur_steps(algo, 2)) {
		fprintf(stderr, "vcube-sim: no algorithm '%s' (pex, pexgen, pexgenshift, gen)\n",
			algo);
		return 2;
	}
	if (alpha >= 0)
		p.cost[VC_CLASS_SHORT].base = alpha;
	if (byte >= 0)
		p.cost[VC_CLASS_SHORT].byte = byte;
	if (lanes >= 0)
		p.lanes = lanes;
	if (vcube_topo_init(&topo, &tp, err, sizeof(err))) {
		fprintf(stderr, "vcube-sim: %s\n", err);
		return 2;
	}
	if (!strcmp(algo, "pex") && (topo.nodes & (topo.nodes - 1))) {
		fprintf(stderr, "vcube-sim: pex needs a power-of-two mesh\n");
		return 2;
	}
	eng = vc_engine_create(&topo, &p);
	nprocs = topo.nodes;
	procs = calloc(nprocs, sizeof(*procs));
	queue = calloc(nprocs, sizeof(*queue));
	if (!eng || !procs || !queue)
		return 1;
	vc_engine_set_wake(eng, wake, NULL);
	for (i = 0; i < nprocs; i++) {
		vc_bind(eng, i);
		procs[i].step = 1;
		procs[i].queued = true;
		queue[qtail++ % nprocs] = i;
	}
	while (qhead != qtail) {
		u32 me = queue[qhead++ % nprocs];

		procs[me].queued = false;
		/*
		 * A node woken inside its own call was queued while it went on;
		 * if it has blocked again since, its wake will queue it anew.
		 */
		if (procs[me].done || vc_node_state(eng, me) != VC_RUNNING)
			continue;
		ret = run(me);
		if (ret) {
			fprintf(stderr, "vcube-sim: node %u: %s\n", me,
				strerror(-ret));
			return 1;
		}
	}
	for (i = 0; i < nprocs; i++)
		if (!procs[i].done) {
			fprintf(stderr, "vcube-sim: node %u never finished\n", i);
			return 1;
		}
	printf("%s %s %ux%u %llu %.6f\n", profile, algo, tp.rows, tp.cols,
	       (unsigned long long)len, finish / 1e9);
	vc_engine_destroy(eng);
	free(procs);
	free(queue);
	return 0;
}
