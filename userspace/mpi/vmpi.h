/* SPDX-License-Identifier: MIT */
/*
 * vcube-mpi internals: the objects behind MPI's handles, shared by the
 * point-to-point layer (mpi.c), the collectives (coll.c) and the
 * datatypes and operators (types.c).
 *
 * Tags on the wire (32 bits, the kernel matches them exactly or by their
 * upper 16 bits, VCUBE_RECV_TAGCLASS):
 *   1 0 cccccccccccccc tttttttttttttttt  point to point: context c, tag t
 *   0 1 ssssssssssssss tttttttttttttttt  MPI_COMM_WORLD's collectives: the
 *                                        library's own tags, unchanged
 *   1 1 cccccccccc ssss tttttttttttttttt another communicator's collectives
 * so MPI_ANY_TAG is the class of the communicator's point-to-point tags and
 * never takes a collective's message.
 */
#ifndef VCUBE_VMPI_H
#define VCUBE_VMPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "mpi.h"
#include "comm.h"

#define VMPI_TAG_UB		32767
#define VMPI_P2P		0x80000000U
#define VMPI_COLL		0xc0000000U
#define VMPI_MAX_CID		1023	/* 10 bits in a collective's tag */
#define VMPI_CID_WORDS		((VMPI_MAX_CID + 1) / 32)
#define VMPI_MAX_DIMS		32	/* of a Cartesian grid */

struct vmpi_comm {
	unsigned int cid;		/* context: 0 world, 1 self */
	int rank, size;
	unsigned int *node;		/* rank -> node */
	int *rank_of;			/* node -> rank, or -1 */
	struct vcube_comm *vc;		/* its collectives */
	MPI_Errhandler errh;
	bool builtin;
	unsigned int refs;		/* its handle and its requests */
	int *cart;			/* a grid's extents, then periods (topo.c) */
	int ndims;
	struct vmpi_graph *graph;	/* a graph's (graph.c) */
	struct vmpi_attr *attrs;	/* attr.c */
	char name[MPI_MAX_OBJECT_NAME];
	/*
	 * An intercommunicator (inter.c): node[], rank_of[] and size are the
	 * remote group's, @local the local group's intracommunicator, on the
	 * same context (its @shared_cid: the context is the
	 * intercommunicator's to give back).
	 */
	struct vmpi_comm *local;
	bool shared_cid;
	unsigned int nidup;		/* MPI_Comm_idup's so far (idup.c) */
};

enum vmpi_base {
	VB_CHAR, VB_SCHAR, VB_UCHAR, VB_BYTE, VB_SHORT, VB_USHORT, VB_INT,
	VB_UINT, VB_LONG, VB_ULONG, VB_LLONG, VB_ULLONG, VB_FLOAT, VB_DOUBLE,
	VB_LDOUBLE, VB_BOOL, VB_I8, VB_I16, VB_I32, VB_I64, VB_U8, VB_U16,
	VB_U32, VB_U64, VB_WCHAR, VB_FLOAT_INT, VB_DOUBLE_INT, VB_LONG_INT,
	VB_2INT, VB_SHORT_INT, VB_LDOUBLE_INT, VB_PACKED, VB_AINT, VB_CFLOAT,
	VB_CDOUBLE, VB_CLDOUBLE, VB_NTYPES
};

/* A run of bytes of a derived type, from the buffer's start. */
struct vmpi_run {
	ptrdiff_t off;
	size_t len;
};

struct vmpi_type {
	size_t size;			/* bytes of data (packed) */
	enum vmpi_base base;		/* what reductions see */
	size_t n;			/* elements of base */
	const char *name;
	bool builtin, committed;
	/*
	 * A derived type (types.c): its bytes as runs in the type map's
	 * order (merged where they touch), its bounds and extent (the
	 * stride from one element to the next). A predefined type has
	 * none of these: its runs are one of size bytes, its extent size.
	 */
	bool derived;
	struct vmpi_run *runs;
	size_t nruns;
	ptrdiff_t lb, extent, true_lb, true_extent;
	unsigned int refs;		/* its handle and pending requests */
	/*
	 * How it was made (MPI_Type_get_envelope, _get_contents): the
	 * combiner and the constructor's integers, addresses and types (a
	 * derived one held, vmpi_type_get(), while this type lives).
	 */
	int combiner;
	int ni, na, nt;
	int *ints;
	MPI_Aint *aints;
	MPI_Datatype *types;
	struct vmpi_attr *attrs;	/* attr.c */
	char uname[MPI_MAX_OBJECT_NAME];	/* MPI_Type_set_name's */
};

enum vmpi_opcode {
	VO_MAX, VO_MIN, VO_SUM, VO_PROD, VO_LAND, VO_BAND, VO_LOR, VO_BOR,
	VO_LXOR, VO_BXOR, VO_MAXLOC, VO_MINLOC, VO_USER, VO_NOPS
};

struct vmpi_op {
	enum vmpi_opcode code;
	const char *name;
	bool builtin;
	/* MPI_Op_create's (VO_USER): the function, and is it commutative */
	MPI_User_function *fn;
	bool commute;
};

/* A request (mpi.c), a pending point-to-point call's or a collective's. */
/*
 * RQ_RECV waits for a message or a split one's first piece, RQ_PIECES for
 * the rest of its pieces (a split send's RQ_SEND, for its first piece),
 * RQ_COLL for a nonblocking collective, RQ_PERSIST for the request an
 * active persistent one started, RQ_GREQ for the program's
 * MPI_Grequest_complete.
 */
enum { RQ_SEND, RQ_RECV, RQ_PIECES, RQ_COLL, RQ_PERSIST, RQ_GREQ, RQ_DONE };

struct vmpi_request {
	int kind;
	uint64_t req;			/* the kernel's */
	MPI_Comm comm;
	void *buf;			/* a receive's */
	size_t cap;
	MPI_Status st;			/* RQ_DONE's */
	uint64_t *pieces;		/* RQ_PIECES: the rest's, the kernel's */
	unsigned int npieces, next;	/* how many, the next to wait for */
	unsigned int src, tag;		/* RQ_PIECES: the first piece's */
	size_t total;			/* RQ_PIECES: the message's bytes */
	int err;			/* RQ_PIECES: truncated, or a piece failed */
	/* a receive of a non-contiguous type: into @buf, then unpacked */
	void *ubuf;
	MPI_Datatype utype;
	int ucount;
	struct vmpi_request *pnext;	/* RQ_RECV: the next pending receive */
	int why;			/* the -errno it failed with */
	/* RQ_SEND of a split message: the rest, sent once the first went */
	const void *sbuf;
	size_t sbytes;
	unsigned int sdst, sstream;
	struct vmpi_icoll *coll;	/* RQ_COLL's (icoll.c) */
	/*
	 * A persistent request (persist.c): what MPI_Start starts, and the
	 * request it started, until a completion call retires it; the
	 * persistent one is RQ_DONE while inactive, its status empty.
	 */
	struct vmpi_persist *persist;
	struct vmpi_request *inner;
	bool active;			/* started, not yet completed and seen */
	struct vmpi_greq *greq;		/* a generalised request's (persist.c) */
};

/* The process's state. */
struct vmpi_state {
	int inited, finalized;
	struct vcube_node *node;
	/*
	 * this rank, the network's nodes; world ranks are what vcube-mpi
	 * calls nodes, libvcube turning them into the network's when
	 * vcube-run placed the job (VCUBE_NODES)
	 */
	unsigned int me, nnodes;
	unsigned int hw;		/* the network's number of this node */
	unsigned int cid_free[VMPI_CID_WORDS];	/* inter.c */
	uint64_t poll_ns;		/* a test or probe that finds nothing */
	int verbose;
	int provided;			/* the thread level granted */
	pid_t init_tid;			/* the thread that called MPI_Init */
	size_t max_msg;
};

extern struct vmpi_state vmpi;

/* Every call but the few MPI allows outside: the process ends. */
#define NEED_INIT(call)							\
	do {								\
		if (!vmpi.inited || vmpi.finalized) {			\
			fprintf(stderr, "vcube-mpi: %s before MPI_Init or " \
				"after MPI_Finalize\n", call);		\
			_exit(1);					\
		}							\
	} while (0)

/* How a communicator's collectives move their messages (mpi.c). */
extern const struct vcube_transport vmpi_transport;

/* The error path: per the communicator's handler, fatal or returned. */
int vmpi_error(MPI_Comm comm, int code, const char *call, const char *fmt,
	       ...) __attribute__((format(printf, 4, 5)));
/* Words for a libvcube -errno. */
const char *vmpi_strerror(int err);
/* An MPI error class for a libvcube -errno. */
int vmpi_errclass(int err);
/* Initialised (else the process ends) and a live @comm: 0 or its error. */
int vmpi_enter(MPI_Comm comm, const char *call);
/*
 * @count elements of @type: its bytes in *@bytes, within max_msg, and a
 * buffer (@buf not NULL) when there are any: 0 or the error.
 */
int vmpi_count_check(MPI_Comm comm, const char *call, const void *buf,
		     int count, MPI_Datatype type, size_t *bytes);
/* 0 if @comm is a live communicator. */
int vmpi_comm_check(MPI_Comm comm);
/* 0 if @type is usable (predefined, or committed). */
int vmpi_type_check(MPI_Datatype type);
/* @type's extent: the bytes from one element to the next. */
ptrdiff_t vmpi_type_extent(MPI_Datatype type);
/* Are @count elements of @type one run of count * size bytes at the buffer? */
bool vmpi_type_contig(MPI_Datatype type);
/* @count elements of @type at @buf, packed into @out (count * size bytes). */
void vmpi_pack(MPI_Datatype type, int count, const void *buf, void *out);
/* The first @bytes of @in (packed), into @count elements of @type at @buf. */
void vmpi_unpack(MPI_Datatype type, int count, const void *in, size_t bytes,
		 void *buf);
/* A pending request holds @type (so MPI_Type_free leaves it), and lets go. */
void vmpi_type_get(MPI_Datatype type);
void vmpi_type_put(MPI_Datatype type);
/* 0 if @op applies to @type; the reduction over @len bytes. */
int vmpi_op_check(MPI_Op op, MPI_Datatype type);
void vmpi_fold(void *ctx, void *acc, const void *v, size_t len);
/* @inout = @in op @inout over @len bytes of @type, in MPI's order. */
void vmpi_combine(MPI_Datatype type, MPI_Op op, const void *in, void *inout,
		  size_t len);
/* Does no order of the operands change the result's bits? */
bool vmpi_op_exact(MPI_Op op, MPI_Datatype type);
/* The VCUBE_OP_* / VCUBE_TYPE_* for the control network, or -1. */
int vmpi_native(MPI_Op op, MPI_Datatype type, unsigned int *vop,
		unsigned int *vtype);

/* A communicator over @n nodes (@node[] is taken over), context @cid. */
int vmpi_comm_make(unsigned int cid, unsigned int *node, int n, int rank,
		   MPI_Comm *out);
/* A request is done with @c (MPI_Comm_free leaves it to the last). */
void vmpi_comm_put(MPI_Comm c);
/*
 * Contexts (inter.c): every one free but the predefined communicators';
 * one free for every member of @comm, taken by each (collective over
 * @comm), or over the @n members of @comm with ranks @rank[] (@rank[0]
 * leading, by @tag); one given back once its communicator is gone.
 */
void vmpi_cid_init(void);
int vmpi_cid_agree(MPI_Comm comm, unsigned int *cid);
int vmpi_cid_agree_among(MPI_Comm comm, const int *rank, int n, int tag,
			 unsigned int *cid);
void vmpi_cid_release(unsigned int cid);
/* The lowest context of @mask (VMPI_MAX_CID + 1: none); @cid taken. */
unsigned int vmpi_cid_lowest(const unsigned int *mask);
int vmpi_cid_take(unsigned int cid);
/*
 * MPI_Comm_idup's context agreements (idup.c): one progressed (@block:
 * to its end): 1 done (the communicator made), 0, or an MPI error; freed;
 * and every pending one completed, as a blocking agreement first does.
 */
struct vmpi_idup;
int vmpi_idup_progress(struct vmpi_idup *d, bool block);
void vmpi_idup_free(struct vmpi_idup *d);
void vmpi_idup_drain(void);
/* vmpi_enter(), and @comm is an intracommunicator: 0 or the error. */
int vmpi_intra(MPI_Comm comm, const char *call);
/* MPI_Comm_dup of an intercommunicator (inter.c): 0 or an MPI error. */
int vmpi_inter_dup(MPI_Comm inter, MPI_Comm *newcomm);
/*
 * Swap @sn bytes of @s for at most @rn into @r with rank @peer of @c (an
 * intercommunicator's: the remote group's), on the library's own tag @k,
 * never a program's: 0 or an MPI error.
 */
int vmpi_swap(MPI_Comm c, int peer, unsigned int k, const void *s, size_t sn,
	      void *r, size_t rn);
/*
 * A reduction (every rank gets the result) or a scan with a
 * non-commutative operator, in rank order (collv.c): 0 or a -errno.
 */
int vmpi_fold_ordered(MPI_Comm c, bool scan, void *out, size_t bytes,
		      MPI_Datatype type, MPI_Op op);
/* Wait for @req[@n] but @skip's (collv.c): the first error, or @ret. */
struct vcube_comm;
int vmpi_wait_all_but(struct vcube_comm *v, uint64_t *req, int n, int skip,
		      int ret);
/* A group of the @n world ranks of @node (copied) (group.c). */
int vmpi_group_of(const unsigned int *node, int n, MPI_Group *out);
/*
 * Attributes (attr.c) of a communicator (VMPI_ATTR_COMM) or a datatype
 * (VMPI_ATTR_TYPE) @obj, whose list is @list: set, got, deleted (through
 * the key's delete callback); copied onto a duplicate through the copy
 * callbacks, and all deleted, the last set first, when the object is
 * freed. Each returns 0 or an MPI error (the copy and the clear: a
 * callback's, for the caller to report); a communicator's go to its
 * handler.
 */
enum { VMPI_ATTR_COMM, VMPI_ATTR_TYPE };
int vmpi_attr_set(int kind, void *obj, struct vmpi_attr **list, int key,
		  void *val, const char *call);
int vmpi_attr_get(int kind, void *obj, struct vmpi_attr *list, int key,
		  void *val, int *flag, const char *call);
int vmpi_attr_delete(int kind, void *obj, struct vmpi_attr **list, int key,
		     const char *call);
int vmpi_attr_copy(int kind, void *old, struct vmpi_attr *from,
		   struct vmpi_attr **to);
int vmpi_attr_clear(int kind, void *obj, struct vmpi_attr **list);

/*
 * The collectives' shared checks (coll.c, collv.c), each 0 or the MPI
 * error reported: the algorithm of @kind for @call, VCUBE_MPI_<@env> or
 * @dflt; @count elements of @type in *@bytes; a root; a block of *@bytes
 * each way for every rank; a reduction's arguments; a committed
 * contiguous type; a v-call's counts and displacements; a rooted
 * v-call's, *@bytes the own block's.
 */
int vmpi_coll_pick(MPI_Comm c, const char *call, unsigned int kind,
		   const char *env, const char *dflt, const char **name);
int vmpi_coll_count(MPI_Comm c, const char *call, int count,
		    MPI_Datatype type, size_t *bytes);
int vmpi_coll_root(MPI_Comm c, const char *call, int root);
int vmpi_coll_blocks(MPI_Comm c, const char *call, int scount,
		     MPI_Datatype stype, int rcount, MPI_Datatype rtype,
		     bool in_place, size_t *bytes);
int vmpi_fold_check(MPI_Comm c, const char *call, const void *in,
		    const void *out, int count, MPI_Datatype type, MPI_Op op,
		    size_t *bytes);
int vmpi_contig_check(MPI_Comm c, const char *call, MPI_Datatype type);
int vmpi_v_check(MPI_Comm c, const char *call, const int counts[],
		 const int displs[], MPI_Datatype type);
int vmpi_v_args(MPI_Comm c, const char *call, int root, bool in_place,
		int count, MPI_Datatype type, const int counts[],
		const int displs[], MPI_Datatype vtype, size_t *bytes);
/*
 * MPI_Alltoallw's arguments as bytes: each rank's block's to send and to
 * receive in *@sizes (2 p of them, the caller's to free), and in place a
 * copy of the receive buffer in *@copy (NULL otherwise) to send from, at
 * the receive displacements; 0 or the MPI error reported.
 */
int vmpi_w_args(MPI_Comm comm, const char *call, bool in_place,
		const int sendcounts[], const int sdispls[],
		const MPI_Datatype sendtypes[], const void *recvbuf,
		const int recvcounts[], const int rdispls[],
		const MPI_Datatype recvtypes[], size_t **sizes, char **copy);
/*
 * The algorithm a reduction or scan of @kind (VCUBE_MPI_<@env>'s call)
 * takes by default: the control network's where @cnet allows it and it
 * carries @op on @type, else the data network's.
 */
const char *vmpi_fold_default(MPI_Comm c, unsigned int kind, const char *env,
			      MPI_Op op, MPI_Datatype type, bool cnet);

/*
 * The nonblocking collectives (icoll.c): a pending one's request (mpi.c
 * makes it, vmpi_req_coll()); progressed (@block: until done; else one
 * test): 1 done, 0 not yet, or its -errno; freed with its request. While
 * any is pending (vmpi_icoll_busy()), a blocking call of vcube-mpi tests
 * instead of blocking, and polls them all (vmpi_icoll_poll()) between.
 */
struct vmpi_icoll;
int vmpi_req_coll(MPI_Comm comm, struct vmpi_icoll *ic, MPI_Request *req);
int vmpi_icoll_progress(struct vmpi_icoll *ic, bool block);
void vmpi_icoll_free(struct vmpi_icoll *ic);
bool vmpi_icoll_busy(void);
void vmpi_icoll_poll(void);
/* vmpi_icoll_poll(), then the node's poll time (a test that found nothing). */
void vmpi_icoll_pause(void);
/* MPI_Comm_idup's agreement @d as a pending collective's request. */
int vmpi_icoll_idup(MPI_Comm c, struct vmpi_idup *d, MPI_Request *req);
/* The rest of a duplicate @to of @from: its topology, attributes, handler. */
int vmpi_comm_dup_rest(MPI_Comm from, MPI_Comm to);

/*
 * Persistent requests and buffered sends (persist.c): a persistent
 * request's parts freed with it; the buffered sends still in the
 * attached buffer waited for (MPI_Finalize, MPI_Buffer_detach).
 */
struct vmpi_persist;
void vmpi_persist_free(struct vmpi_persist *p);
/*
 * A generalised request's: complete (its query function's status in @st,
 * and its error), or not yet (0, when the program has not completed it:
 * no one else can, so a wait on it is an error, -EDEADLK); cancelled
 * (its cancel function told); freed (its free function called).
 */
struct vmpi_greq;
int vmpi_greq_settle(struct vmpi_greq *g, MPI_Status *st);
void vmpi_greq_cancel(struct vmpi_greq *g);
int vmpi_greq_free(struct vmpi_greq *g);
int vmpi_bsend_flush(void);

/*
 * Error handlers and codes of the program's (errh.c): a valid handler; a
 * communicator's hold on one, taken and let go; a handler of the
 * program's called with *@code (true), or none (false, a predefined one);
 * an added code's class (a predefined one's its own, -1 none) and string
 * (NULL: not added); the last code; MPI_LASTUSEDCODE set (attr.c).
 */
bool vmpi_errh_valid(MPI_Errhandler h);
void vmpi_errh_get(MPI_Errhandler h);
void vmpi_errh_put(MPI_Errhandler h);
bool vmpi_errh_call(MPI_Comm comm, MPI_Errhandler h, int *code);
int vmpi_code_class(int code);
const char *vmpi_code_string(int code);
int vmpi_last_code(void);
void vmpi_attr_lastused(int code);

/*
 * Graph topologies (graph.c): freed with their communicator, copied to a
 * duplicate (0 or MPI_ERR_NO_MEM), and the kind (MPI_GRAPH,
 * MPI_DIST_GRAPH, or MPI_UNDEFINED).
 */
struct vmpi_graph;
void vmpi_graph_free(struct vmpi_graph *g);
int vmpi_graph_copy(MPI_Comm from, MPI_Comm to);
int vmpi_graph_kind(MPI_Comm c);

/* @to gets @from's Cartesian topology, if it has one: 0 or an MPI error. */
int vmpi_cart_copy(MPI_Comm from, MPI_Comm to);

#endif /* VCUBE_VMPI_H */
