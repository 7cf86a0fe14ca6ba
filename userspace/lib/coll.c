// SPDX-License-Identifier: MIT
/*
 * libvcube: collectives. Global reduction by the crossover (Chuang & Horie:
 * lg p phases, rank + 2^k) or by a binary tree and a broadcast; broadcast;
 * scan (parallel prefix); shift on a ring embedded by the binary reflected
 * Gray code; and the communication kernels of Chuang & Horie's Fig. 4.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"

size_t vcube_type_size(unsigned int type)
{
	switch (type) {
	case VCUBE_TYPE_U64:
	case VCUBE_TYPE_DOUBLE:
		return 8;
	case VCUBE_TYPE_S32:
		return 4;
	default:
		return 0;
	}
}

int vcube_op_check(unsigned int op, unsigned int type)
{
	if (!vcube_type_size(type) || op > VCUBE_OP_BXOR ||
	    (type == VCUBE_TYPE_DOUBLE && op > VCUBE_OP_MIN))
		return -EINVAL;
	return 0;
}

/* a op b for integers of type T; sums wrap, in the unsigned type U */
#define INT_OP(T, U, op, a, b)						\
	((op) == VCUBE_OP_SUM ? (T)((U)(a) + (U)(b)) :			\
	 (op) == VCUBE_OP_MAX ? ((a) > (b) ? (a) : (b)) :		\
	 (op) == VCUBE_OP_MIN ? ((a) < (b) ? (a) : (b)) :		\
	 (op) == VCUBE_OP_BAND ? (T)((U)(a) & (U)(b)) :			\
	 (op) == VCUBE_OP_BOR ? (T)((U)(a) | (U)(b)) : (T)((U)(a) ^ (U)(b)))

/* acc[i] = acc[i] op v[i] for one element type T, unaligned buffers */
#define COMBINE(T, expr, acc, v, count)					\
	do {								\
		size_t i_;						\
		T a_, b_;						\
									\
		for (i_ = 0; i_ < (count); i_++) {			\
			memcpy(&a_, (uint8_t *)(acc) + sizeof(T) * i_, sizeof(T)); \
			memcpy(&b_, (const uint8_t *)(v) + sizeof(T) * i_, sizeof(T)); \
			a_ = (expr);					\
			memcpy((uint8_t *)(acc) + sizeof(T) * i_, &a_, sizeof(T)); \
		}							\
	} while (0)

void vcube_combine(unsigned int op, unsigned int type, void *acc,
		   const void *v, size_t count)
{
	switch (type) {
	case VCUBE_TYPE_U64:
		COMBINE(uint64_t, INT_OP(uint64_t, uint64_t, op, a_, b_), acc,
			v, count);
		break;
	case VCUBE_TYPE_S32:
		COMBINE(int32_t, INT_OP(int32_t, uint32_t, op, a_, b_), acc, v,
			count);
		break;
	default:
		COMBINE(double, op == VCUBE_OP_SUM ? a_ + b_ :
				op == VCUBE_OP_MAX ? (a_ > b_ ? a_ : b_) :
						     (a_ < b_ ? a_ : b_),
			acc, v, count);
		break;
	}
}

/* Binomial-tree broadcast from @root, under @tag. */
static int bcast_tree(struct vcube_comm *c, unsigned int tag, unsigned int root,
		      void *buf, size_t len)
{
	unsigned int p = c->size, v = (c->rank + p - root) % p, m;
	int ret;

	/* Receive from the parent (v with its top bit cleared), then send
	 * to v + m for every m above that bit. */
	for (m = 1; m < p; m *= 2)
		if (v & m) {
			ret = vcube_node_recv(c->node, (v - m + root) % p, tag,
					      buf, len, NULL);
			if (ret)
				return ret;
			break;
		}
	for (m /= 2; m >= 1; m /= 2)
		if (v + m < p) {
			ret = vcube_node_send(c->node, (v + m + root) % p, tag,
					      buf, len, 0, NULL);
			if (ret)
				return ret;
		}
	return 0;
}

/* -ENOENT unless @algo (NULL: the first) is one of @names; else -EDOM if
 * it is "cm5_control" and the network has no control network. */
static int coll_algo(const struct vcube_comm *c, const char *algo,
		     const char *const *names, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!algo || !strcmp(algo, names[i]))
			break;
	if (i == n)
		return -ENOENT;
	if (!strcmp(names[i], "cm5_control") && !c->cnet)
		return -EDOM;
	return (int)i;
}

int vcube_bcast_run(struct vcube_comm *comm, const char *algo,
		    unsigned int root, void *buf, size_t len)
{
	static const char *const names[] = { "tree", "cm5_control" };
	int a;

	if (!comm || (len && !buf) || root >= comm->size)
		return -EINVAL;
	a = coll_algo(comm, algo, names, 2);
	if (a < 0)
		return a;
	if (a == 1)
		return vcube_cnet_bcast(comm, root, buf, len);
	return bcast_tree(comm, vcube_comm_tag_base(comm), root, buf, len);
}

/*
 * The crossover (phase k: send to rank + 2^k, receive from rank - 2^k,
 * combine) leaves every rank with the whole reduction when p is a power of
 * two. The tree reduces to rank 0 in lg p phases and broadcasts back.
 */
int vcube_reduce_run(struct vcube_comm *comm, const char *algo,
		     unsigned int op, unsigned int type, const void *in,
		     void *out, size_t count)
{
	static const char *const names[] = { "crossover", "tree",
					      "cm5_control" };
	size_t es = vcube_type_size(type), len = es * count;
	unsigned int base, p, me, m, k;
	uint8_t *tmp;
	int ret = 0, a;

	if (!comm || !algo || vcube_op_check(op, type) ||
	    (count && (!in || !out)) || count > SIZE_MAX / 8)
		return -EINVAL;
	p = comm->size;
	me = comm->rank;
	a = coll_algo(comm, algo, names, 3);
	if (a < 0)
		return a;
	if (a == 0 && (p & (p - 1)))
		return -EDOM;
	if (a == 2)
		return vcube_cnet_reduce(comm, op, type, in, out, count, 0);
	tmp = malloc(len + 1);
	if (!tmp)
		return -ENOMEM;
	memmove(out, in, len);
	base = vcube_comm_tag_base(comm);
	if (!strcmp(algo, "crossover")) {
		for (k = 0, m = 1; m < p && !ret; k++, m *= 2) {
			ret = vcube_comm_step(comm, base | k, (me + m) % p, out,
					      len, (me + p - m) % p, tmp, len, 0);
			if (!ret)
				vcube_combine(op, type, out, tmp, count);
		}
	} else {
		for (k = 0, m = 1; m < p && !ret; k++, m *= 2) {
			if (me & m) {
				ret = vcube_node_send(comm->node, me - m,
						      base | k, out, len, 0, NULL);
				break;
			}
			if (me + m < p) {
				ret = vcube_node_recv(comm->node, me + m,
						      base | k, tmp, len, NULL);
				if (!ret)
					vcube_combine(op, type, out, tmp, count);
			}
		}
		if (!ret)
			ret = bcast_tree(comm, base | 0x8000, 0, out, len);
	}
	free(tmp);
	return ret;
}

/*
 * Inclusive scan (Hillis & Steele): phase k sends the running value to
 * rank + 2^k and folds in the one from rank - 2^k; lg p phases, any p.
 */
int vcube_scan_run(struct vcube_comm *comm, const char *algo, unsigned int op,
		   unsigned int type, const void *in, void *out, size_t count)
{
	static const char *const names[] = { "doubling", "cm5_control" };
	size_t es = vcube_type_size(type), len = es * count;
	unsigned int base, p, me, m, k, to, from;
	uint8_t *tmp, *snd;
	int ret = 0, a;

	if (!comm || vcube_op_check(op, type) || (count && (!in || !out)) ||
	    count > SIZE_MAX / 16)
		return -EINVAL;
	a = coll_algo(comm, algo, names, 2);
	if (a < 0)
		return a;
	if (a == 1)
		return vcube_cnet_reduce(comm, op, type, in, out, count, 1);
	p = comm->size;
	me = comm->rank;
	tmp = malloc(2 * len + 1);
	if (!tmp)
		return -ENOMEM;
	snd = tmp + len;
	memmove(out, in, len);
	base = vcube_comm_tag_base(comm);
	for (k = 0, m = 1; m < p && !ret; k++, m *= 2) {
		to = me + m < p ? me + m : VCUBE_NONE;
		from = me >= m ? me - m : VCUBE_NONE;
		memcpy(snd, out, len);
		ret = vcube_comm_step(comm, base | k, to, snd, len, from, tmp,
				      len, 0);
		if (!ret && from != VCUBE_NONE)
			vcube_combine(op, type, out, tmp, count);
	}
	free(tmp);
	return ret;
}

unsigned int vcube_gray_encode(unsigned int i)
{
	return i ^ (i >> 1);
}

unsigned int vcube_gray_decode(unsigned int g)
{
	unsigned int i = 0;

	for (; g; g >>= 1)
		i ^= g;
	return i;
}

/*
 * Shift by @k places along the ring 0 = G(0), G(1), ..., G(p - 1) of the
 * binary reflected Gray code: on a hypercube each ring neighbour is a
 * hypercube neighbour. Position i sends to position i + k and receives
 * from position i - k.
 */
int vcube_shift_run(struct vcube_comm *comm, int k, const void *sbuf,
		    void *rbuf, size_t len)
{
	unsigned int p, pos, to, from, d;

	if (!comm || (len && (!sbuf || !rbuf)))
		return -EINVAL;
	p = comm->size;
	if (p & (p - 1))
		return -EDOM;
	d = (unsigned int)(((k % (int)p) + (int)p) % (int)p);
	pos = vcube_gray_decode(comm->rank);
	to = vcube_gray_encode((pos + d) % p);
	from = vcube_gray_encode((pos + p - d) % p);
	if (!d) {
		memmove(rbuf, sbuf, len);
		return 0;
	}
	return vcube_comm_step(comm, vcube_comm_tag_base(comm), to, sbuf, len,
			       from, rbuf, len, 0);
}

/*
 * Chuang & Horie's communication kernels (sec. 3.1, Fig. 4), each phase one
 * message of @len bytes: "butterfly" (partner rank ^ 2^k), "crossover"
 * (to rank + 2^k, from rank - 2^k), both lg p phases; "torus" (cols phases
 * east, then rows phases south). @phases: how many ran.
 */
int vcube_kernel_run(struct vcube_comm *comm, const char *kind, void *buf,
		     size_t len, unsigned int *phases)
{
	const struct vcube_node_info *in;
	unsigned int p, me, base, i, to, from, n = 0, nx, ny, r, c;
	uint8_t *rb;
	int ret = 0;

	if (!comm || !kind || (len && !buf))
		return -EINVAL;
	p = comm->size;
	me = comm->rank;
	in = &comm->info;
	if (strcmp(kind, "butterfly") && strcmp(kind, "crossover") &&
	    strcmp(kind, "torus"))
		return -ENOENT;
	if (!strcmp(kind, "torus") ? !in->rows || in->rows * in->cols != p :
				     (p & (p - 1)) != 0)
		return -EDOM;
	rb = malloc(len + 1);
	if (!rb)
		return -ENOMEM;
	nx = in->cols;
	ny = in->rows;
	base = vcube_comm_tag_base(comm);
	for (i = 0; !ret; i++) {
		if (!strcmp(kind, "torus")) {
			if (i >= nx + ny)
				break;
			r = me / nx;
			c = me % nx;
			if (i < nx) {
				to = r * nx + (c + 1) % nx;
				from = r * nx + (c + nx - 1) % nx;
			} else {
				to = ((r + 1) % ny) * nx + c;
				from = ((r + ny - 1) % ny) * nx + c;
			}
		} else {
			if ((1U << i) >= p)
				break;
			to = kind[0] == 'b' ? me ^ 1U << i : (me + (1U << i)) % p;
			from = kind[0] == 'b' ? to : (me + p - (1U << i)) % p;
		}
		ret = vcube_comm_step(comm, base | i, to, buf, len, from, rb,
				      len, 0);
		n++;
	}
	if (!ret && len)
		memcpy(buf, rb, len);
	if (phases)
		*phases = n;
	free(rb);
	return ret;
}
