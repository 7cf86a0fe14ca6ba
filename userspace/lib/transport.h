/* SPDX-License-Identifier: MIT */
/*
 * libvcube internals: the seam under the executor. A communicator moves
 * messages and reads time only through these operations, so the same plans
 * run on the vcube device (transport.c), on the engine inside a host
 * process (vcube-sim), and on any other tagged message layer with a clock.
 * Every call blocks in the caller's own time; a receive posted with irecv
 * is completed by wait. Each returns 0 or -errno. A network with a
 * control network beside its data network (the CM-5's) reaches it through
 * cnet, as the data network through send and irecv.
 */
#ifndef VCUBE_TRANSPORT_H
#define VCUBE_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

struct vcube_cnet;

struct vcube_transport {
	/* send @len bytes to rank @to with @tag; VCUBE_SEND_FORCED in @flags */
	int (*send)(void *ctx, unsigned int to, unsigned int tag,
		    const void *buf, size_t len, unsigned int flags);
	/*
	 * post a receive of up to @cap bytes from rank @from with @tag; *req
	 * is never 0 (the executor's "none")
	 */
	int (*irecv)(void *ctx, unsigned int from, unsigned int tag, void *buf,
		     size_t cap, uint64_t *req);
	/* complete a posted receive; *len (may be NULL): the bytes it got */
	int (*wait)(void *ctx, uint64_t req, size_t *len);
	/* a receive posted and completed in one call */
	int (*recv)(void *ctx, unsigned int from, unsigned int tag, void *buf,
		    size_t cap);
	int (*clock)(void *ctx, uint64_t *ns);		/* virtual time */
	int (*delay)(void *ctx, uint64_t ns);		/* busy-wait */
	int (*copy)(void *ctx, uint64_t bytes);		/* charge copied bytes */
	/* begin a phase named @label in the trace; NULL: none to mark in */
	int (*mark)(void *ctx, const char *label);
	/*
	 * one operation of the control network, @op as <linux/vcube.h>'s
	 * VCUBE_IOC_CNET takes it (the members' operands into op->rbuf);
	 * NULL: the transport has no control network
	 */
	int (*cnet)(void *ctx, struct vcube_cnet *op);
	/*
	 * The nonblocking half (NULL: the transport has none, and a plan
	 * runs only from start to end, vcube_plan_run()): a send that
	 * returns at once with a request for wait or test; a test answers
	 * 1 (done and gone, *len (may be NULL) the bytes a receive got) or
	 * 0 (not by the rank's clock), and costs no time itself.
	 */
	int (*isend)(void *ctx, unsigned int to, unsigned int tag,
		     const void *buf, size_t len, unsigned int flags,
		     uint64_t *req);
	int (*test)(void *ctx, uint64_t req, size_t *len);
};

/* The vcube device: @ctx is the rank's struct vcube_node. */
extern const struct vcube_transport vcube_device_transport;

#endif /* VCUBE_TRANSPORT_H */
