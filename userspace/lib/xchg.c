// SPDX-License-Identifier: MIT
/*
 * libvcube: complete exchange (all-to-all personalized communication), as
 * the five papers implement it. Every rank holds @size blocks of @len bytes
 * in sbuf (block j for rank j) and ends with block i from rank i at rbuf +
 * i * len. Nothing here measures anything: time is the kernel's.
 *
 * Every algorithm is a plan (plan.h), made by its paper's planner
 * (userspace/lib/plan/), found in the registry (algo.c) and run by the one
 * executor (plan.c). The store-and-forward ones (standard_F/U, REX,
 * bucket passing, the normal torus) move blocks in memory between their
 * messages; the executor charges those copies at the machine's copy rate
 * (docs/design.md, "Local copies").
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "plan.h"

int vcube_xchg_run(struct vcube_comm *comm, const char *name,
		   const void *sbuf, void *rbuf, size_t len,
		   const struct vcube_xchg_opts *opts)
{
	struct vcube_algo_call call = {
		.kind = VCUBE_ALGO_XCHG, .name = name, .sbuf = sbuf,
		.rbuf = rbuf, .len = len, .idle_ns = opts ? opts->idle_ns : 0,
	};

	int ret;

	if (!comm || !sbuf || !rbuf)
		return -EINVAL;
	ret = vcube_algo_usable(comm, VCUBE_ALGO_XCHG, name);
	if (ret)
		return ret;
	if (len && comm->size > SIZE_MAX / len)
		return -EOVERFLOW;
	/* this rank's own block moves outside the plan, uncharged */
	memcpy((uint8_t *)rbuf + comm->rank * len,
	       (const uint8_t *)sbuf + comm->rank * len, len);
	return vcube_algo_run(comm, &call);
}
