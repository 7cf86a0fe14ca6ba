/* SPDX-License-Identifier: MIT */
/*
 * libvcube: userspace access to vcube's virtual nodes.
 *
 * Every function returns 0 (or a count) on success and -errno on failure;
 * none of them sets errno as its way of reporting.
 */
#ifndef VCUBE_H
#define VCUBE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/vcube.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VCUBE_SYSFS_ROOT	"/sys/class/vcube"
#define VCUBE_DEV_FMT		"/dev/vcube%u"
#define VCUBE_MAX_NEIGHBORS	16

struct vcube_node;

/* Bind the calling process to node @rank (opens /dev/vcube<rank>). */
int vcube_node_open(unsigned int rank, struct vcube_node **nodep);
int vcube_node_close(struct vcube_node *node);
int vcube_node_fd(const struct vcube_node *node);
int vcube_node_info(struct vcube_node *node, struct vcube_node_info *info);
/*
 * The route from @node to @dst: fills up to @max hops and returns the
 * route's length (which may exceed @max: call again with more room).
 */
int vcube_node_route(struct vcube_node *node, unsigned int dst,
		     uint64_t cookie, struct vcube_hop *hops, size_t max);

/*
 * Messages. Blocking calls fill @st (which may be NULL); non-blocking ones
 * return a request id for vcube_node_wait() or vcube_node_test(). flags:
 * VCUBE_SEND_FORCED (no handshake; dropped at a node with no receive
 * posted), else UNFORCED. Every virtual time is in ns.
 */
int vcube_node_send(struct vcube_node *node, unsigned int dst, unsigned int tag,
		    const void *buf, size_t len, unsigned int flags,
		    struct vcube_status *st);
int vcube_node_isend(struct vcube_node *node, unsigned int dst,
		     unsigned int tag, const void *buf, size_t len,
		     unsigned int flags, uint64_t *req);
int vcube_node_recv(struct vcube_node *node, unsigned int src, unsigned int tag,
		    void *buf, size_t cap, struct vcube_status *st);
int vcube_node_irecv(struct vcube_node *node, unsigned int src,
		     unsigned int tag, void *buf, size_t cap, uint64_t *req);
int vcube_node_wait(struct vcube_node *node, uint64_t req,
		    struct vcube_status *st);
/* 1 if @req is done by the node's clock (and then gone), 0 if not. */
int vcube_node_test(struct vcube_node *node, uint64_t req,
		    struct vcube_status *st);
/* Send to and receive from @partner at once; @st describes the receive. */
int vcube_node_exchange(struct vcube_node *node, unsigned int partner,
			unsigned int tag, const void *sbuf, size_t slen,
			void *rbuf, size_t rcap, unsigned int flags,
			struct vcube_status *st);
int vcube_node_clock(struct vcube_node *node, uint64_t *ns);
/* Busy-wait: the node's clock advances by @ns. */
int vcube_node_delay(struct vcube_node *node, uint64_t ns);
/* Busy-wait until the node's clock reads @ns (no-op if it is past). */
int vcube_node_delay_until(struct vcube_node *node, uint64_t ns);

/*
 * Under vcube-run: this process's rank and the number of processes
 * (VCUBE_RANK, VCUBE_SIZE). -ENOENT when not started by vcube-run.
 */
int vcube_env_rank(unsigned int *rank, unsigned int *size);

/* The network as sysfs describes it; @root NULL means VCUBE_SYSFS_ROOT. */
struct vcube_net_desc {
	char topology[16];
	char shape[64];
	char profile[16];
	unsigned int nodes;
	unsigned int channels;
	unsigned int diameter;
	unsigned long long seed;
};

struct vcube_node_desc {
	unsigned int node;
	char coords[32];
	unsigned int nneighbors;
	unsigned int neighbors[VCUBE_MAX_NEIGHBORS];
	int owner;		/* pid of the bound process, 0 if unbound */
};

int vcube_net_describe(const char *root, struct vcube_net_desc *desc);
int vcube_node_describe(const char *root, unsigned int node,
			struct vcube_node_desc *desc);

const char *vcube_topology_name(unsigned int topology);
const char *vcube_dir_name(unsigned int topology, unsigned int dir);

#ifdef __cplusplus
}
#endif

#endif /* VCUBE_H */
