// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: persistent requests, buffered sends, generalised requests.
 *
 * A persistent request (MPI_Send_init and its kin, MPI_Recv_init) keeps
 * its call's arguments; MPI_Start makes that call's nonblocking twin, and
 * the completion calls settle what it started and leave the persistent
 * one inactive (mpi.c, RQ_PERSIST), for the next MPI_Start or
 * MPI_Request_free.
 *
 * A generalised request (MPI_Grequest_start) is done once the program
 * calls MPI_Grequest_complete; its status is its query function's.
 *
 * A buffered send (MPI_Bsend, MPI_Ibsend, a started MPI_Bsend_init) is the
 * message packed into a copy of the library's (MPI_Pack: the node charged
 * the copy, as for packing into the attached buffer) and sent from it as
 * a standard nonblocking send, entered in the attached buffer's ledger
 * for its size plus MPI_BSEND_OVERHEAD until the send is done: a send
 * that would overfill the buffer is MPI_ERR_BUFFER, as MPI says. Each buffered send
 * first retires the oldest done ones (one test that misses, a poll at
 * most); MPI_Buffer_detach and MPI_Finalize wait for the rest.
 */
#include <stdlib.h>
#include <string.h>

#include "vmpi.h"

enum { PS_SEND, PS_SSEND, PS_RSEND, PS_BSEND, PS_RECV };

struct vmpi_persist {
	int how;
	void *buf;
	int count;
	MPI_Datatype type;
	int peer, tag;
};

void vmpi_persist_free(struct vmpi_persist *p)
{
	vmpi_type_put(p->type);
	free(p);
}

static const char *const init_name[] = {
	[PS_SEND] = "MPI_Send_init", [PS_SSEND] = "MPI_Ssend_init",
	[PS_RSEND] = "MPI_Rsend_init", [PS_BSEND] = "MPI_Bsend_init",
	[PS_RECV] = "MPI_Recv_init",
};

/* An inactive persistent request of @how with its call's arguments. */
static int init(int how, const void *buf, int count, MPI_Datatype type,
		int peer, int tag, MPI_Comm comm, MPI_Request *request)
{
	const char *call = init_name[how];
	struct vmpi_request *r;
	int ret = vmpi_enter(comm, call);

	if (ret)
		return ret;
	if (!request)
		return vmpi_error(comm, MPI_ERR_REQUEST, call, "no request");
	if (vmpi_type_check(type))
		return vmpi_error(comm, MPI_ERR_TYPE, call,
				  "not a committed datatype");
	if (count < 0)
		return vmpi_error(comm, MPI_ERR_COUNT, call, "count %d", count);
	r = calloc(1, sizeof(*r));
	if (r)
		r->persist = calloc(1, sizeof(*r->persist));
	if (!r || !r->persist) {
		free(r);
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	}
	*r->persist = (struct vmpi_persist){
		.how = how, .buf = (void *)buf, .count = count, .type = type,
		.peer = peer, .tag = tag,
	};
	vmpi_type_get(type);
	r->kind = RQ_DONE;
	r->comm = comm;
	comm->refs++;
	r->st.MPI_SOURCE = MPI_ANY_SOURCE;
	r->st.MPI_TAG = MPI_ANY_TAG;
	*request = r;
	return MPI_SUCCESS;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest,
		  int tag, MPI_Comm comm, MPI_Request *request)
{
	return init(PS_SEND, buf, count, type, dest, tag, comm, request);
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	return init(PS_SSEND, buf, count, type, dest, tag, comm, request);
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	return init(PS_RSEND, buf, count, type, dest, tag, comm, request);
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest,
		   int tag, MPI_Comm comm, MPI_Request *request)
{
	return init(PS_BSEND, buf, count, type, dest, tag, comm, request);
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source,
		  int tag, MPI_Comm comm, MPI_Request *request)
{
	return init(PS_RECV, buf, count, type, source, tag, comm, request);
}

int MPI_Start(MPI_Request *request)
{
	struct vmpi_request *r;
	struct vmpi_persist *p;
	MPI_Request in = MPI_REQUEST_NULL;
	int ret;

	NEED_INIT("MPI_Start");
	if (!request || !*request || !(*request)->persist)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Start",
				  "not a persistent request");
	r = *request;
	p = r->persist;
	if (r->active)
		return vmpi_error(r->comm, MPI_ERR_REQUEST, "MPI_Start",
				  "the request is active");
	switch (p->how) {
	case PS_SEND:
		ret = MPI_Isend(p->buf, p->count, p->type, p->peer, p->tag,
				r->comm, &in);
		break;
	case PS_SSEND:
		ret = MPI_Issend(p->buf, p->count, p->type, p->peer, p->tag,
				 r->comm, &in);
		break;
	case PS_RSEND:
		ret = MPI_Irsend(p->buf, p->count, p->type, p->peer, p->tag,
				 r->comm, &in);
		break;
	case PS_BSEND:
		ret = MPI_Ibsend(p->buf, p->count, p->type, p->peer, p->tag,
				 r->comm, &in);
		break;
	default:
		ret = MPI_Irecv(p->buf, p->count, p->type, p->peer, p->tag,
				r->comm, &in);
	}
	if (ret)
		return ret;
	r->inner = in;
	r->kind = RQ_PERSIST;
	r->active = true;
	return MPI_SUCCESS;
}

int MPI_Startall(int count, MPI_Request requests[])
{
	int i, ret;

	NEED_INIT("MPI_Startall");
	if (count < 0 || (count && !requests))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Startall",
				  "count %d, or no requests", count);
	for (i = 0; i < count; i++) {
		ret = MPI_Start(&requests[i]);
		if (ret)
			return ret;
	}
	return MPI_SUCCESS;
}

/* ---- buffered sends ------------------------------------------------------ */

static struct {
	void *buf;
	size_t size, used;	/* attached, in the ledger */
	struct entry {
		MPI_Request rq;
		size_t bytes;	/* with the overhead */
		void *copy;	/* the message, packed: the program's buffer is free */
	} *e;
	size_t n, first, cap;
} bb;

/* Retire the oldest buffered sends that are done, up to the first not. */
static void reap(void)
{
	int flag;

	while (bb.first < bb.n) {
		MPI_Test(&bb.e[bb.first].rq, &flag, MPI_STATUS_IGNORE);
		if (!flag)
			return;
		free(bb.e[bb.first].copy);
		bb.used -= bb.e[bb.first++].bytes;
	}
	bb.n = bb.first = 0;
}

/* reap(), and the ledger's live entries moved to its start. */
static void compact(void)
{
	reap();
	if (!bb.first)
		return;
	memmove(bb.e, bb.e + bb.first, (bb.n - bb.first) * sizeof(*bb.e));
	bb.n -= bb.first;
	bb.first = 0;
}

int vmpi_bsend_flush(void)
{
	int ret = MPI_SUCCESS, r;

	for (; bb.first < bb.n; bb.first++) {
		r = MPI_Wait(&bb.e[bb.first].rq, MPI_STATUS_IGNORE);
		ret = ret ? ret : r;
		free(bb.e[bb.first].copy);
		bb.used -= bb.e[bb.first].bytes;
	}
	bb.n = bb.first = 0;
	return ret;
}

int MPI_Buffer_attach(void *buffer, int size)
{
	NEED_INIT("MPI_Buffer_attach");
	if (bb.buf)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_BUFFER,
				  "MPI_Buffer_attach", "a buffer is attached");
	if (size < 0 || (size && !buffer))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Buffer_attach", "size %d", size);
	bb.buf = buffer ? buffer : (void *)&bb;
	bb.size = (size_t)size;
	return MPI_SUCCESS;
}

int MPI_Buffer_detach(void *buffer_addr, int *size)
{
	int ret;

	NEED_INIT("MPI_Buffer_detach");
	if (!buffer_addr || !size)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Buffer_detach", "no address or size");
	ret = vmpi_bsend_flush();
	*(void **)buffer_addr = bb.buf == (void *)&bb ? NULL : bb.buf;
	*size = (int)bb.size;
	bb.buf = NULL;
	bb.size = 0;
	return ret;
}

/*
 * A buffered send: started as a standard nonblocking one, entered in the
 * ledger; *@request (may be NULL) a request already complete.
 */
static int bsend(const char *call, const void *buf, int count,
		 MPI_Datatype type, int dest, int tag, MPI_Comm comm,
		 MPI_Request *request)
{
	struct entry *e;
	size_t bytes;
	int ret, size, pos;

	ret = vmpi_enter(comm, call);
	if (!ret)
		ret = MPI_Pack_size(count, type, comm, &size);
	if (ret)
		return ret;
	bytes = (size_t)size + MPI_BSEND_OVERHEAD;
	compact();
	if (bb.used + bytes > bb.size)
		return vmpi_error(comm, MPI_ERR_BUFFER, call,
				  "%zu bytes with the overhead, %zu of the attached %zu free",
				  bytes, bb.size - bb.used, bb.size);
	if (bb.n == bb.cap) {
		size_t cap = bb.cap ? 2 * bb.cap : 16;

		e = realloc(bb.e, cap * sizeof(*e));
		if (!e)
			return vmpi_error(comm, MPI_ERR_NO_MEM, call,
					  "out of memory");
		bb.e = e;
		bb.cap = cap;
	}
	e = &bb.e[bb.n];
	/*
	 * the message packed into the ledger's own copy, as into the attached
	 * buffer: a long one's later pieces go from it, after this returns
	 */
	e->copy = malloc((size_t)size + 1);
	if (!e->copy)
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	pos = 0;
	ret = MPI_Pack(buf, count, type, e->copy, size, &pos, comm);
	if (!ret)
		ret = MPI_Isend(e->copy, pos, MPI_PACKED, dest, tag, comm, &e->rq);
	if (ret) {
		free(e->copy);
		return ret;
	}
	e->bytes = bytes;
	bb.used += bytes;
	bb.n++;
	if (!request)
		return MPI_SUCCESS;
	/* MPI_Ibsend: complete once the message is in the buffer */
	ret = MPI_Irecv(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, comm, request);
	return ret;
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest,
	      int tag, MPI_Comm comm)
{
	return bsend("MPI_Bsend", buf, count, type, dest, tag, comm, NULL);
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	if (!request)
		return vmpi_error(comm, MPI_ERR_REQUEST, "MPI_Ibsend",
				  "no request");
	return bsend("MPI_Ibsend", buf, count, type, dest, tag, comm, request);
}

/* ---- generalised requests ------------------------------------------------- */

struct vmpi_greq {
	MPI_Grequest_query_function *query;
	MPI_Grequest_free_function *free_fn;
	MPI_Grequest_cancel_function *cancel;
	void *extra;
	bool complete;
};

int MPI_Grequest_start(MPI_Grequest_query_function *query_fn,
		       MPI_Grequest_free_function *free_fn,
		       MPI_Grequest_cancel_function *cancel_fn,
		       void *extra_state, MPI_Request *request)
{
	struct vmpi_request *r;

	NEED_INIT("MPI_Grequest_start");
	if (!query_fn || !free_fn || !cancel_fn || !request)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Grequest_start",
				  "no function or request");
	r = calloc(1, sizeof(*r));
	if (r)
		r->greq = calloc(1, sizeof(*r->greq));
	if (!r || !r->greq) {
		free(r);
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM,
				  "MPI_Grequest_start", "out of memory");
	}
	*r->greq = (struct vmpi_greq){ query_fn, free_fn, cancel_fn,
				       extra_state, false };
	r->kind = RQ_GREQ;
	r->comm = MPI_COMM_WORLD;
	r->comm->refs++;
	*request = r;
	return MPI_SUCCESS;
}

int MPI_Grequest_complete(MPI_Request request)
{
	NEED_INIT("MPI_Grequest_complete");
	if (!request || !request->greq)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
				  "MPI_Grequest_complete",
				  "not a generalised request");
	request->greq->complete = true;
	return MPI_SUCCESS;
}

int vmpi_greq_settle(struct vmpi_greq *g, MPI_Status *st)
{
	int err;

	if (!g->complete)
		return 0;
	st->MPI_ERROR = MPI_SUCCESS;
	err = g->query(g->extra, st);
	if (err)
		st->MPI_ERROR = err;
	return 1;
}

void vmpi_greq_cancel(struct vmpi_greq *g)
{
	g->cancel(g->extra, g->complete);
}

int vmpi_greq_free(struct vmpi_greq *g)
{
	int err = g->free_fn(g->extra);

	free(g);
	return err;
}
