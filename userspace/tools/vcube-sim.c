// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-sim: run a complete exchange's plan (libvcube's registry, plan.h)
 * on vcube's model on the host, without the kernel: the same kernel/core
 * engine the module runs, and the same executor (vcube_plan_run()) over a
 * transport that calls the engine directly. Each node runs as a coroutine
 * on one thread (a ucontext stack, entered once with setcontext(), then
 * switched with _setjmp()/_longjmp(), which leave the signal mask alone and
 * so make no system call): when the engine says it is blocked it yields,
 * and the engine's wake callback queues it to go on. Payloads are not
 * carried (tests/host/plan_test.c checks where every block goes); times
 * are. The engine's virtual
 * times do not depend on that order, so they equal the module's.
 *
 *   vcube-sim --profile delta --rows 16 --cols 32 --algo pex --len 4096
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdarg.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include <json-c/json.h>

#include "comm.h"
#include "costs.h"
#include "common/algos.h"
#include "common/cli.h"
#include "common/json_print.h"
#include "common/routes.h"
#include "common/timeline.h"
#include "engine.h"
#include "graph/graph.h"
#include "plan.h"
#include "profiles.h"
#include "topology.h"

#define SIM_STACK	(256 * 1024)

static struct vc_engine *eng;
/* packet switching: the trace names bundles, not channels */
static bool sim_packet;
static u32 nprocs, rows, cols;
static unsigned int kind = VCUBE_ALGO_XCHG;	/* the registry's */
static const char *algo;
static u64 len, shift = 1;
static struct vcube_tool_progress progress;	/* --quiet: off */
static u32 ndone;				/* nodes finished */
/*
 * Out of memory: what the first allocation that failed was for (empty:
 * not known), and how much was allocated then (sim_say_nomem()).
 */
static char nomem_what[160];
static size_t nomem_held;
static int first_ret;		/* the first node's error, in time */

/* One node: its coroutine, and what it ended with. */
struct simnode {
	ucontext_t uc;
	jmp_buf jb;
	bool started;
	void *stack;
	u32 node;
	bool queued;
	bool done;
	u64 end;	/* its clock at the end */
	int ret;
};

static struct simnode *nodes;

/* --timeline: the trace's bound (channel uses, messages, waits). */
#define SIM_TRACE_MAX	(1U << 21)
static jmp_buf sched_jb;
static uint8_t *sbuf, *rbuf;	/* every node's, contents unused */
static u32 *queue, qhead, qtail;

/* A posted receive: the engine's request and where its data goes. */
struct simreq {
	struct vc_req *r;
	void *buf;
	size_t cap;
};

/* Bytes the process has allocated now (the heap and its mappings). */
static size_t sim_held(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

/* An allocation for @fmt failed: kept, if it is the first one. */
static void sim_nomem(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static void sim_nomem(const char *fmt, ...)
{
	va_list ap;

	if (nomem_what[0])
		return;
	va_start(ap, fmt);
	vsnprintf(nomem_what, sizeof(nomem_what), fmt, ap);
	va_end(ap);
	nomem_held = sim_held();
}

/* @b bytes as a person reads them: "151 MB", "1.05 GB". */
static const char *sim_bytes(u64 b, char *buf, size_t n)
{
	if (b >= 1000000000)
		snprintf(buf, n, "%.2f GB", b / 1e9);
	else if (b >= 1000000)
		snprintf(buf, n, "%.0f MB", b / 1e6);
	else
		snprintf(buf, n, "%.0f KB", b / 1e3);
	return buf;
}

static void wake(void *ctx, u32 node)
{
	(void)ctx;
	if (!nodes[node].queued && !nodes[node].done) {
		nodes[node].queued = true;
		queue[qtail++ % nprocs] = node;
	}
}

/* Yield until @node is no longer blocked; its status. */
static int sim_block(u32 node, int ret)
{
	while (ret == VC_BLOCKED_RET) {
		if (!_setjmp(nodes[node].jb))
			_longjmp(sched_jb, 1);
		ret = vc_node_status(eng, node);
		if (ret == -EAGAIN)
			ret = VC_BLOCKED_RET;
	}
	return ret;
}

static int sim_send(void *ctx, unsigned int to, unsigned int tag,
		    const void *buf, size_t n, unsigned int flags)
{
	u32 node = ((struct simnode *)ctx)->node;
	struct vc_req *r;
	int ret;

	/*
	 * No copy of the payload: the engine only frees a message's data,
	 * and a copy per message held every block of a POSTED exchange at
	 * once (pairwise_F on 1024 nodes: p * (p - 1) of them).
	 */
	(void)buf;
	ret = vc_send(eng, node, to, tag,
		      flags & VCUBE_SEND_FORCED ? VC_SEND_FORCED : 0, NULL, n, 0,
		      &r);
	if (ret == -ENOMEM)
		sim_nomem("node %u's send of %zu B to node %u, at %.6f s virtual",
			  node, n, to, vc_now(eng) / 1e9);
	if (!ret) {
		ret = sim_block(node, vc_wait(eng, node, r));
		vc_req_free(eng, r);
	}
	return ret;
}

static int sim_irecv(void *ctx, unsigned int from, unsigned int tag,
		     void *buf, size_t cap, uint64_t *req)
{
	u32 node = ((struct simnode *)ctx)->node;
	struct simreq *q = malloc(sizeof(*q));
	int ret = q ? vc_recv(eng, node, from, tag, cap, 0, &q->r) : -ENOMEM;

	if (ret == -ENOMEM)
		sim_nomem("node %u's receive from node %u, at %.6f s virtual",
			  node, from, vc_now(eng) / 1e9);
	if (ret) {
		free(q);
		return ret;
	}
	q->buf = buf;
	q->cap = cap;
	*req = (uintptr_t)q;
	return 0;
}

static int sim_wait(void *ctx, uint64_t req, size_t *got)
{
	u32 node = ((struct simnode *)ctx)->node;
	struct simreq *q = (struct simreq *)(uintptr_t)req;
	struct vc_msg *m;
	int ret;

	ret = sim_block(node, vc_wait(eng, node, q->r));
	if (!ret) {
		m = q->r->msg;
		ret = q->r->status;
		if (got)
			*got = m ? m->len : 0;
	}
	vc_req_free(eng, q->r);
	free(q);
	return ret;
}

static int sim_recv(void *ctx, unsigned int from, unsigned int tag, void *buf,
		    size_t cap)
{
	uint64_t req;
	int ret = sim_irecv(ctx, from, tag, buf, cap, &req);

	return ret ?: sim_wait(ctx, req, NULL);
}

static int sim_clock(void *ctx, uint64_t *ns)
{
	*ns = vc_clock(eng, ((struct simnode *)ctx)->node);
	return 0;
}

static int sim_delay(void *ctx, uint64_t ns)
{
	int ret;

	ret = vc_delay(eng, ((struct simnode *)ctx)->node, ns);
	return ret;
}

static int sim_copy(void *ctx, uint64_t bytes)
{
	u64 ns;
	int ret;

	ret = vc_copy(eng, ((struct simnode *)ctx)->node, bytes, &ns);
	return ret;
}

static const struct vcube_transport sim_transport = {
	.send = sim_send, .irecv = sim_irecv, .wait = sim_wait,
	.recv = sim_recv, .clock = sim_clock, .delay = sim_delay,
	.copy = sim_copy,
};

/*
 * The library's call for @kind at one rank, as a program calls it: the
 * same plan through the same executor as on the device. Reductions and
 * scans sum len / 8 u64s, a broadcast comes from rank 0.
 */
static int sim_call(struct vcube_comm *c)
{
	switch (kind) {
	case VCUBE_ALGO_XCHG:
		return vcube_xchg_run(c, algo, sbuf, rbuf, len, NULL);
	case VCUBE_ALGO_SYNC:
		return vcube_sync_run(c, algo);
	case VCUBE_ALGO_BCAST:
		return vcube_bcast_run(c, algo, 0, sbuf, len);
	case VCUBE_ALGO_REDUCE:
		return vcube_reduce_run(c, algo, VCUBE_OP_SUM, VCUBE_TYPE_U64,
					sbuf, rbuf, len / 8);
	case VCUBE_ALGO_SCAN:
		return vcube_scan_run(c, algo, VCUBE_OP_SUM, VCUBE_TYPE_U64,
				      sbuf, rbuf, len / 8);
	case VCUBE_ALGO_KERNEL:
		return vcube_kernel_run(c, algo, sbuf, len, NULL);
	case VCUBE_ALGO_SHIFT:
		return vcube_shift_run(c, (int)shift, sbuf, rbuf, len);
	default:
		return -ENOENT;
	}
}

/* One node: its call through the executor; it never returns. */
static void node_main(int i)
{
	struct simnode *sn = &nodes[i];
	struct vcube_comm *c = NULL;
	int ret;

	ret = vcube_comm_create_tp(&sim_transport, sn, sn->node, nprocs, &c);
	if (!ret) {
		c->info.rows = rows;
		c->info.cols = cols;
		ret = sim_call(c);
	}
	if (ret == -ENOMEM)	/* in the library, if not in a call of ours */
		sim_nomem("node %u's %s %s, at %.6f s virtual", sn->node,
			  vcube_algo_kind_name(kind), algo, vc_now(eng) / 1e9);
	if (ret && !first_ret)
		first_ret = ret;
	sn->end = vc_clock(eng, sn->node);
	vc_unbind(eng, sn->node);
	sn->ret = ret;
	sn->done = true;
	ndone++;
	if (c)
		vcube_comm_close(c);
	_longjmp(sched_jb, 1);
}

/* Node @i's coroutine, bound at time 0 and queued to start. */
static int node_init(u32 i)
{
	struct simnode *sn = &nodes[i];

	sn->node = i;
	sn->stack = malloc(SIM_STACK);
	if (!sn->stack) {
		sim_nomem("node %u's stack (%u KB a node)", i,
			  SIM_STACK / 1024);
		return -ENOMEM;
	}
	if (getcontext(&sn->uc))
		return -errno;
	sn->uc.uc_stack.ss_sp = sn->stack;
	sn->uc.uc_stack.ss_size = SIM_STACK;
	sn->uc.uc_link = NULL;
	makecontext(&sn->uc, (void (*)(void))node_main, 1, (int)i);
	vc_bind(eng, i);
	sn->queued = true;
	queue[qtail++ % nprocs] = i;
	return 0;
}

/* Switch to @sn until it yields or ends. */
static void resume(struct simnode *sn)
{
	if (_setjmp(sched_jb))
		return;
	if (!sn->started) {
		sn->started = true;
		setcontext(&sn->uc);
	}
	_longjmp(sn->jb, 1);
}

/* Run every node until all have ended: 0, or the first node's error. */
static int sim_run(void)
{
	u32 i, me;
	int ret = 0;

	/* every node bound at time 0 before any starts, as vcube-run does */
	for (i = 0; i < nprocs; i++) {
		ret = node_init(i);
		if (ret)
			return ret;
	}
	for (i = 0; qhead != qtail; i++) {
		if (!(i & 4095))	/* on a terminal, twice a second */
			vcube_tool_progress_step(&progress, 0, 5,
						 "at %.6f s virtual, %u of %u nodes done",
						 vc_now(eng) / 1e9, ndone,
						 nprocs);
		me = queue[qhead++ % nprocs];
		nodes[me].queued = false;
		/*
		 * A node woken inside its own call was queued while it went on;
		 * if it has blocked again since, its wake will queue it anew.
		 */
		if (nodes[me].done || vc_node_state(eng, me) != VC_RUNNING)
			continue;
		resume(&nodes[me]);
	}
	/* the first error, not the deadlock it left the others in */
	ret = first_ret;
	for (i = 0; i < nprocs; i++) {
		if (!nodes[i].done)
			ret = ret ?: -EDEADLK;
		free(nodes[i].stack);
	}
	return ret;
}

/*
 * A deadlock, said in one line: a routing deadlock (messages waiting for
 * channels held in a cycle: circuit switching or finite lanes over routes
 * whose channels depend on one another, which vcube's deterministic routes
 * on a graph's or a dragonfly's cycles can make), or the program's own.
 */
static void sim_say_deadlock(const struct vc_params *p)
{
	u32 chans, waits = vc_deadlock_chan_waits(eng, &chans);
	u64 t;
	u32 n = vc_deadlock_count(eng, &t);
	char how[32];

	if (p->switching == VC_SW_CIRCUIT)
		snprintf(how, sizeof(how), "circuit switching");
	else
		snprintf(how, sizeof(how), "wormhole, lanes=%u", p->lanes);
	if (waits)
		fprintf(stderr, "vcube-sim: routing deadlock at %llu ns: %u messages wait for %u channels held in a cycle (%s; a profile with no lane limit, such as cm5, ap1000 or slingshot, has none)\n",
			(unsigned long long)t, waits, chans, how);
	else
		fprintf(stderr, "vcube-sim: deadlock at %llu ns: %u nodes wait and nothing is in flight\n",
			(unsigned long long)t, n);
}

static void usage(FILE *f)
{
	char lead[16];
	unsigned int k;

	fprintf(f,
		"usage: vcube-sim --profile NAME [--topology KIND] SHAPE [--kind KIND] --algo ALGO\n"
		"                 [--len BYTES] [-j] [KEY=VALUE ...]\n"
		"       vcube-sim --profile NAME --costs\n"
		"       vcube-sim --list [--json]\n\n"
		"Run an algorithm of libvcube's registry (a complete exchange by default)\n"
		"on vcube's model on the host (no kernel), every node from time 0, and\n"
		"print the virtual time the last node finished, in seconds. The network\n"
		"may be given in the module parameters' words after the options, as\n"
		"vcubectl net add takes them: topology=torus dims=8,8,8 profile=ap1000\n"
		"(topology, profile, dim, dims, rows, cols, nodes, levels, down, up,\n"
		"links, routing, groups, routers, global, lanes, fc_bufs), or a graph\n"
		"of routers read from a file: [topology=graph] file=PATH\n"
		"[format=anynet|graphml] (BookSim2's anynet, SST's GraphML; routed by\n"
		"shortest path; its shape is printed as routers=R,nodes=N,links=L).\n"
		"  --profile   ipsc860, seidel, delta, ap1000, cm5 or slingshot (a\n"
		"              dragonfly of today, named only; default: the\n"
		"              topology's machine's, as the module's: cm5 for a\n"
		"              dragonfly or a graph; delta with no topology), or a\n"
		"              profile file (a path; vcube-bench over MPI writes one:\n"
		"              a generic machine fitted to that MPI's ping-pong)\n"
		"  --topology  hypercube, mesh, torus, fattree, dragonfly or graph (with\n"
		"              file=PATH) (default: the profile's machine's); SHAPE is\n"
		"              --rows R --cols C,\n"
		"              --dims X,Y,..., --dim D, --nodes N, or --levels L\n"
		"              --down M,.. --up W,.. [--links P,..] (SimGrid's fat\n"
		"              tree) as the module's (default: the profile's size),\n"
		"              or --procs N: N nodes, the squarest mesh or torus\n"
		"              (with a shape: the network must have N nodes); a\n"
		"              dragonfly's is --groups G --routers A --nodes P (per\n"
		"              router) --global H, G <= A * H + 1\n"
		"  --routing   a fat tree's up-routing: dmodk or random (default: random\n"
		"              for --nodes, dmodk for --levels); a dragonfly's:\n"
		"              minimal (default), valiant or ugal\n"
		"  --kind      xchg (default), sync, bcast, reduce, scan, kernel or shift\n"
		"  --algo      one of that kind (--list); a shift's is gray\n"
		"  --len       bytes of each block (default 0; reduce, scan: len / 8\n"
		"              u64s summed)\n"
		"  --shift K   a shift's distance (default 1)\n"
		"  -j, --json  the result (or the --list, the --costs) as JSON\n"
		"  -l, --list  the registry's algorithms and exit\n"
		"  --alpha-ns, --byte-ns   override the profile's startup and per-byte cost\n"
		"  --lanes N   override the profile's bodies per channel (0: no limit)\n"
		"  --fc-bufs N override the profile's flow-control window: headers\n"
		"              a node may have out to one receiver (0: off)\n"
		"  --cost KEY=VALUE  override any of the profile's cost parameters,\n"
		"              named as the module's (short_byte_ns=, short_hop_ns=,\n"
		"              eject=, sysbuf=, copy_byte_ps=, ...); repeatable\n"
		"  --ns        the time in ns, not seconds\n"
		"  --timeline FILE  also draw the run's time-space diagram (.svg or\n"
		"              .png, gnuplot): nodes against virtual time, each\n"
		"              message a line from sender to receiver, transmissions,\n"
		"              receptions and blocked intervals on each node's row\n"
		"  --timeline-nodes LIST  only these nodes' rows (0-15, 0,4,8-11); a\n"
		"              message to or from a node not drawn is a stub\n"
		"  --from NS   the diagram's time axis starts at NS (default 0)\n"
		"  --until NS  the diagram's time axis ends at NS (default: the run's)\n"
		"  --routes FILE  also write each message the trace keeps with the\n"
		"              route it took: its channels in order (vcubectl links'\n"
		"              numbers), hops, the fewest its ends are apart, minimal\n"
		"              yes or no (a dragonfly's Valiant routes are not), and\n"
		"              its longest wait's cause; text, or JSON if FILE ends\n"
		"              in .json\n"
		"  -q, --quiet no progress (on stderr: a live line on a terminal,\n"
		"              else a line every 5 s)\n"
		"  --costs     print the profile's startup and per-byte cost (ns) and exit\n"
		"  -h, --help  this text; -V, --version: the version\n\n"
		"--kind, then --algo (cm5_control: the control network, not run here):\n");
	for (k = 0; k < VCUBE_ALGO_NKINDS; k++) {
		if (k == VCUBE_ALGO_IRREGULAR)
			continue;
		snprintf(lead, sizeof(lead), "  %-7s", vcube_algo_kind_name(k));
		vcube_tool_algos_names(f, lead, 1U << k);
	}
}

static int sim_parse_num(const char *name, const char *s, u64 min, u64 max,
			 u64 *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || *v < min || *v > max) {
		fprintf(stderr, "vcube-sim: bad --%s '%s' (%llu .. %llu)\n", name,
			s, (unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	return 0;
}

/* --kind's @name: a kind of the registry that vcube-sim runs. */
static int sim_parse_kind(const char *name)
{
	unsigned int k;

	for (k = 0; k < VCUBE_ALGO_NKINDS; k++)
		if (k != VCUBE_ALGO_IRREGULAR &&
		    !strcmp(name, vcube_algo_kind_name(k))) {
			kind = k;
			return 0;
		}
	fprintf(stderr, "vcube-sim: bad --kind '%s' (xchg, sync, bcast, reduce, scan, kernel, shift)\n",
		name);
	return -EINVAL;
}

/* --topology's @name: hypercube, mesh, torus or fattree. */
static int sim_parse_topology(const char *name, enum vcube_topo_kind *kind)
{
	int k;

	for (k = 0; k < VCUBE_TOPO_NKINDS; k++)
		if (!strcmp(name, vcube_topo_kind_name(k))) {
			*kind = k;
			return 0;
		}
	fprintf(stderr, "vcube-sim: bad --topology '%s' (hypercube, mesh, torus, fattree, dragonfly, graph)\n",
		name);
	return -EINVAL;
}

/* The network's shape as the output line gives it. */
static void sim_shape(const struct vcube_topo *t, char *buf, size_t n)
{
	if (t->kind == VCUBE_TOPO_HYPERCUBE)
		snprintf(buf, n, "d=%u", t->dim);
	else if (t->kind == VCUBE_TOPO_FATTREE && t->ft.cm5)
		snprintf(buf, n, "n=%u", t->nodes);
	else if (t->kind == VCUBE_TOPO_FATTREE)	/* SimGrid's L;m..;w..;p.. */
		for (u32 i = 0, k, at = snprintf(buf, n, "%u", t->ft.levels);
		     i < 3; i++)
			for (k = 0; k < t->ft.levels && at < n; k++)
				at += snprintf(buf + at, n - at, "%c%u",
					       k ? ',' : ';',
					       (i == 0 ? t->ft.down :
						i == 1 ? t->ft.parents :
						t->ft.links)[k]);
	else if (t->kind == VCUBE_TOPO_DRAGONFLY ||
		 t->kind == VCUBE_TOPO_GRAPH)	/* the module's words, one word */
		for (char *s = (vcube_topo_format_shape(t, buf, n), buf);
		     (s = strchr(s, ' '));)
			*s = ',';
	else if (t->cols)
		snprintf(buf, n, "%ux%u", t->rows, t->cols);
	else	/* dims=: in its order, X first */
		for (u32 d = 0, at = 0; d < t->ndims && at < n; d++)
			at += snprintf(buf + at, n - at, d ? "x%u" : "%u",
				       t->size[d]);
}

/* --dims X,Y,...: 1 to 6 sizes into @tp; 0, or -EINVAL (said). */
static int sim_parse_dims(const char *arg, struct vcube_topo_params *tp)
{
	const char *s = arg;
	char *end;
	unsigned long v;

	tp->ndims = 0;
	do {
		end = (char *)s;
		errno = 0;
		v = *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : 0;
		if (end == s || !v || v > 4096 || errno ||
		    (*end && *end != ',') || tp->ndims == VCUBE_GRID_MAX_DIMS) {
			fprintf(stderr, "vcube-sim: bad --dims '%s' (1 to %d sizes, as 8,8,8)\n",
				arg, VCUBE_GRID_MAX_DIMS);
			return -EINVAL;
		}
		tp->dims[tp->ndims++] = v;
		s = end + 1;
	} while (*end);
	return 0;
}

/*
 * --down, --up or --links (@name): 1 to 6 numbers into @v, their count
 * into @n; their values are vcube_topo_init()'s to check. 0, or -EINVAL
 * (said).
 */
static int sim_parse_list(const char *name, const char *arg, u32 *v, u32 *n)
{
	const char *s = arg;
	char *end;
	unsigned long long x;

	*n = 0;
	do {
		end = (char *)s;
		errno = 0;
		x = *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
		if (end == s || x > UINT32_MAX || errno ||
		    (*end && *end != ',') || *n == VCUBE_FT_MAX_LEVELS) {
			fprintf(stderr, "vcube-sim: bad --%s '%s' (1 to %d numbers, as 16,16)\n",
				name, arg, VCUBE_FT_MAX_LEVELS);
			return -EINVAL;
		}
		v[(*n)++] = x;
		s = end + 1;
	} while (*end);
	return 0;
}

/* --down, --up or --links (@c) into @tp: 0, or -EINVAL said. */
static int sim_tree_opt(int c, const char *arg, struct vcube_topo_params *tp)
{
	if (c == 'M')
		return sim_parse_list("down", arg, tp->down, &tp->ndown);
	if (c == 'U')
		return sim_parse_list("up", arg, tp->up, &tp->nup);
	return sim_parse_list("links", arg, tp->links, &tp->nlinks);
}

/*
 * --routing @arg for the topology the network is (known only once every
 * option is read): a fat tree's dmodk or random, a dragonfly's minimal,
 * valiant or ugal. 0, or -EINVAL (said).
 */
static int sim_parse_routing(const char *arg, struct vcube_topo_params *tp)
{
	int r;

	if (!arg)
		return 0;
	r = vcube_topo_routing_parse(tp->kind, arg);
	if (r == -EOPNOTSUPP) {
		fprintf(stderr, "vcube-sim: routing= does not apply to topology=%s\n",
			vcube_topo_kind_name(tp->kind));
		return -EINVAL;
	}
	if (r < 0) {
		fprintf(stderr, "vcube-sim: bad --routing '%s' (%s)\n", arg,
			tp->kind == VCUBE_TOPO_FATTREE ? "dmodk, random" :
			"minimal, valiant, ugal");
		return -EINVAL;
	}
	tp->routing = r;
	return 0;
}

/* A shape given on the command line (not the profile's)? */
static bool sim_shaped(const struct vcube_topo_params *tp)
{
	return tp->dim || tp->rows || tp->cols || tp->nodes || tp->ndims ||
	       tp->levels || tp->ndown || tp->nup || tp->nlinks ||
	       tp->groups || tp->routers || tp->global;
}

struct simopts {
	const char *profile;
	const char *timeline;		/* --timeline FILE */
	const char *tl_nodes;		/* --timeline-nodes LIST */
	const char *routes;		/* --routes FILE */
	const char *routing;		/* --routing, read once the kind is */
	unsigned int *rows, nrows;	/* its nodes */
	u64 from, until;		/* --from NS, --until NS: its axis */
	bool shift_set, from_set, until_set;	/* --shift, --from, --until given */
	struct vcube_topo_params tp;
	long long alpha, byte, lanes, fc;	/* -1: the profile's */
	struct { u8 i; u64 v; } cost[64];	/* --cost, in the order given */
	unsigned int ncost;
	u64 procs;			/* --procs: the shape from a count */
	u64 scale;			/* a profile file's: ps run as ns */
	bool costs, in_ns, list, json, quiet;
	bool topo_set;			/* --topology given */
	bool profile_set;		/* --profile given */
	/* file=: the graph read, and as the kernel takes it (sim_graph()) */
	struct vcube_netfile net;
	struct vcube_graph_desc gd;
	uint16_t *node_router, *links;
	uint32_t *chan_costs;		/* the file's per channel, or NULL */
};

/* Is the cost @i sets already set under its other name (said)? */
static bool sim_cost_twin_given(const struct simopts *o, int i)
{
	int twin = vc_cost_twin(i);
	unsigned int k;

	for (k = 0; twin >= 0 && k < o->ncost; k++)
		if (o->cost[k].i == twin) {
			fprintf(stderr, "vcube-sim: --cost %s= and %s= set one cost: give one\n",
				vc_cost_defs[twin].name, vc_cost_defs[i].name);
			return true;
		}
	return false;
}

/* --cost's @arg, KEY=VALUE, into @o: 0, or -EINVAL (said). */
static int sim_cost_opt(const char *arg, struct simopts *o)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;
	int i = vc_cost_find(arg, n);
	char name[32];
	u64 v;

	/* the module's table (kernel/core/costs.c): its data network's */
	if (i < 0 || !vc_cost_defs[i].data) {
		fprintf(stderr, "vcube-sim: bad --cost '%s': KEY=VALUE, KEY one of", arg);
		for (i = 0; i < VC_NCOST_DEFS; i++)
			if (vc_cost_defs[i].data)
				fprintf(stderr, " %s", vc_cost_defs[i].name);
		fputc('\n', stderr);
		return -EINVAL;
	}
	if (o->ncost == sizeof(o->cost) / sizeof(o->cost[0])) {
		fprintf(stderr, "vcube-sim: too many --cost\n");
		return -EINVAL;
	}
	snprintf(name, sizeof(name), "cost %s", vc_cost_defs[i].name);
	if (sim_parse_num(name, eq + 1, 0, vc_cost_defs[i].max, &v))
		return -EINVAL;
	if (sim_cost_twin_given(o, i))
		return -EINVAL;
	o->cost[o->ncost].i = i;
	o->cost[o->ncost++].v = v;
	return 0;
}

/* A numeric option @c's value @arg, range-checked, into @o. */
static int sim_num_opt(int c, const char *arg, struct simopts *o)
{
	/* a shape of 0 would read as none given: the profile's own */
	static const struct { int c; const char *name; u64 min, max; } nums[] = {
		{ 'r', "rows", 1, 4096 }, { 'c', "cols", 1, 4096 },
		{ 'E', "len", 0, 1ULL << 30 }, { 'A', "alpha-ns", 0, 1000000000 },
		{ 'B', "byte-ns", 0, 1000000 }, { 'L', "lanes", 0, 1024 },
		{ 'D', "dim", 1, 12 }, { 'N', "nodes", 1, 4096 },
		{ 'S', "shift", 0, 4095 }, { 'P', "procs", 1, 4096 },
		{ 'X', "until", 1, 1ULL << 50 }, { 'Z', "from", 0, 1ULL << 50 },
		{ 'F', "fc-bufs", 0, VC_FC_MAX_BUFS },
		{ 'H', "levels", 1, VCUBE_FT_MAX_LEVELS },
		{ 'g', "groups", 1, 4096 }, { 'o', "routers", 1, 4096 },
		{ 'b', "global", 1, 4096 },
	};
	size_t i;
	u64 v;

	for (i = 0; i < sizeof(nums) / sizeof(nums[0]) && nums[i].c != c; i++)
		;
	if (i == sizeof(nums) / sizeof(nums[0]) ||
	    sim_parse_num(nums[i].name, arg, nums[i].min, nums[i].max, &v))
		return -EINVAL;
	switch (c) {
	case 'r': o->tp.rows = v; break;
	case 'c': o->tp.cols = v; break;
	case 'E': len = v; break;
	case 'A': o->alpha = v; break;
	case 'B': o->byte = v; break;
	case 'L': o->lanes = v; break;
	case 'D': o->tp.dim = v; break;
	case 'N': o->tp.nodes = v; break;
	case 'S': shift = v; o->shift_set = true; break;
	case 'P': o->procs = v; break;
	case 'X': o->until = v; o->until_set = true; break;
	case 'Z': o->from = v; o->from_set = true; break;
	case 'F': o->fc = v; break;
	case 'H': o->tp.levels = v; break;
	case 'g': o->tp.groups = v; break;
	case 'o': o->tp.routers = v; break;
	case 'b': o->tp.global = v; break;
	}
	return 0;
}

/* The options against each other: 0, or 2 said. */
static int sim_options_agree(struct simopts *o)
{
	/* said, not ignored: options of something not asked for */
	if (o->shift_set && kind != VCUBE_ALGO_SHIFT) {
		fprintf(stderr, "vcube-sim: --shift is for --kind shift\n");
		return 2;
	}
	/* the list's form now; its nodes once the network is known */
	if (vcube_tool_timeline_opts("vcube-sim", o->timeline, o->tl_nodes,
				     o->from_set, o->from, o->until_set,
				     o->until, &o->rows, &o->nrows))
		return 2;
	return 0;
}

/* vcube-sim's long options: each one's letter is its case below. */
static const struct option sim_opts[] = {
	{ "profile", required_argument, NULL, 'p' },
	{ "rows", required_argument, NULL, 'r' },
	{ "cols", required_argument, NULL, 'c' },
	{ "algo", required_argument, NULL, 'a' },
	{ "len", required_argument, NULL, 'E' },
	{ "alpha-ns", required_argument, NULL, 'A' },
	{ "byte-ns", required_argument, NULL, 'B' },
	{ "costs", no_argument, NULL, 'C' },
	{ "lanes", required_argument, NULL, 'L' },
	{ "fc-bufs", required_argument, NULL, 'F' },
	{ "cost", required_argument, NULL, 'O' },
	{ "topology", required_argument, NULL, 'T' },
	{ "dim", required_argument, NULL, 'D' },
	{ "dims", required_argument, NULL, 'G' },
	{ "nodes", required_argument, NULL, 'N' },
	{ "levels", required_argument, NULL, 'H' },
	{ "down", required_argument, NULL, 'M' },
	{ "up", required_argument, NULL, 'U' },
	{ "links", required_argument, NULL, 'k' },
	{ "routing", required_argument, NULL, 'R' },
	{ "groups", required_argument, NULL, 'g' },
	{ "routers", required_argument, NULL, 'o' },
	{ "global", required_argument, NULL, 'b' },
	{ "ns", no_argument, NULL, 'n' },
	{ "kind", required_argument, NULL, 'K' },
	{ "shift", required_argument, NULL, 'S' },
	{ "procs", required_argument, NULL, 'P' },
	{ "timeline", required_argument, NULL, 'W' },
	{ "until", required_argument, NULL, 'X' },
	{ "from", required_argument, NULL, 'Z' },
	{ "timeline-nodes", required_argument, NULL, 'Y' },
	{ "routes", required_argument, NULL, 'Q' },
	{ "list", no_argument, NULL, 'I' },
	{ "json", no_argument, NULL, 'J' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

/* Option @c with @arg into @o: 0, 1 (--help: exit 0) or 2 (bad: exit 2). */
static int sim_opt(int c, const char *arg, struct simopts *o)
{
	switch (c) {
	case 'p': o->profile = arg; o->profile_set = true; break;
	case 'a': algo = arg; break;
	case 'C': o->costs = true; break;
	case 'n': o->in_ns = true; break;
	case 'I': case 'l': o->list = true; break;
	case 'J': case 'j': o->json = true; break;
	case 'q': o->quiet = true; break;
	case 'W': o->timeline = arg; break;
	case 'Y': o->tl_nodes = arg; break;
	case 'Q': o->routes = arg; break;
	case 'K':
		return sim_parse_kind(arg) ? 2 : 0;
	case 'T':
		if (sim_parse_topology(arg, &o->tp.kind))
			return 2;
		o->topo_set = true;
		break;
	case 'G':
		return sim_parse_dims(arg, &o->tp) ? 2 : 0;
	case 'R': o->routing = arg; break;
	case 'O':
		return sim_cost_opt(arg, o) ? 2 : 0;
	case 'M': case 'U': case 'k':
		return sim_tree_opt(c, arg, &o->tp) ? 2 : 0;
	case 'h': usage(stdout); return 1;
	case 'V': vcube_tool_version("vcube-sim"); return 1;
	case '?': return vcube_tool_try_help("vcube-sim");
	default:
		return sim_num_opt(c, arg, o) ? 2 : 0;
	}
	return 0;
}

/*
 * The network in the module parameters' words, after the options, as
 * vcubectl net add takes them: topology=torus dims=8,8,8. Each is its
 * option (fc_bufs= is --fc-bufs). 0, or 2 (said).
 */
static const char *const sim_words[] = {
	"topology", "profile", "dim", "dims", "rows", "cols", "nodes",
	"levels", "down", "up", "links", "routing", "groups", "routers",
	"global", "lanes", "fc-bufs",
};

static int sim_word(const char *word, struct simopts *o)
{
	const char *eq = strchr(word, '=');
	char key[16];
	size_t i, n = eq ? (size_t)(eq - word) : 0;

	if (n && n < sizeof(key)) {
		memcpy(key, word, n);
		key[n] = 0;
		for (i = 0; i < n; i++)
			key[i] = key[i] == '_' ? '-' : key[i];
		for (i = 0; i < sizeof(sim_words) / sizeof(sim_words[0]); i++)
			if (!strcmp(key, sim_words[i]))
				break;
	}
	if (!n || n >= sizeof(key) ||
	    i == sizeof(sim_words) / sizeof(sim_words[0])) {
		fprintf(stderr, "vcube-sim: '%s' is not a network word (KEY=VALUE, KEY one of topology, profile, dim, dims, rows, cols, nodes, levels, down, up, links, routing, groups, routers, global, lanes, fc_bufs, file, format)\n",
			word);
		return 2;
	}
	for (i = 0; strcmp(sim_opts[i].name, key); i++)
		;
	return sim_opt(sim_opts[i].val, eq + 1, o) ? 2 : 0;
}

/* The command line into @o: 0, 1 (--help: exit 0) or 2 (bad: exit 2). */
static int sim_options(int argc, char **argv, struct simopts *o)
{
	int c, ret, n, i;

	vcube_tool_name(argv, "vcube-sim");
	while ((c = getopt_long(argc, argv, "jlqhV", sim_opts, NULL)) != -1) {
		ret = sim_opt(c, optarg, o);
		if (ret)
			return ret;
	}
	/* file= and format= read here, taken out of the words */
	n = argc - optind;
	if (vcube_netfile_words(&o->net, &n, argv + optind)) {
		fprintf(stderr, "vcube-sim: %s\n", o->net.err);
		return 2;
	}
	for (i = 0; i < n; i++) {
		ret = sim_word(argv[optind + i], o);
		if (ret)
			return ret;
	}
	if (o->net.nodes && !o->topo_set) {	/* file= is topology=graph */
		o->tp.kind = VCUBE_TOPO_GRAPH;
		o->topo_set = true;
	}
	/* a topology and no profile: the module's choice, its machine's */
	if (o->topo_set && !o->profile_set)
		o->profile = vc_profile_get(vc_profile_for_kind(o->tp.kind))->name;
	return sim_options_agree(o);
}

/*
 * 0 if --algo names an algorithm of --kind that vcube-sim can run on this
 * network, else why not, said on stderr.
 */
static int sim_check_algo(void)
{
	struct vcube_plan_args a = { .p = nprocs, .rows = rows, .cols = cols };
	const struct vcube_algo_impl *im = vcube_algo_lookup(kind, algo);

	if (!im) {
		fprintf(stderr, "vcube-sim: no %s algorithm '%s' (vcube-sim --list)\n",
			vcube_algo_kind_name(kind), algo);
		return -ENOENT;
	}
	if (!im->plan) {
		fprintf(stderr, "vcube-sim: %s runs on the control network, which vcube-sim does not model\n",
			algo);
		return -EDOM;
	}
	if (vcube_algo_fits(im, &a, false)) {
		fprintf(stderr, "vcube-sim: not on this network: %s\n", algo);
		return -EDOM;
	}
	if (kind == VCUBE_ALGO_SHIFT && (!shift || shift >= nprocs)) {
		fprintf(stderr, "vcube-sim: --shift %llu is not 1 .. %u\n",
			(unsigned long long)shift, nprocs - 1);
		return -EINVAL;
	}
	return 0;
}

/* The profile's constants that the command line overrides. */
static void sim_overrides(const struct simopts *o, struct vc_params *p)
{
	unsigned int i;

	if (o->alpha >= 0)
		p->cost[VC_CLASS_SHORT].base = o->alpha;
	if (o->byte >= 0)
		p->cost[VC_CLASS_SHORT].byte_ps = o->byte * 1000;
	if (o->lanes >= 0)
		p->lanes = o->lanes;
	if (o->fc >= 0)
		p->fc_bufs = o->fc;
	for (i = 0; i < o->ncost; i++)
		vc_cost_set(p, o->cost[i].i, o->cost[i].v);
}

/*
 * The generic machine of a profile file (vcube-bench --transport mpi
 * --costs writes one): no machine of the papers, a network as the MPI
 * transport measures it. A message costs alpha + beta bytes, nothing per
 * hop; the sender's library buffers it (eager); bodies sharing a channel
 * share its bandwidth equally (max-min, gamma 0, no lane limit), as flow
 * models of clusters do; a node's copies cost copy_ps per byte.
 */
static struct vc_params sim_generic(u64 alpha, u64 beta, u64 copy)
{
	struct vc_params p = vc_profile_ipsc860();

	p.switching = VC_SW_WORMHOLE;
	p.lanes = 0;
	p.gamma = 0;
	p.duplex = 0;
	p.tail = 0;
	p.short_max = U32_MAX;
	p.eject = 0;
	p.cost[VC_CLASS_SHORT] = (struct vc_cost){ alpha, beta * 1000, 0 };
	p.copy_ps = copy;
	return p;
}

/*
 * A profile file: "key=value" lines, '#' comments; base=generic (the only
 * base), topology=, and alpha_ps=, byte_ps=, copy_ps= in picoseconds.
 * The engine counts whole ns, so a file's machine runs with every time
 * 1000 times longer (ps as ns: the model is linear in its times, and the
 * generic machine has no other) and the result is divided back
 * (o->scale). 0, or 2 (said).
 */
static int sim_profile_file(struct simopts *o, struct vc_params *p)
{
	u64 alpha = U64_MAX, beta = U64_MAX, copy = 0, v;
	char line[256], key[64], val[128];
	enum vcube_topo_kind tk = VCUBE_TOPO_FATTREE;
	FILE *f = fopen(o->profile, "r");
	unsigned int n = 0;
	int bad = 0;

	if (!f) {
		fprintf(stderr, "vcube-sim: profile file %s: %s\n", o->profile,
			strerror(errno));
		return 2;
	}
	while (!bad && fgets(line, sizeof(line), f)) {
		n++;
		if (line[strspn(line, " \t")] == '#' ||
		    line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (sscanf(line, " %63[a-z_] = %127s", key, val) != 2) {
			bad = 1;
		} else if (!strcmp(key, "base")) {
			bad = strcmp(val, "generic") != 0;
		} else if (!strcmp(key, "topology")) {
			bad = sim_parse_topology(val, &tk) != 0;
		} else if (!strcmp(key, "alpha_ps") || !strcmp(key, "byte_ps") ||
			   !strcmp(key, "copy_ps")) {
			bad = sim_parse_num(key, val, 0, key[0] == 'c' ? 1000 :
					    1000000000000ULL, &v) != 0;
			*(key[0] == 'a' ? &alpha : key[0] == 'b' ? &beta :
			  &copy) = v;
		}
		/* other keys: the fit's facts, for the reader */
	}
	fclose(f);
	if (bad || alpha == U64_MAX || beta == U64_MAX) {
		fprintf(stderr, bad ? "vcube-sim: %s:%u: not a profile line (base=generic, topology=, alpha_ps=, byte_ps=, copy_ps=)\n" :
			"vcube-sim: %s: alpha_ps= and byte_ps= are needed\n",
			o->profile, n);
		return 2;
	}
	o->scale = 1000;
	*p = sim_generic(alpha, beta, copy * 1000);
	if (!o->topo_set)
		o->tp.kind = tk;
	return 0;
}

/* Is --profile a file rather than a name? */
static bool sim_is_file(const char *profile)
{
	return vc_profile_find(profile) < 0 && (strchr(profile, '/') ||
						strchr(profile, '.'));
}

/*
 * --procs @n: the topology's shape with n nodes (a hypercube of lg n
 * dimensions, the squarest mesh or torus, a fat tree of n), into @o;
 * 0, or 2 (said). With a shape given (or a graph's file), the shape
 * stands and the network must have n nodes (sim_run() checks): so
 * vcube-bench --predict asks for its ranks on the network its words name.
 */
static int sim_procs_shape(struct simopts *o)
{
	u32 n = o->procs, r;

	if (sim_shaped(&o->tp) || o->tp.kind == VCUBE_TOPO_GRAPH ||
	    o->net.nodes)
		return 0;
	switch (o->tp.kind) {
	case VCUBE_TOPO_HYPERCUBE:
		if (n < 2 || (n & (n - 1))) {
			fprintf(stderr, "vcube-sim: --procs %u: a hypercube's nodes are a power of two\n",
				n);
			return 2;
		}
		while ((1U << o->tp.dim) < n)
			o->tp.dim++;
		break;
	case VCUBE_TOPO_FATTREE:
		o->tp.nodes = n;
		break;
	case VCUBE_TOPO_DRAGONFLY:
		fprintf(stderr, "vcube-sim: --procs %u: a dragonfly's shape is --groups, --routers, --nodes and --global\n",
			n);
		return 2;
	default:
		for (r = 1; (r + 1) * (r + 1) <= n; r++)
			;
		while (n % r)
			r--;
		o->tp.rows = r;
		o->tp.cols = n / r;
	}
	return 0;
}

/*
 * --profile's costs into @p, and, as the module takes them, its machine's
 * topology unless --topology was given and its size unless a shape was:
 * 0, or 2 (said) for an unknown profile.
 */
static int sim_profile(struct simopts *o, struct vc_params *p)
{
	const struct vc_profile *pr;
	int prof = vc_profile_find(o->profile);

	if (sim_is_file(o->profile))
		return sim_profile_file(o, p) ?: o->procs ? sim_procs_shape(o) : 0;
	if (prof < 0) {
		fprintf(stderr, "vcube-sim: no profile '%s' (ipsc860, seidel, delta, ap1000, cm5, slingshot)\n",
			o->profile);
		return 2;
	}
	pr = vc_profile_get(prof);
	*p = pr->params();
	if (!o->topo_set)
		o->tp.kind = pr->kind;
	if (o->procs)
		return sim_procs_shape(o);
	if (o->tp.kind == pr->kind && !sim_shaped(&o->tp)) {
		o->tp.dim = pr->dim;
		o->tp.rows = pr->rows;
		o->tp.cols = pr->cols;
		o->tp.nodes = pr->nodes;
		o->tp.groups = pr->groups;
		o->tp.routers = pr->routers;
		o->tp.global = pr->global;
	}
	return 0;
}

/* Trace record @i as the module's netlink gives it, times divided by @sc. */
static int sim_trace_rec(u64 i, u64 sc, struct vcube_trace_rec *r)
{
	struct vc_trace_rec t;

	if (vc_trace_get(eng, i, &t) || t.kind == VC_TRACE_MARK)
		return -ENOENT;		/* vcube-sim's programs mark nothing */
	*r = (struct vcube_trace_rec){
		.seq = i, .start = t.start / sc, .end = t.end / sc,
		.bytes = t.kind == VC_TRACE_WAIT &&
			 t.cause >= VC_CAUSE_COMPUTE ? t.bytes / sc : t.bytes,
		.src = t.src, .dst = t.dst, .tag = t.tag,
		.channel = t.chan, .hop = t.hop, .kind = t.kind,
		.msg = t.msg, .acquired = t.acquired / sc,
		.flow = t.flow / sc, .proto = t.proto,
		.cause = t.cause, .holder = t.holder,
	};
	return 0;
}

/* vcube_tool_dist_fn over the run's topology. */
static unsigned int sim_distance(void *ctx, unsigned int src, unsigned int dst)
{
	const struct vcube_topo *t = ctx;

	return src < t->nodes && dst < t->nodes ?
	       vcube_topo_distance(t, src, dst) : VCUBE_TRACE_NONE;
}

/*
 * vcube_tool_minroute_fn: a dragonfly's minimal route (one global link),
 * whatever its routing=; other topologies are judged by length (-EINVAL).
 */
static int sim_minroute(void *ctx, unsigned int src, unsigned int dst,
		unsigned int *chan, unsigned int max)
{
	return vcube_df_minimal_route(ctx, src, dst, chan, max);
}

/* vcube_tool_chan_name_fn: a channel (packet switching: a bundle). */
static void sim_chan_name(void *ctx, unsigned int chan, char *buf, size_t len)
{
	const struct vcube_topo *t = ctx;
	struct vcube_chan_info ci;
	u32 width = 1;
	int ret;

	if (sim_packet)
		ret = vcube_topo_bundle_info(t, chan, &ci, &width);
	else
		ret = vcube_topo_chan_info(t, chan, &ci);
	if (ret)
		snprintf(buf, len, "%u", chan);
	else
		vcube_tool_link_ends(buf, len, t->kind, ci.from_level, ci.from,
				     ci.to_level, ci.to, ci.dir, ci.lane,
				     width);
}

/*
 * Every message's route from the trace (its DATA and MSG records), times
 * divided by @sc: *@rt, *@nrt. 0 or -ENOMEM.
 */
static int sim_routes_read(const struct vcube_topo *topo, u64 sc,
			   struct vcube_tool_route **rt, size_t *nrt)
{
	u64 n = vc_trace_count(eng), first = n > SIM_TRACE_MAX ? n - SIM_TRACE_MAX : 0, i;
	struct vcube_trace_rec rec, *r;
	size_t k = 0;
	int ret;

	for (i = first; i < n; i++)
		k += !sim_trace_rec(i, sc, &rec) &&
		     (rec.kind == VCUBE_TRACE_KIND_DATA ||
		      rec.kind == VCUBE_TRACE_KIND_MSG);
	r = calloc(k + 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (i = first, k = 0; i < n; i++)
		if (!sim_trace_rec(i, sc, &rec) &&
		    (rec.kind == VCUBE_TRACE_KIND_DATA ||
		     rec.kind == VCUBE_TRACE_KIND_MSG))
			r[k++] = rec;
	ret = vcube_tool_routes(r, k, &(struct vcube_tool_route_ops){
					.dist = sim_distance,
					.minroute = sim_minroute,
					.ctx = (void *)topo }, rt, nrt);
	free(r);
	return ret;
}

/* One message of --routes: its ends, times, longest wait and route. */
static void sim_route_print(struct vcube_print *p, const struct vcube_topo *t,
			    const struct vcube_tool_route *rt)
{
	vcube_print_open(p, NULL, '{');
	vcube_print_uint(p, VCUBE_PRINT_ANY, "msg", "%8llu", rt->msg);
	vcube_print_uint(p, VCUBE_PRINT_ANY, "src", " %6llu", rt->src);
	vcube_print_uint(p, VCUBE_PRINT_ANY, "dst", " %6llu", rt->dst);
	vcube_print_uint(p, VCUBE_PRINT_ANY, "tag", " %10llu", rt->tag);
	vcube_print_uint(p, VCUBE_PRINT_ANY, "bytes", " %10llu", rt->bytes);
	vcube_print_uint(p, VCUBE_PRINT_JSON, "start_ns", NULL, rt->start);
	vcube_print_real(p, VCUBE_PRINT_TEXT, NULL, " %14.3f", 3,
			 rt->start / 1e3);
	vcube_print_uint(p, VCUBE_PRINT_JSON, "end_ns", NULL, rt->end);
	vcube_print_real(p, VCUBE_PRINT_TEXT, NULL, " %14.3f", 3,
			 rt->end / 1e3);
	vcube_print_str(p, VCUBE_PRINT_ANY, "cause", " %s",
			vcube_tool_trace_cause_name(rt->cause));
	if (rt->holder != VCUBE_TRACE_NONE)
		vcube_print_uint(p, VCUBE_PRINT_ANY, "holder",
				 " held by msg %llu", rt->holder);
	vcube_tool_route_print(p, rt, sim_chan_name, (void *)t);
	vcube_print_text(p, "\n");
	vcube_print_close(p);
}

/*
 * --routes FILE: every message the trace keeps, with the route it took,
 * as text, or JSON for a name ending in .json. 0, or -errno (said).
 */
static int sim_routes(const struct simopts *o, const struct vcube_topo *topo)
{
	size_t nrt = 0, i, len = strlen(o->routes);
	bool json = len > 5 && !strcmp(o->routes + len - 5, ".json");
	struct vcube_tool_route *rt = NULL;
	struct vcube_print p;
	FILE *f;
	int ret;

	ret = sim_routes_read(topo, o->scale ?: 1, &rt, &nrt);
	if (ret)
		return ret;
	f = fopen(o->routes, "w");
	if (!f) {
		ret = -errno;
		fprintf(stderr, "vcube-sim: --routes %s: %s\n", o->routes,
			strerror(errno));
		vcube_tool_routes_free(rt, nrt);
		return ret;
	}
	vcube_print_init(&p, f, json, JSON_C_TO_STRING_PLAIN | VCUBE_PRINT_LINES, 2);
	vcube_print_open(&p, NULL, '{');
	vcube_print_text(&p, "%8s %6s %6s %10s %10s %14s %14s %s\n", "msg", "src",
			 "dst", "tag", "bytes", "start_us", "end_us",
			 "cause, route");
	vcube_print_open(&p, "messages", '[');
	for (i = 0; i < nrt; i++)
		sim_route_print(&p, topo, &rt[i]);
	ret = vcube_print_end(&p);
	if (fclose(f) && !ret)
		ret = -EIO;
	if (ret)
		fprintf(stderr, "vcube-sim: --routes %s: writing failed\n",
			o->routes);
	vcube_tool_routes_free(rt, nrt);
	return ret;
}

/*
 * --timeline: the engine's trace, waits shaded by cause; of it only the
 * records the diagram draws (--timeline-nodes, --from, --until) are
 * copied. 0, or -errno (said; -ENOMEM kept for sim_say_nomem()).
 */
static int sim_draw(const struct simopts *o, const struct vcube_topo *topo)
{
	u64 n = vc_trace_count(eng), first = n > SIM_TRACE_MAX ? n - SIM_TRACE_MAX : 0, i;
	u64 sc = o->scale ?: 1;
	char title[192], shape[64];
	struct vcube_trace_rec rec, *r;
	struct vcube_tl tl = {
		.nodes = nprocs, .rows = o->rows, .nrows = o->nrows,
		.from = o->from, .until = o->until, .title = title,
	};
	size_t k = 0;
	int ret;

	for (i = first; i < n; i++)
		k += !sim_trace_rec(i, sc, &rec) &&
		     vcube_tool_timeline_keeps(&tl, &rec);
	r = calloc(k + 1, sizeof(*r));
	if (!r) {
		sim_nomem("the --timeline's %zu trace records (%s)", k,
			  sim_bytes((k + 1) * sizeof(*r), title,
				    sizeof(title)));
		return -ENOMEM;
	}
	if (first)
		fprintf(stderr, "vcube-sim: --timeline: the first %llu of %llu trace records are not drawn\n",
			(unsigned long long)first, (unsigned long long)n);
	for (i = first, k = 0; i < n; i++)
		if (!sim_trace_rec(i, sc, &rec) &&
		    vcube_tool_timeline_keeps(&tl, &rec))
			r[k++] = rec;
	sim_shape(topo, shape, sizeof(shape));
	snprintf(title, sizeof(title), "%s %s, %s, %s, %llu B per block (vcube-sim)",
		 vcube_algo_kind_name(kind), algo, o->profile, shape,
		 (unsigned long long)len);
	tl.rec = r;
	tl.nrec = k;
	ret = vcube_tool_timeline(&tl, o->timeline);
	if (ret == -ENOMEM)
		sim_nomem("drawing the --timeline's %zu trace records", k);
	else if (ret)
		fprintf(stderr, "vcube-sim: --timeline %s: %s\n", o->timeline,
			strerror(-ret));
	free(r);
	return ret;
}

/*
 * The run's state: the engine (with --timeline, its trace), every node's,
 * the blocks sent and received; 0, or -ENOMEM with what failed kept.
 */
static int sim_alloc(const struct vcube_topo *topo, const struct vc_params *p)
{
	char b[32];

	eng = vc_engine_create(topo, p);
	if (!eng) {
		if (p->trace_max)
			sim_nomem("the model of %u nodes and its --timeline trace of %u records (%s)",
				  nprocs, p->trace_max,
				  sim_bytes((u64)p->trace_max *
					    sizeof(struct vc_trace_rec),
					    b, sizeof(b)));
		else
			sim_nomem("the model of %u nodes", nprocs);
		return -ENOMEM;
	}
	nodes = calloc(nprocs, sizeof(*nodes));
	queue = calloc(nprocs, sizeof(*queue));
	if (!nodes || !queue) {
		sim_nomem("the state of %u nodes", nprocs);
		return -ENOMEM;
	}
	sbuf = malloc(nprocs * len + 1);
	rbuf = malloc(nprocs * len + 1);
	if (!sbuf || !rbuf) {
		sim_nomem("the blocks sent and received, 2 x %u x %llu B (%s)",
			  nprocs, (unsigned long long)len,
			  sim_bytes(2 * nprocs * len, b, sizeof(b)));
		return -ENOMEM;
	}
	return 0;
}

/*
 * Out of memory, said in one line: what the first allocation that failed
 * was for, how much was held then, and what would hold less.
 */
static void sim_say_nomem(const struct simopts *o)
{
	char held[32], tr[32], less[128];

	if (!nomem_what[0])
		sim_nomem("%s %s on %u nodes", vcube_algo_kind_name(kind),
			  algo, nprocs);
	snprintf(less, sizeof(less), "fewer nodes%s%s%s%s",
		 2 * nprocs * len >= 64000000 ? ", a smaller --len" : "",
		 o->timeline ? ", or no --timeline (its trace holds up to " : "",
		 o->timeline ? sim_bytes((u64)SIM_TRACE_MAX *
					 sizeof(struct vc_trace_rec), tr,
					 sizeof(tr)) : "",
		 o->timeline ? ")" : "");
	fprintf(stderr, "vcube-sim: out of memory: %s, with %s allocated, %llu messages sent; %s\n",
		nomem_what, sim_bytes(nomem_held, held, sizeof(held)),
		(unsigned long long)(eng ? vc_net_stats(eng)->messages : 0),
		less);
}

/* The result: text (seconds, or --ns) or -j JSON, one line. */
static void sim_print(const struct simopts *o, const struct vcube_topo *topo,
		      u64 finish)
{
	const struct vc_net_stats *st = vc_net_stats(eng);
	/* text: "kind/algo", one word; a complete exchange's is its name */
	enum vcube_print_form kf = kind == VCUBE_ALGO_XCHG ? VCUBE_PRINT_JSON :
				   VCUBE_PRINT_ANY;
	struct vcube_print p;
	char shape[128];

	sim_shape(topo, shape, sizeof(shape));
	vcube_print_init(&p, stdout, o->json, JSON_C_TO_STRING_PLAIN, 0);
	vcube_print_open(&p, NULL, '{');
	vcube_print_str(&p, VCUBE_PRINT_ANY, "profile", "%s ", o->profile);
	vcube_print_str(&p, kf, "kind", "%s/", vcube_algo_kind_name(kind));
	vcube_print_str(&p, VCUBE_PRINT_ANY, "algo", "%s ", algo);
	vcube_print_str(&p, VCUBE_PRINT_ANY, "shape", "%s ", shape);
	vcube_print_uint(&p, VCUBE_PRINT_ANY, "len", "%llu ", len);
	vcube_print_uint(&p, o->in_ns ? VCUBE_PRINT_ANY : VCUBE_PRINT_JSON,
			 "time_ns", "%llu\n", finish);
	vcube_print_real(&p, o->in_ns ? 0 : VCUBE_PRINT_TEXT, NULL, "%.6f\n",
			 6, finish / 1e9);
	vcube_print_uint(&p, VCUBE_PRINT_JSON, "messages", NULL, st->messages);
	vcube_print_uint(&p, VCUBE_PRINT_JSON, "events", NULL, st->events);
	vcube_print_uint(&p, VCUBE_PRINT_JSON, "refills", NULL, st->refills);
	vcube_print_uint(&p, VCUBE_PRINT_JSON, "refill_visits", NULL,
			 st->refill_visits);
	vcube_print_uint(&p, VCUBE_PRINT_JSON, "rate_changes", NULL,
			 st->rate_changes);
	vcube_print_uint(&p, VCUBE_PRINT_JSON, "rate_change_hops", NULL,
			 st->rate_change_hops);
	vcube_print_uint(&p, VCUBE_PRINT_JSON, "fc_refused", NULL,
			 st->fc_refused);
	vcube_print_uint(&p, VCUBE_PRINT_JSON, "fc_releases", NULL,
			 st->fc_releases);
	vcube_print_close(&p);
	vcube_print_end(&p);
}

/* --costs: the profile's startup and per-byte cost, and its lanes. */
static void sim_costs(const struct simopts *o, const struct vc_params *p)
{
	struct vcube_print pr;

	vcube_print_init(&pr, stdout, o->json, JSON_C_TO_STRING_PLAIN, 0);
	vcube_print_open(&pr, NULL, '{');
	vcube_print_real(&pr, VCUBE_PRINT_ANY, "alpha_ns", "alpha_ns %g\n",
			 VCUBE_PRINT_G, (double)p->cost[VC_CLASS_SHORT].base /
			 (o->scale ?: 1));
	vcube_print_real(&pr, VCUBE_PRINT_ANY, "byte_ns", "byte_ns %g\n",
			 VCUBE_PRINT_G, (double)p->cost[VC_CLASS_SHORT].byte_ps /
			 1000 / (o->scale ?: 1));
	vcube_print_uint(&pr, VCUBE_PRINT_ANY, "lanes", "lanes %llu\n",
			 p->lanes);
	vcube_print_close(&pr);
	vcube_print_end(&pr);
}

/*
 * topology=graph: file='s graph into @o->tp as the kernel takes it (u16
 * routers and links). 0, or the exit status, said.
 */
static int sim_graph(struct simopts *o)
{
	struct vcube_netfile *f = &o->net;
	int ret;

	if (!f->nodes) {
		fprintf(stderr, "vcube-sim: topology=graph needs file=PATH [format=anynet|graphml]\n");
		return 2;
	}
	ret = vcube_netfile_costs(f, &o->chan_costs);
	if (ret)	/* -EOPNOTSUPP: a warning */
		fprintf(stderr, "vcube-sim: %s\n", f->err);
	if (ret && ret != -EOPNOTSUPP)
		return ret == -ENOMEM ? 1 : 2;
	if (vcube_netfile_u16(f, &o->node_router, &o->links)) {
		fprintf(stderr, "vcube-sim: out of memory: the graph of %u routers and %u links\n",
			f->routers, f->nlinks);
		return 1;
	}
	o->gd = (struct vcube_graph_desc){ .routers = f->routers,
					   .nodes = f->nodes,
					   .nlinks = f->nlinks,
					   .node_router = o->node_router,
					   .links = o->links,
					   .costs = o->chan_costs,
					   .nroutes = f->nroutes,
					   .routes = f->routes };
	o->tp.graph = &o->gd;
	return 0;
}

/* What sim_graph() made, once vcube_topo_init() has copied it. */
static void sim_graph_free(struct simopts *o)
{
	o->tp.graph = NULL;
	vcube_netfile_free(&o->net);
	free(o->node_router);
	free(o->links);
	free(o->chan_costs);
	o->node_router = o->links = NULL;
	o->chan_costs = NULL;
}

/*
 * The network of @o's shape and @p's profile into @topo, the algorithm
 * checked on it, the timeline's nodes and file: 0, or the exit status,
 * said.
 */
static int sim_network(struct simopts *o, struct vc_params *p,
		       struct vcube_topo *topo)
{
	char err[128];
	int ret;

	sim_overrides(o, p);
	/* what the module refuses of costs together (kernel/core/costs.c) */
	if (vc_costs_check(p, err, sizeof(err))) {
		fprintf(stderr, "vcube-sim: %s\n", err);
		return 2;
	}
	if (sim_parse_routing(o->routing, &o->tp))
		return 2;
	if (o->tp.kind == VCUBE_TOPO_GRAPH || o->net.nodes) {
		ret = sim_graph(o);
		if (ret)
			return ret;
	}
	ret = vcube_topo_init(topo, &o->tp, err, sizeof(err));
	sim_graph_free(o);
	if (ret) {
		/* a shape for another topology than the profile's own */
		if (!o->topo_set)
			fprintf(stderr, "vcube-sim: %s (profile %s's; --topology or --profile names another)\n",
				err, o->profile);
		else
			fprintf(stderr, "vcube-sim: %s\n", err);
		return 2;
	}
	nprocs = topo->nodes;
	rows = topo->rows;
	cols = topo->cols;
	if (o->procs && o->procs != nprocs) {
		fprintf(stderr, "vcube-sim: --procs %llu: the network has %u nodes\n",
			(unsigned long long)o->procs, nprocs);
		return 2;
	}
	if (vc_costs_check_topo(p, topo, err, sizeof(err))) {
		fprintf(stderr, "vcube-sim: %s\n", err);
		return 2;
	}
	if (sim_check_algo())
		return 2;
	if (vcube_tool_timeline_fits("vcube-sim", o->tl_nodes, o->rows,
				     o->nrows, nprocs))
		return 2;
	if (p->fc_bufs && nprocs > VC_FC_MAX_NODES) {
		fprintf(stderr, "vcube-sim: flow control (--fc-bufs) is modelled on at most %u nodes, not %u\n",
			VC_FC_MAX_NODES, nprocs);
		return 2;
	}
	if (o->timeline) {	/* last: the check makes the file */
		ret = vcube_tool_timeline_check("vcube-sim", o->timeline);
		if (ret)
			return ret == -EINVAL ? 2 : 1;
		p->trace_max = SIM_TRACE_MAX;
	}
	if (o->routes)
		p->trace_max = SIM_TRACE_MAX;
	return 0;
}

int main(int argc, char **argv)
{
	struct simopts o = { .profile = "delta", .alpha = -1, .byte = -1,
			     .lanes = -1, .fc = -1 };
	struct vcube_topo topo;
	struct vc_params p;
	u64 finish = 0;
	u32 i;
	int ret;

	ret = sim_options(argc, argv, &o);
	if (ret)
		return ret == 1 ? 0 : 2;
	if (o.list)
		return vcube_tool_algos_print(stdout, VCUBE_TOOL_ALL_KINDS &
					      ~(1U << VCUBE_ALGO_IRREGULAR),
					      o.json) ? 1 : 0;
	if (sim_profile(&o, &p))
		return 2;
	if (o.costs) {
		sim_costs(&o, &p);
		return 0;
	}
	if (!algo) {
		fprintf(stderr, "vcube-sim: --algo is missing (vcube-sim --list names them)\n");
		return vcube_tool_try_help("vcube-sim");
	}
	ret = sim_network(&o, &p, &topo);
	if (ret)
		return ret;
	sim_packet = p.switching == VC_SW_PACKET;
	ret = sim_alloc(&topo, &p);
	if (!ret) {
		vc_engine_set_wake(eng, wake, NULL);
		vcube_tool_progress_init(&progress, "vcube-sim", 0, o.quiet);
		ret = sim_run();
		vcube_tool_progress_end(&progress);
	}
	if (ret == -ENOMEM) {
		sim_say_nomem(&o);
		return 1;
	}
	if (ret == -EDEADLK) {
		sim_say_deadlock(&p);
		return 1;
	}
	if (ret) {
		fprintf(stderr, "vcube-sim: %s\n", strerror(-ret));
		return 1;
	}
	for (i = 0; i < nprocs; i++)
		if (nodes[i].end > finish)
			finish = nodes[i].end;
	if (o.scale)
		finish = (finish + o.scale / 2) / o.scale;
	sim_print(&o, &topo, finish);
	if (o.routes) {
		ret = sim_routes(&o, &topo);
		if (ret == -ENOMEM)
			sim_say_nomem(&o);
		ret = ret ? 1 : 0;
	}
	if (o.timeline && !ret) {
		ret = sim_draw(&o, &topo);
		if (ret == -ENOMEM)
			sim_say_nomem(&o);
		ret = ret ? 1 : 0;
	}
	vc_engine_destroy(eng);
	vcube_topo_fini(&topo);
	free(o.rows);
	free(nodes);
	free(queue);
	free(sbuf);
	free(rbuf);
	return ret;
}
