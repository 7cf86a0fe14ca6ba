// SPDX-License-Identifier: MIT
/*
 * libvcube: complete exchange (all-to-all personalized communication), as
 * the five papers implement it. Every rank holds @size blocks of @len bytes
 * in sbuf (block j for rank j) and ends with block i from rank i at rbuf +
 * i * len. Nothing here measures anything: time is the kernel's.
 *
 * Three shapes of algorithm:
 * - FORCED (Bokhari's naive, linear, stable, pairwise, pairwise_F): every
 *   receive is posted, then a global synchronisation, then the sends in
 *   schedule order, FORCED.
 * - stepwise (pairwise_U and the Ponnusamy and Thakur families): at each
 *   step post the receive, send UNFORCED, wait; no synchronisation.
 * - store-and-forward (standard_F/U, REX, bucket, torus): few messages of
 *   many blocks, forwarded and reshuffled on the way.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "thakur.h"

struct xctx {
	struct vcube_comm *c;
	const uint8_t *sbuf;
	uint8_t *rbuf;
	size_t len;
	unsigned int me, p, base;
	uint64_t idle_ns;
	bool rex;		/* store-and-forward over dimensions D-1 .. 0 */
	uint64_t copied;	/* bytes copied locally, not yet charged */
};

/*
 * Store-and-forward algorithms rearrange blocks in memory, and on the
 * machines that costs processor time: every byte they copy is counted
 * here and charged (vcube_node_copy(), at the network's copy_byte_ps)
 * before the rank's next communication and at its end, so the copies
 * fall between a wait and the next send, where the program does them.
 */
static void xcopy(struct xctx *x, void *dst, const void *src, size_t len)
{
	memcpy(dst, src, len);
	x->copied += len;
}

static int xcharge(struct xctx *x)
{
	uint64_t b = x->copied;

	x->copied = 0;
	return b ? vcube_node_copy(x->c->node, b, NULL) : 0;
}

/* ---- FORCED, all receives posted before a global synchronisation ------- */

/* Bokhari's destinations at step i (sec. 4; stable: Fig. 4). */
static unsigned int forced_dest(const char *name, unsigned int me,
				unsigned int p, unsigned int i)
{
	switch (name[0]) {
	case 'n':		/* naive: everyone to 0, then 1, ... */
		return i;
	case 'l':		/* linear */
		return (me + i) % p;
	case 's':		/* stable: the lower half sends to odd ranks first */
		return me < p / 2 ? (2 * me + 1 + i) % p : (2 * me - p + i) % p;
	default:		/* pairwise */
		return me ^ i;
	}
}

static int xchg_forced(struct xctx *x, const char *name)
{
	bool stable = !strcmp(name, "stable");
	bool psync = !strcmp(name, "pairwise_F");
	unsigned int i, d, first = name[0] == 'n' || stable ? 0 : 1;
	uint64_t *rq, *sq, t0, t1, idle = x->idle_ns;
	struct vcube_node *n = x->c->node;
	int ret = 0, r;

	rq = calloc(2 * (size_t)x->p, sizeof(*rq));
	if (!rq)
		return -ENOMEM;
	sq = rq + x->p;
	for (i = 0; i < x->p && !ret; i++) {
		if (i == x->me)
			continue;
		ret = vcube_node_irecv(n, i, x->base, x->rbuf + i * x->len,
				       x->len, &rq[i]);
		if (!ret && psync)
			ret = vcube_node_irecv(n, i, x->base | 1, NULL, 0,
					       &sq[i]);
	}
	if (!ret)
		ret = vcube_comm_barrier(x->c);
	for (i = first; i < x->p && !ret; i++) {
		d = forced_dest(name, x->me, x->p, i);
		if (d >= x->p)
			continue;
		if (d == x->me) {
			/* stable's idle step: as long as a send takes */
			if (stable)
				ret = vcube_node_delay(n, idle);
			continue;
		}
		if (psync) {
			ret = vcube_node_send(n, d, x->base | 1, NULL, 0,
					      VCUBE_SEND_FORCED, NULL);
			if (!ret)
				ret = vcube_node_wait(n, sq[d], NULL);
			sq[d] = 0;
		}
		if (!ret)
			ret = vcube_node_clock(n, &t0);
		if (!ret)
			ret = vcube_node_send(n, d, x->base,
					      x->sbuf + d * x->len, x->len,
					      VCUBE_SEND_FORCED, NULL);
		if (!ret && !vcube_node_clock(n, &t1) && !x->idle_ns)
			idle = t1 - t0;
	}
	/* Wait for everything posted, even after an error: nothing leaks. */
	for (i = 0; i < x->p; i++) {
		if (i == x->me)
			continue;
		struct vcube_status st;

		if (rq[i]) {
			r = vcube_node_wait(n, rq[i], &st);
			if (!r && st.len != x->len)
				r = -EPROTO;
			if (!ret)
				ret = r;
		}
		if (psync && sq[i] && !ret)
			ret = vcube_node_wait(n, sq[i], NULL);
	}
	free(rq);
	return ret;
}

/* ---- stepwise, UNFORCED, no synchronisation ----------------------------- */

/*
 * Step @i of @name at @me: 1 with *to and *from (either may be VCUBE_NONE),
 * 0 when idle. Steps run 1 .. stepwise_steps() - 1.
 */
static int stepwise(const char *name, unsigned int me, unsigned int p,
		    unsigned int i, unsigned int *to, unsigned int *from)
{
	unsigned int v;

	if (!strcmp(name, "pairwise_U"))
		return vcube_thakur_step("pex", me, p, i, to, from);
	if (!strcmp(name, "bex")) {
		/* Ponnusamy: virtual number (physical + 1) mod p, then PEX */
		v = ((me + 1) % p) ^ i;
		if (v >= p)
			return 0;
		*to = *from = (v + p - 1) % p;
		return 1;
	}
	return vcube_thakur_step(name, me, p, i, to, from);
}

static unsigned int stepwise_steps(const char *name, unsigned int p)
{
	if (!strcmp(name, "pairwise_U") || !strcmp(name, "bex"))
		return vcube_thakur_steps("pex", p);
	return vcube_thakur_steps(name, p);
}

static int xchg_stepwise(struct xctx *x, const char *name)
{
	unsigned int i, to, from;
	int ret;

	for (i = 1; i < stepwise_steps(name, x->p); i++) {
		if (!stepwise(name, x->me, x->p, i, &to, &from))
			continue;
		ret = vcube_comm_step(x->c, x->base | i, to,
				      x->sbuf + to * x->len, x->len, from,
				      x->rbuf + from * x->len, x->len, 0);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Ponnusamy's LEX: at step i every rank sends to rank i, which takes the
 * messages one at a time in rank order (a blocking receive each, as with
 * CMMD_receive_block); where sends are synchronous (the cm5 profile), a
 * sender waits for its turn.
 */
static int xchg_lex(struct xctx *x, const char *name)
{
	struct vcube_node *n = x->c->node;
	unsigned int i, j;
	int ret = 0;

	(void)name;
	for (i = 0; i < x->p && !ret; i++) {
		if (i != x->me) {
			ret = vcube_node_send(n, i, x->base | i,
					      x->sbuf + i * x->len, x->len, 0,
					      NULL);
			continue;
		}
		for (j = 0; j < x->p && !ret; j++)
			if (j != x->me)
				ret = vcube_node_recv(n, j, x->base | i,
						      x->rbuf + j * x->len,
						      x->len, NULL);
	}
	return ret;
}

/* ---- store-and-forward ---------------------------------------------------- */

/*
 * Before phase k a rank holds exactly p blocks, each named by its source s
 * and destination d; label() and slot() map between names and the rank's
 * slots, goes() says whether a block leaves at phase k. Sender and receiver
 * enumerate the sender's slots in the same order, so no names travel.
 */
struct sf_ops {
	unsigned int (*to)(const struct xctx *x, unsigned int k);
	unsigned int (*from)(const struct xctx *x, unsigned int k);
	void (*label)(const struct xctx *x, unsigned int j, unsigned int k,
		      unsigned int idx, unsigned int *s, unsigned int *d);
	unsigned int (*slot)(const struct xctx *x, unsigned int j,
			     unsigned int k, unsigned int s, unsigned int d);
	bool (*goes)(const struct xctx *x, unsigned int j, unsigned int k,
		     unsigned int s, unsigned int d);
};

/*
 * Standard exchange (dimension k at phase k) and REX (dimension D-1-k):
 * before phase k rank j holds (s, d) with s equal to j outside the
 * dimensions done and d equal to j on them. Slot bit D-1-t is s's bit for a
 * dimension done, else d's.
 */
static unsigned int dim_at(const struct xctx *x, unsigned int t)
{
	unsigned int dd = vcube_lg(x->p);

	return x->rex ? dd - 1 - t : t;
}

static unsigned int cube_to(const struct xctx *x, unsigned int k)
{
	return x->me ^ (1U << dim_at(x, k));
}

static void cube_label(const struct xctx *x, unsigned int j, unsigned int k,
		       unsigned int idx, unsigned int *s, unsigned int *d)
{
	unsigned int t, dd = vcube_lg(x->p), b, bit;

	*s = j;
	*d = j;
	for (t = 0; t < dd; t++) {
		b = 1U << dim_at(x, t);
		bit = idx >> (dd - 1 - t) & 1;
		if (t < k)
			*s = (*s & ~b) | (bit ? b : 0);
		else
			*d = (*d & ~b) | (bit ? b : 0);
	}
}

static unsigned int cube_slot(const struct xctx *x, unsigned int j,
			      unsigned int k, unsigned int s, unsigned int d)
{
	unsigned int t, dd = vcube_lg(x->p), idx = 0, b;

	(void)j;
	for (t = 0; t < dd; t++) {
		b = 1U << dim_at(x, t);
		if ((t < k ? s : d) & b)
			idx |= 1U << (dd - 1 - t);
	}
	return idx;
}

static bool cube_goes(const struct xctx *x, unsigned int j, unsigned int k,
		      unsigned int s, unsigned int d)
{
	unsigned int b = 1U << dim_at(x, k);

	(void)s;
	return (d & b) != (j & b);
}

static const struct sf_ops cube_ops = {
	.to = cube_to, .from = cube_to, .label = cube_label,
	.slot = cube_slot, .goes = cube_goes,
};

/*
 * Chuang & Horie's bucket-passing all-to-all on the crossover: phase k
 * sends to rank + 2^k the blocks whose offset o = d - s has bit k set.
 * Before phase k rank j holds (s, d) with x = j - s < 2^k and o = x mod
 * 2^k; slot x * (p >> k) + (o >> k).
 */
static unsigned int bucket_to(const struct xctx *x, unsigned int k)
{
	return (x->me + (1U << k)) % x->p;
}

static unsigned int bucket_from(const struct xctx *x, unsigned int k)
{
	return (x->me + x->p - (1U << k)) % x->p;
}

static void bucket_label(const struct xctx *x, unsigned int j, unsigned int k,
			 unsigned int idx, unsigned int *s, unsigned int *d)
{
	unsigned int w = x->p >> k, xo = idx / w, hi = idx % w;

	*s = (j + x->p - xo) % x->p;
	*d = (*s + xo + (hi << k)) % x->p;
}

static unsigned int bucket_slot(const struct xctx *x, unsigned int j,
				unsigned int k, unsigned int s, unsigned int d)
{
	unsigned int xo = (j + x->p - s) % x->p, o = (d + x->p - s) % x->p;

	return xo * (x->p >> k) + (o >> k);
}

static bool bucket_goes(const struct xctx *x, unsigned int j, unsigned int k,
			unsigned int s, unsigned int d)
{
	(void)j;
	return ((d + x->p - s) % x->p) >> k & 1;
}

static const struct sf_ops bucket_ops = {
	.to = bucket_to, .from = bucket_from, .label = bucket_label,
	.slot = bucket_slot, .goes = bucket_goes,
};

static int xchg_sf(struct xctx *x, const struct sf_ops *ops, bool forced)
{
	unsigned int k, idx, s, d, m, dd = vcube_lg(x->p), half = x->p / 2;
	size_t len = x->len, blk = half * len;
	struct vcube_node *n = x->c->node;
	uint8_t *mem, *a, *b, *out, *in, *tmp;
	uint64_t *rq = NULL, *sq = NULL;
	int ret = 0, r;

	mem = malloc(2 * x->p * len + blk + (forced ? dd : 1) * blk + 1);
	if (!mem)
		return -ENOMEM;
	a = mem;
	b = a + x->p * len;
	out = b + x->p * len;
	in = out + blk;
	for (d = 0; d < x->p; d++)
		xcopy(x, a + ops->slot(x, x->me, 0, x->me, d) * len,
		      x->sbuf + d * len, len);
	if (forced) {
		/* Bokhari's standard_F: every receive posted, then a global
		 * and, before each transfer, a pairwise synchronisation. */
		rq = calloc(2 * (size_t)dd, sizeof(*rq));
		if (!rq) {
			free(mem);
			return -ENOMEM;
		}
		sq = rq + dd;
		for (k = 0; k < dd && !ret; k++) {
			ret = vcube_node_irecv(n, ops->from(x, k), x->base | 2 * k,
					       in + k * blk, blk, &rq[k]);
			if (!ret)
				ret = vcube_node_irecv(n, ops->from(x, k),
						       x->base | (2 * k + 1),
						       NULL, 0, &sq[k]);
		}
		if (!ret)
			ret = xcharge(x);
		if (!ret)
			ret = vcube_comm_barrier(x->c);
	}
	for (k = 0; k < dd && !ret; k++) {
		for (idx = 0, m = 0; idx < x->p; idx++) {
			ops->label(x, x->me, k, idx, &s, &d);
			if (ops->goes(x, x->me, k, s, d))
				xcopy(x, out + m++ * len, a + idx * len, len);
		}
		ret = xcharge(x);
		if (ret)
			break;
		if (!forced) {
			ret = vcube_comm_step(x->c, x->base | k, ops->to(x, k),
					      out, blk, ops->from(x, k), in,
					      blk, 0);
		} else {
			ret = vcube_node_send(n, ops->to(x, k),
					      x->base | (2 * k + 1), NULL, 0,
					      VCUBE_SEND_FORCED, NULL);
			if (!ret)
				ret = vcube_node_wait(n, sq[k], NULL);
			sq[k] = 0;
			if (!ret)
				ret = vcube_node_send(n, ops->to(x, k),
						      x->base | 2 * k, out, blk,
						      VCUBE_SEND_FORCED, NULL);
			if (!ret)
				ret = vcube_node_wait(n, rq[k], NULL);
			rq[k] = 0;
		}
		if (ret)
			break;
		/* The shuffle: what stays, and what came, into new slots. */
		for (idx = 0; idx < x->p; idx++) {
			ops->label(x, x->me, k, idx, &s, &d);
			if (!ops->goes(x, x->me, k, s, d))
				xcopy(x, b + ops->slot(x, x->me, k + 1, s, d) * len,
				      a + idx * len, len);
		}
		tmp = forced ? in + k * blk : in;
		for (idx = 0, m = 0; idx < x->p; idx++) {
			ops->label(x, ops->from(x, k), k, idx, &s, &d);
			if (ops->goes(x, ops->from(x, k), k, s, d))
				xcopy(x, b + ops->slot(x, x->me, k + 1, s, d) * len,
				      tmp + m++ * len, len);
		}
		tmp = a;
		a = b;
		b = tmp;
	}
	if (!ret)
		for (idx = 0; idx < x->p; idx++) {
			ops->label(x, x->me, dd, idx, &s, &d);
			xcopy(x, x->rbuf + s * len, a + idx * len, len);
		}
	if (!ret)
		ret = xcharge(x);
	for (k = 0; rq && k < dd; k++) {
		r = rq[k] ? vcube_node_wait(n, rq[k], NULL) : 0;
		if (!r && sq[k])
			r = vcube_node_wait(n, sq[k], NULL);
		if (!ret)
			ret = r;
	}
	free(rq);
	free(mem);
	return ret;
}

/*
 * Chuang & Horie's normal torus all-to-all: cols - 1 phases east, then
 * rows - 1 south, each to the next node. A row phase t message carries the
 * blocks of one source for east distances t .. cols-1, nearest first: the
 * receiver keeps the first rows blocks and forwards the rest unchanged.
 * The column phases do the same with the blocks gathered per column.
 */
static int xchg_torus(struct xctx *x, const char *name)
{
	const struct vcube_node_info *in = vcube_comm_info(x->c);
	unsigned int nx = in->cols, ny = in->rows, r, c, t, e, y, cs;
	size_t len = x->len, n;
	uint8_t *h, *m0, *m1, *tmp;
	int ret = 0;

	(void)name;
	r = x->me / nx;
	c = x->me % nx;
	h = malloc(3 * (size_t)x->p * len + 1);
	if (!h)
		return -ENOMEM;
	m0 = h + x->p * len;
	m1 = m0 + x->p * len;
	/* h[cs * ny + rd]: from (r, cs) to (rd, c), once the rows are done */
	for (y = 0; y < ny; y++)
		xcopy(x, h + (c * ny + y) * len, x->sbuf + (y * nx + c) * len, len);
	for (e = 1, n = 0; e < nx; e++)
		for (y = 0; y < ny; y++)
			xcopy(x, m0 + n++ * len,
			      x->sbuf + (y * nx + (c + e) % nx) * len, len);
	for (t = 1; t < nx && !ret; t++) {
		n = (size_t)(nx - t) * ny;
		ret = xcharge(x);
		if (!ret)
			ret = vcube_comm_step(x->c, x->base | t,
					      r * nx + (c + 1) % nx, m0,
					      n * len, r * nx + (c + nx - 1) % nx,
					      m1, n * len, 0);
		cs = (c + nx - t) % nx;
		xcopy(x, h + cs * ny * len, m1, ny * len);
		tmp = m0;
		m0 = m1 + ny * len;	/* the rest goes on east */
		m1 = tmp;
	}
	if (ret)
		goto out;
	m0 = h + x->p * len;
	m1 = m0 + x->p * len;
	for (cs = 0; cs < nx; cs++)
		xcopy(x, x->rbuf + (r * nx + cs) * len, h + (cs * ny + r) * len,
		      len);
	for (e = 1, n = 0; e < ny; e++)
		for (cs = 0; cs < nx; cs++)
			xcopy(x, m0 + n++ * len,
			      h + (cs * ny + (r + e) % ny) * len, len);
	for (t = 1; t < ny && !ret; t++) {
		n = (size_t)(ny - t) * nx;
		ret = xcharge(x);
		if (!ret)
			ret = vcube_comm_step(x->c, x->base | (nx + t),
					      ((r + 1) % ny) * nx + c, m0,
					      n * len,
					      ((r + ny - 1) % ny) * nx + c, m1,
					      n * len, 0);
		y = (r + ny - t) % ny;
		xcopy(x, x->rbuf + y * nx * len, m1, nx * len);
		tmp = m0;
		m0 = m1 + nx * len;
		m1 = tmp;
	}
	if (!ret)
		ret = xcharge(x);
out:
	free(h);
	return ret;
}

static int xchg_standard_F(struct xctx *x, const char *name)
{
	(void)name;
	return xchg_sf(x, &cube_ops, true);
}

static int xchg_standard_U(struct xctx *x, const char *name)
{
	(void)name;
	return xchg_sf(x, &cube_ops, false);
}

static int xchg_rex(struct xctx *x, const char *name)
{
	(void)name;
	x->rex = true;
	return xchg_sf(x, &cube_ops, false);
}

static int xchg_bucket(struct xctx *x, const char *name)
{
	(void)name;
	return xchg_sf(x, &bucket_ops, false);
}

struct xchg_impl {
	struct vcube_xchg_algo a;
	int (*run)(struct xctx *x, const char *name);
};

#define P2	VCUBE_XCHG_POW2
#define GRID	VCUBE_XCHG_GRID
#define FORCED	VCUBE_XCHG_FORCED
#define B91	"Bokhari 1991"
#define P93	"Ponnusamy et al. 1993"
#define T93	"Thakur, Choudhary & Fox 1993"
#define C92	"Chuang & Horie 1992"

static const struct xchg_impl xchg_table[] = {
	{ { "naive", B91, "everyone sends to 0, then to 1, ...", P2 | FORCED }, xchg_forced },
	{ { "linear", B91, "step i: send to rank + i", FORCED }, xchg_forced },
	{ { "pairwise", B91, "step i: send to rank ^ i (no pairwise sync)", P2 | FORCED }, xchg_forced },
	{ { "stable", B91, "halves interleaved, one timed idle step", P2 | FORCED }, xchg_forced },
	{ { "pairwise_F", B91, "pairwise with pairwise zero-byte sync", P2 | FORCED }, xchg_forced },
	{ { "pairwise_U", B91, "pairwise, UNFORCED, no sync", P2 }, xchg_stepwise },
	{ { "standard_F", B91, "lg p exchanges of p/2 blocks, synchronised", P2 | FORCED }, xchg_standard_F },
	{ { "standard_U", B91, "lg p exchanges of p/2 blocks, UNFORCED", P2 }, xchg_standard_U },
	{ { "lex", P93, "step i: everyone sends to rank i", 0 }, xchg_lex },
	{ { "pex", P93 ", " T93, "step i: exchange with rank ^ i", 0 }, xchg_stepwise },
	{ { "rex", P93, "recursive halving, p/2 blocks per step", P2 }, xchg_rex },
	{ { "bex", P93, "PEX on virtual numbers (rank + 1) mod p", 0 }, xchg_stepwise },
	{ { "pexgen", T93, "PEX on the next power of two, idle steps skipped", 0 }, xchg_stepwise },
	{ { "pexgenshift", T93, "PEX-GEN with ranks shifted by (q - p) / 2", 0 }, xchg_stepwise },
	{ { "gen", T93, "step i: send to rank + i, receive from rank - i", 0 }, xchg_stepwise },
	{ { "bucket", C92, "bucket passing on the crossover, p/2 blocks per phase", P2 }, xchg_bucket },
	{ { "torus", C92, "normal torus: east phases, then south", GRID }, xchg_torus },
};

#define NXCHG	(sizeof(xchg_table) / sizeof(xchg_table[0]))

size_t vcube_xchg_count(void)
{
	return NXCHG;
}

const struct vcube_xchg_algo *vcube_xchg_get(size_t i)
{
	return i < NXCHG ? &xchg_table[i].a : NULL;
}

int vcube_xchg_find(const char *name, const struct vcube_xchg_algo **algo)
{
	size_t i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < NXCHG; i++)
		if (!strcmp(xchg_table[i].a.name, name)) {
			if (algo)
				*algo = &xchg_table[i].a;
			return 0;
		}
	return -ENOENT;
}

int vcube_xchg_usable(const struct vcube_comm *comm, const char *name)
{
	const struct vcube_xchg_algo *a;
	const struct vcube_node_info *in;
	int ret = vcube_xchg_find(name, &a);

	if (ret)
		return ret;
	if (!comm)
		return -EINVAL;
	in = vcube_comm_info(comm);
	if ((a->needs & P2) && (comm->size & (comm->size - 1)))
		return -EDOM;
	if ((a->needs & GRID) &&
	    (!in->rows || in->rows * in->cols != comm->size))
		return -EDOM;
	return 0;
}

int vcube_xchg_run(struct vcube_comm *comm, const char *name,
		   const void *sbuf, void *rbuf, size_t len,
		   const struct vcube_xchg_opts *opts)
{
	struct xctx x = { 0 };
	size_t i;
	int ret;

	if (!comm || !sbuf || !rbuf)
		return -EINVAL;
	ret = vcube_xchg_usable(comm, name);
	if (ret)
		return ret;
	if (len && comm->size > SIZE_MAX / len)
		return -EOVERFLOW;
	for (i = 0; strcmp(xchg_table[i].a.name, name); i++)
		;
	x.c = comm;
	x.sbuf = sbuf;
	x.rbuf = rbuf;
	x.len = len;
	x.me = comm->rank;
	x.p = comm->size;
	x.idle_ns = opts ? opts->idle_ns : 0;
	x.base = vcube_comm_tag_base(comm);
	memcpy(x.rbuf + x.me * len, x.sbuf + x.me * len, len);
	return xchg_table[i].run(&x, name);
}
