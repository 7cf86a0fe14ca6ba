/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host harness for the engine (kernel/core): one POSIX thread per virtual node,
 * one mutex around every engine call and a condition variable per node, as
 * the module has one lock per network and one wait queue per node. Threads
 * run truly concurrently, so the tests also exercise the engine's claim
 * that host scheduling never changes virtual times.
 */
#ifndef VCUBE_TEST_HARNESS_H
#define VCUBE_TEST_HARNESS_H

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "profiles.h"
#include "topology.h"

struct hnet {
	struct vcube_topo topo;
	struct vc_engine *e;
	pthread_mutex_t lock;
	pthread_cond_t *cv;
	void (*prog)(struct hnet *h, u32 node);
	u32 nprocs;
	int bad_data;		/* payload mismatches seen */
	u64 done[4096];		/* each node's clock when its program ended */
};

static inline struct vc_params params_ipsc860(void)
{
	return vc_profile_ipsc860();
}

static inline void hnet_wake(void *ctx, u32 node)
{
	struct hnet *h = ctx;

	pthread_cond_signal(&h->cv[node]);
}

static inline void hnet_init(struct hnet *h, const struct vcube_topo_params *tp,
			     const struct vc_params *p)
{
	u32 i;

	memset(h, 0, sizeof(*h));
	if (vcube_topo_init(&h->topo, tp, NULL, 0))
		abort();
	h->e = vc_engine_create(&h->topo, p);
	if (!h->e)
		abort();
	pthread_mutex_init(&h->lock, NULL);
	h->cv = calloc(h->topo.nodes, sizeof(*h->cv));
	for (i = 0; i < h->topo.nodes; i++)
		pthread_cond_init(&h->cv[i], NULL);
	vc_engine_set_wake(h->e, hnet_wake, h);
}

static inline void hnet_fini(struct hnet *h)
{
	vc_engine_destroy(h->e);
	free(h->cv);
}

/* Sleep (lock held) until @node is no longer blocked; its status. */
static inline int h_sleep(struct hnet *h, u32 node, int ret)
{
	while (ret == VC_BLOCKED_RET) {
		pthread_cond_wait(&h->cv[node], &h->lock);
		ret = vc_node_status(h->e, node);
		if (ret == -EAGAIN)
			ret = VC_BLOCKED_RET;
	}
	return ret;
}

static inline u8 h_byte(u32 src, u32 dst, u32 tag, u64 i)
{
	return (u8)(src * 131 + dst * 31 + tag * 7 + i * 13 + (i >> 8));
}

static inline struct vc_req *h_isend(struct hnet *h, u32 node, u32 dst,
				     u32 tag, u32 flags, u64 len)
{
	struct vc_req *r = NULL;
	u8 *buf = malloc(len ? len : 1);
	u64 i;

	for (i = 0; i < len; i++)
		buf[i] = h_byte(node, dst, tag, i);
	pthread_mutex_lock(&h->lock);
	if (vc_send(h->e, node, dst, tag, flags, buf, len, 0, &r))
		r = NULL;
	pthread_mutex_unlock(&h->lock);
	return r;
}

static inline struct vc_req *h_irecv(struct hnet *h, u32 node, u32 src,
				     u32 tag, u64 cap)
{
	struct vc_req *r = NULL;

	pthread_mutex_lock(&h->lock);
	if (vc_recv(h->e, node, src, tag, cap, 0, &r))
		r = NULL;
	pthread_mutex_unlock(&h->lock);
	return r;
}

/*
 * Wait for @r and free it; for a receive, check every byte. Returns 0,
 * -EDEADLK, or -EMSGSIZE; *len gets the received length.
 */
static inline int h_wait(struct hnet *h, u32 node, struct vc_req *r, u64 *len)
{
	int ret;
	u64 i;

	if (!r)
		return -EINVAL;
	pthread_mutex_lock(&h->lock);
	ret = h_sleep(h, node, vc_wait(h->e, node, r));
	if (!ret && r->type == VC_REQ_RECV) {
		struct vc_msg *m = r->msg;

		ret = r->status;
		for (i = 0; i < m->len && i < r->cap; i++)
			if (((u8 *)m->data)[i] != h_byte(m->src, m->dst, m->tag, i)) {
				h->bad_data++;
				break;
			}
		if (len)
			*len = m->len;
	}
	if (ret != -EDEADLK)
		vc_req_free(h->e, r);
	pthread_mutex_unlock(&h->lock);
	return ret;
}

static inline int h_send(struct hnet *h, u32 node, u32 dst, u32 tag,
			 u32 flags, u64 len)
{
	return h_wait(h, node, h_isend(h, node, dst, tag, flags, len), NULL);
}

static inline int h_recv(struct hnet *h, u32 node, u32 src, u32 tag, u64 cap)
{
	return h_wait(h, node, h_irecv(h, node, src, tag, cap), NULL);
}

static inline u64 h_clock(struct hnet *h, u32 node)
{
	u64 t;

	pthread_mutex_lock(&h->lock);
	t = vc_clock(h->e, node);
	pthread_mutex_unlock(&h->lock);
	return t;
}

static inline void h_delay(struct hnet *h, u32 node, u64 ns)
{
	pthread_mutex_lock(&h->lock);
	vc_delay(h->e, node, ns);
	pthread_mutex_unlock(&h->lock);
}

struct h_arg {
	struct hnet *h;
	u32 node;
};

static inline void *h_thread(void *p)
{
	struct h_arg *a = p;

	a->h->prog(a->h, a->node);
	pthread_mutex_lock(&a->h->lock);
	a->h->done[a->node] = vc_clock(a->h->e, a->node);
	vc_unbind(a->h->e, a->node);
	pthread_mutex_unlock(&a->h->lock);
	return NULL;
}

/*
 * Run @prog on nodes 0..nprocs-1, one thread each, all bound at time 0
 * before any starts (as vcube-run does). Returns when all have ended.
 */
static inline void h_run(struct hnet *h, u32 nprocs,
			 void (*prog)(struct hnet *h, u32 node))
{
	pthread_t *th = calloc(nprocs, sizeof(*th));
	struct h_arg *a = calloc(nprocs, sizeof(*a));
	u32 i;

	h->prog = prog;
	h->nprocs = nprocs;
	pthread_mutex_lock(&h->lock);
	for (i = 0; i < nprocs; i++)
		vc_bind(h->e, i);
	pthread_mutex_unlock(&h->lock);
	for (i = 0; i < nprocs; i++) {
		a[i].h = h;
		a[i].node = i;
		pthread_create(&th[i], NULL, h_thread, &a[i]);
	}
	for (i = 0; i < nprocs; i++)
		pthread_join(th[i], NULL);
	free(th);
	free(a);
}

#endif
