// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: the environment, communicators and point-to-point messages,
 * each an ioctl of the process's bound node (libvcube). Receives are the
 * kernel's: posted in order, matched there by source and tag (MPI_ANY_TAG
 * as the communicator's class of tags), so MPI's matching order is the
 * kernel's. A probe is a receive into a buffer of the library's, tested and
 * cancelled (VCUBE_IOC_CANCEL) when nothing came: the message it finds is
 * kept here until the receive that takes it.
 *
 * A message of more than the network's max_msg bytes goes in pieces, each a
 * message of the kernel's (split_send(), split_recv()): MPI has no limit.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vmpi.h"

struct vmpi_state vmpi;

struct vmpi_comm vmpi_comm_world = { .cid = 0, .errh = MPI_ERRORS_ARE_FATAL,
				     .builtin = true,
				     .name = "MPI_COMM_WORLD" };
struct vmpi_comm vmpi_comm_self = { .cid = 1, .errh = MPI_ERRORS_ARE_FATAL,
				    .builtin = true, .name = "MPI_COMM_SELF" };

/* A message a probe took from the kernel, kept for its receive. */
struct vmpi_kept {
	struct vmpi_kept *next;
	unsigned int src;		/* node */
	unsigned int tag;		/* on the wire */
	size_t len;
	unsigned char data[];
};

/* Sends MPI_Request_free let go of: waited for at MPI_Finalize. */
static uint64_t *detached;
static size_t ndetached, detached_cap;

static struct vmpi_kept *kept, **kept_tail = &kept;

/*
 * The receives posted whose first message has not been taken, in posting
 * order (recvs_progress()).
 */
static struct vmpi_request *pending, **pending_tail = &pending;

static void pend_add(struct vmpi_request *r)
{
	r->pnext = NULL;
	*pending_tail = r;
	pending_tail = &r->pnext;
}

static void pend_del(struct vmpi_request *r)
{
	struct vmpi_request **p;

	for (p = &pending; *p; p = &(*p)->pnext)
		if (*p == r) {
			*p = r->pnext;
			if (pending_tail == &r->pnext)
				pending_tail = p;
			return;
		}
}

static void req_free(struct vmpi_request *r)
{
	if (r->kind == RQ_RECV)
		pend_del(r);
	if (r->coll)
		vmpi_icoll_free(r->coll);
	if (r->inner) {
		vmpi_comm_put(r->inner->comm);
		req_free(r->inner);
	}
	if (r->persist)
		vmpi_persist_free(r->persist);
	if (r->greq)
		vmpi_greq_free(r->greq);
	if (r->ubuf) {
		free(r->buf);
		vmpi_type_put(r->utype);
	}
	free(r->pieces);
	free(r);
}

/*
 * A buffer of the library's for @bytes packed (an int counts them, as the
 * message of MPI_BYTE they go as): 0 and *@tmp, or the error.
 */
static int pack_room(MPI_Comm comm, const char *call, size_t bytes, void **tmp)
{
	if (bytes > INT_MAX)
		return vmpi_error(comm, MPI_ERR_COUNT, call,
				  "%zu bytes packed: more than an int counts",
				  bytes);
	*tmp = malloc(bytes ? bytes : 1);
	if (!*tmp)
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	return 0;
}

/* The @got bytes received into @tmp, unpacked at @buf; @tmp freed. */
static void unpack_in(MPI_Datatype type, int count, void *tmp, size_t got,
		      void *buf)
{
	vmpi_unpack(type, count, tmp, got, buf);
	if (got)
		vcube_node_copy(vmpi.node, got, NULL);
	free(tmp);
}

/* A done receive of a non-contiguous type: its bytes unpacked, once. */
static void req_unpack(struct vmpi_request *r)
{
	if (!r->ubuf)
		return;
	unpack_in(r->utype, r->ucount, r->buf, r->st.vmpi_bytes, r->ubuf);
	vmpi_type_put(r->utype);
	r->ubuf = NULL;
	r->buf = NULL;
}

static const char *const errstr[] = {
	[MPI_SUCCESS] = "no error",
	[MPI_ERR_BUFFER] = "invalid buffer",
	[MPI_ERR_COUNT] = "invalid count",
	[MPI_ERR_TYPE] = "invalid datatype",
	[MPI_ERR_TAG] = "invalid tag",
	[MPI_ERR_COMM] = "invalid communicator",
	[MPI_ERR_RANK] = "invalid rank",
	[MPI_ERR_REQUEST] = "invalid request",
	[MPI_ERR_ROOT] = "invalid root",
	[MPI_ERR_GROUP] = "invalid group",
	[MPI_ERR_OP] = "invalid reduction operation",
	[MPI_ERR_TOPOLOGY] = "invalid topology",
	[MPI_ERR_DIMS] = "invalid dimensions",
	[MPI_ERR_ARG] = "invalid argument",
	[MPI_ERR_UNKNOWN] = "unknown error",
	[MPI_ERR_TRUNCATE] = "message truncated",
	[MPI_ERR_OTHER] = "other error",
	[MPI_ERR_INTERN] = "internal error",
	[MPI_ERR_IN_STATUS] = "error code in status",
	[MPI_ERR_PENDING] = "pending request",
	[MPI_ERR_NO_MEM] = "out of memory",
	[MPI_ERR_UNSUPPORTED_OPERATION] = "operation not supported by vcube-mpi",
	[MPI_ERR_KEYVAL] = "invalid keyval",
};

const char *vmpi_strerror(int err)
{
	if (err == -EDEADLK)
		return "deadlock: every rank waits for another (a blocking send "
		       "may wait for its receive: no buffering on this network?)";
	return strerror(-err);
}

int vmpi_errclass(int err)
{
	switch (err) {
	case 0:
		return MPI_SUCCESS;
	case -EMSGSIZE:
		return MPI_ERR_TRUNCATE;
	case -ENOMEM:
		return MPI_ERR_NO_MEM;
	case -ENOENT:
	case -EINVAL:
		return MPI_ERR_ARG;
	case -EDOM:
	case -EOPNOTSUPP:
		return MPI_ERR_UNSUPPORTED_OPERATION;
	default:
		return MPI_ERR_OTHER;
	}
}

int vmpi_error(MPI_Comm comm, int code, const char *call, const char *fmt,
	       ...)
{
	MPI_Errhandler h = comm ? comm->errh : MPI_ERRORS_ARE_FATAL;
	char msg[256];
	va_list ap;

	int cls = vmpi_code_class(code);
	const char *what = cls >= 0 && cls <= MPI_ERR_LASTCODE ? errstr[cls] :
			   "an error class of the program's";

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (h == MPI_ERRORS_RETURN || vmpi_errh_call(comm, h, &code)) {
		if (getenv("VCUBE_MPI_VERBOSE"))
			fprintf(stderr, "vcube-mpi: rank %u: %s: %s: %s\n",
				vmpi.me, call, what, msg);
		return code;
	}
	fprintf(stderr, "vcube-mpi: rank %u: %s: %s: %s\n", vmpi.me, call,
		what, msg);
	fflush(NULL);
	_exit(code < 126 ? code + 100 : 1);
}

int vmpi_comm_check(MPI_Comm comm)
{
	return comm && comm->vc ? 0 : MPI_ERR_COMM;
}

int vmpi_intra(MPI_Comm comm, const char *call)
{
	int ret = vmpi_enter(comm, call);

	if (!ret && comm->local)
		ret = vmpi_error(comm, MPI_ERR_COMM, call,
				 "an intercommunicator: vcube-mpi has no %s on one",
				 call);
	return ret;
}

/* ---- environment ----------------------------------------------------------- */

/* The largest message of the network the job runs on (VCUBE_NET). */
static size_t net_max_msg(void)
{
	char path[128];
	unsigned long long v = 0;
	FILE *f = NULL;

	if (!vcube_net_sysfs_root(vcube_env_net(), path, sizeof(path) - 8)) {
		strcat(path, "/max_msg");
		f = fopen(path, "r");
	}
	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v ? (size_t)v : 1 << 20;
}

/* @c's rank tables over @node[] (taken over), its collectives on @vc. */
static int comm_setup(struct vmpi_comm *c, unsigned int *node, int n,
		      int rank, struct vcube_comm *vc)
{
	int i;

	c->rank_of = malloc(vmpi.nnodes * sizeof(int));
	if (!c->rank_of)
		return MPI_ERR_NO_MEM;
	for (i = 0; i < (int)vmpi.nnodes; i++)
		c->rank_of[i] = -1;
	for (i = 0; i < n; i++)
		c->rank_of[node[i]] = i;
	c->node = node;
	c->rank = rank;
	c->size = n;
	c->vc = vc;
	return 0;
}

int vmpi_comm_make(unsigned int cid, unsigned int *node, int n, int rank,
		   MPI_Comm *out)
{
	struct vmpi_comm *c = calloc(1, sizeof(*c));
	struct vcube_comm *vc = NULL;
	int ret;

	if (!c) {
		free(node);
		return MPI_ERR_NO_MEM;
	}
	ret = vcube_comm_create_tp(&vmpi_transport, c, (unsigned int)rank,
				   (unsigned int)n, &vc);
	ret = ret ? vmpi_errclass(ret) : comm_setup(c, node, n, rank, vc);
	if (ret) {
		if (vc)
			vcube_comm_close(vc);
		free(c);
		free(node);
		return ret;
	}
	vc->node = vmpi.node;
	c->cid = cid;
	c->errh = MPI_ERRORS_ARE_FATAL;
	c->refs = 1;		/* the handle's; each pending request adds one */
	*out = c;
	return 0;
}

static void world_hook(struct vcube_comm *w);

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	struct vcube_comm *w;
	struct vcube_comm *s;
	unsigned int *wn, *sn, i;
	const char *e;
	int ret;

	(void)argc;
	(void)argv;
	if (vmpi.inited) {
		fprintf(stderr, "vcube-mpi: MPI_Init called twice\n");
		_exit(1);
	}
	ret = vcube_comm_open(&w);
	if (ret) {
		fprintf(stderr, "vcube-mpi: MPI_Init: no bound vcube node (%s): "
			"run the program under vcube-run -n N\n", vmpi_strerror(ret));
		_exit(1);
	}
	world_hook(w);
	vmpi.node = vcube_comm_node(w);
	vmpi.me = vcube_comm_rank(w);
	vmpi.nnodes = vcube_comm_info(w)->nodes;
	vmpi.hw = vcube_comm_info(w)->node;
	vmpi.max_msg = net_max_msg();
	vmpi.poll_ns = 1000;
	e = getenv("VCUBE_MPI_POLL_NS");
	if (e && *e)
		vmpi.poll_ns = strtoull(e, NULL, 10);
	e = getenv("VCUBE_MPI_VERBOSE");
	vmpi.verbose = e && *e && strcmp(e, "0");
	wn = malloc(vcube_comm_size(w) * sizeof(*wn));
	sn = malloc(sizeof(*sn));
	if (!wn || !sn) {
		fprintf(stderr, "vcube-mpi: MPI_Init: out of memory\n");
		_exit(1);
	}
	for (i = 0; i < vcube_comm_size(w); i++)
		wn[i] = i;
	sn[0] = vmpi.me;
	ret = vcube_comm_create_tp(&vmpi_transport, &vmpi_comm_self, 0, 1, &s);
	if (ret || comm_setup(&vmpi_comm_world, wn, (int)vcube_comm_size(w),
			      (int)vmpi.me, w) ||
	    comm_setup(&vmpi_comm_self, sn, 1, 0, s)) {
		fprintf(stderr, "vcube-mpi: MPI_Init: out of memory\n");
		_exit(1);
	}
	s->node = vmpi.node;
	vmpi_cid_init();
	vmpi.inited = 1;
	vmpi.init_tid = gettid();
	vmpi.provided = required < MPI_THREAD_FUNNELED ? MPI_THREAD_SINGLE :
			MPI_THREAD_FUNNELED;
	if (provided)
		*provided = vmpi.provided;
	return MPI_SUCCESS;
}

int MPI_Init(int *argc, char ***argv)
{
	return MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, NULL);
}

int MPI_Initialized(int *flag)
{
	*flag = vmpi.inited;
	return MPI_SUCCESS;
}

int MPI_Finalized(int *flag)
{
	*flag = vmpi.finalized;
	return MPI_SUCCESS;
}

/* The thread that called MPI_Init. */
int MPI_Is_thread_main(int *flag)
{
	NEED_INIT("MPI_Is_thread_main");
	*flag = gettid() == vmpi.init_tid;
	return MPI_SUCCESS;
}

int MPI_Query_thread(int *provided)
{
	*provided = vmpi.provided;
	return MPI_SUCCESS;
}

/*
 * Every rank leaves once all are in (as MPI_Finalize may), so no node
 * unbinds while a message to it is still on its way.
 */
int MPI_Finalize(void)
{
	size_t i;
	int ret;

	NEED_INIT("MPI_Finalize");
	/* MPI: as if MPI_COMM_SELF were freed first, then the world */
	ret = vmpi_attr_clear(VMPI_ATTR_COMM, MPI_COMM_SELF,
			      &vmpi_comm_self.attrs);
	if (!ret)
		ret = vmpi_attr_clear(VMPI_ATTR_COMM, MPI_COMM_WORLD,
				      &vmpi_comm_world.attrs);
	if (ret)
		return vmpi_error(MPI_COMM_WORLD, ret, "MPI_Finalize",
				  "an attribute's delete callback failed");
	vmpi_bsend_flush();
	for (i = 0; i < ndetached; i++)
		vcube_node_wait(vmpi.node, detached[i], NULL);
	ndetached = 0;
	ret = MPI_Barrier(MPI_COMM_WORLD);
	vmpi.finalized = 1;
	return ret;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
	const char *e;

	(void)comm;
	fprintf(stderr, "vcube-mpi: rank %u: MPI_Abort(%d)\n", vmpi.me,
		errorcode);
	fflush(NULL);
	/*
	 * Ask vcube-run (VCUBE_RUN_PID) to end every rank, as mpirun does;
	 * its status is then that of the first to go.
	 */
	e = getenv("VCUBE_RUN_PID");
	if (e && atoi(e) > 1) {
		signal(SIGTERM, SIG_IGN);	/* forwarded back to us */
		kill((pid_t)atoi(e), SIGTERM);
	}
	_exit(errorcode & 0xff ? errorcode & 0xff : 1);
}

int MPI_Get_processor_name(char *name, int *resultlen)
{
	/* the node the rank runs on (vcube-run --nodes may choose it) */
	int n = snprintf(name, MPI_MAX_PROCESSOR_NAME, "vcube%u", vmpi.hw);

	*resultlen = n;
	return MPI_SUCCESS;
}

int MPI_Get_version(int *version, int *subversion)
{
	*version = MPI_VERSION;
	*subversion = MPI_SUBVERSION;
	return MPI_SUCCESS;
}

int MPI_Get_library_version(char *version, int *resultlen)
{
	*resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
			      "vcube-mpi %s (a subset of MPI %d.%d over libvcube)",
			      VCUBE_VERSION, MPI_VERSION, MPI_SUBVERSION);
	return MPI_SUCCESS;
}

double MPI_Wtime(void)
{
	uint64_t ns = 0;

	NEED_INIT("MPI_Wtime");
	vcube_node_clock(vmpi.node, &ns);
	return (double)ns * 1e-9;
}

double MPI_Wtick(void)
{
	return 1e-9;
}

int MPI_Error_class(int code, int *cls)
{
	*cls = vmpi_code_class(code);
	if (*cls < 0) {
		*cls = MPI_ERR_UNKNOWN;
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class",
				  "code %d", code);
	}
	return MPI_SUCCESS;
}

int MPI_Error_string(int code, char *s, int *len)
{
	const char *m = code >= 0 && code <= MPI_ERR_LASTCODE ? errstr[code] :
			vmpi_code_string(code);

	if (!m)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string",
				  "code %d", code);

	*len = snprintf(s, MPI_MAX_ERROR_STRING, "%s", m);
	return MPI_SUCCESS;
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler h)
{
	if (vmpi_comm_check(comm))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_COMM,
				  "MPI_Comm_set_errhandler", "no communicator");
	if (!vmpi_errh_valid(h))
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Comm_set_errhandler",
				  "handler %d", h);
	vmpi_errh_get(h);
	vmpi_errh_put(comm->errh);
	comm->errh = h;
	return MPI_SUCCESS;
}

int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *h)
{
	if (vmpi_comm_check(comm))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_COMM,
				  "MPI_Comm_get_errhandler", "no communicator");
	*h = comm->errh;
	vmpi_errh_get(*h);	/* the caller's to free */
	return MPI_SUCCESS;
}

/* ---- communicators --------------------------------------------------------- */

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
	int ret = vmpi_enter(comm, "MPI_Comm_rank");

	if (ret)
		return ret;
	*rank = comm->rank;
	return MPI_SUCCESS;
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
	int ret = vmpi_enter(comm, "MPI_Comm_size");

	if (ret)
		return ret;
	*size = comm->local ? comm->local->size : comm->size;
	return MPI_SUCCESS;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	int ret;

	NEED_INIT("MPI_Comm_dup");
	if (vmpi_comm_check(comm) || !newcomm)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_dup",
				  "not a communicator");
	ret = comm->local ? vmpi_inter_dup(comm, newcomm) :
			    MPI_Comm_split(comm, 0, comm->rank, newcomm);
	if (ret)
		return comm->local ? vmpi_error(comm, ret, "MPI_Comm_dup",
						"cannot make the communicator") :
				     ret;
	ret = vmpi_comm_dup_rest(comm, *newcomm);
	if (ret) {
		vmpi_comm_put(*newcomm);
		*newcomm = MPI_COMM_NULL;
		return vmpi_error(comm, ret, "MPI_Comm_dup",
				  "copying the topology or an attribute");
	}
	return MPI_SUCCESS;
}

int vmpi_comm_dup_rest(MPI_Comm from, MPI_Comm to)
{
	int ret;

	if (to->errh != from->errh) {
		vmpi_errh_get(from->errh);
		vmpi_errh_put(to->errh);
		to->errh = from->errh;
	}
	if (vmpi_cart_copy(from, to))	/* MPI: dup keeps the topology */
		ret = MPI_ERR_NO_MEM;
	else			/* and the attributes its copy callbacks keep */
		ret = vmpi_attr_copy(VMPI_ATTR_COMM, from, from->attrs,
				     &to->attrs);
	if (ret)
		vmpi_attr_clear(VMPI_ATTR_COMM, to, &to->attrs);
	return ret;
}

struct split_key {
	int color, key, rank;
};

static int split_cmp(const void *a, const void *b)
{
	const struct split_key *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->rank - y->rank;
}

/* Every member's (color, key) by an allgather, then each its own group. */
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	struct split_key *all, mine = { color, key, 0 };
	unsigned int *node, cid;
	int i, n = 0, me = -1, ret;

	NEED_INIT("MPI_Comm_split");
	if (vmpi_comm_check(comm) || !newcomm)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_split",
				  "not a communicator");
	ret = vmpi_intra(comm, "MPI_Comm_split");
	if (ret)
		return ret;
	if (color < 0 && color != MPI_UNDEFINED)
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Comm_split",
				  "color %d", color);
	mine.rank = comm->rank;
	all = calloc((size_t)comm->size, sizeof(*all));
	if (!all)
		return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Comm_split",
				  "out of memory");
	ret = MPI_Allgather(&mine, 3, MPI_INT, all, 3, MPI_INT, comm);
	if (!ret)
		ret = vmpi_cid_agree(comm, &cid);
	if (ret) {
		free(all);
		return ret;
	}
	*newcomm = MPI_COMM_NULL;
	if (color == MPI_UNDEFINED) {
		free(all);
		vmpi_cid_release(cid);	/* not a member: not ours to hold */
		return MPI_SUCCESS;
	}
	for (i = 0; i < comm->size; i++)
		if (all[i].color == color)
			all[n++] = all[i];
	qsort(all, (size_t)n, sizeof(*all), split_cmp);
	node = malloc((size_t)n * sizeof(*node));
	if (!node) {
		free(all);
		return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Comm_split",
				  "out of memory");
	}
	for (i = 0; i < n; i++) {
		node[i] = comm->node[all[i].rank];
		if (all[i].rank == comm->rank)
			me = i;
	}
	free(all);
	ret = vmpi_comm_make(cid, node, n, me, newcomm);
	if (ret)
		vmpi_cid_release(cid);
	if (ret)
		return vmpi_error(comm, ret, "MPI_Comm_split",
				  "cannot make the communicator");
	(*newcomm)->errh = comm->errh;
	vmpi_errh_get(comm->errh);
	return MPI_SUCCESS;
}

int MPI_Comm_free(MPI_Comm *comm)
{
	MPI_Comm c;
	int ret;

	NEED_INIT("MPI_Comm_free");
	if (!comm || vmpi_comm_check(*comm) || (*comm)->builtin)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_free",
				  "not a communicator this program made");
	c = *comm;
	ret = vmpi_attr_clear(VMPI_ATTR_COMM, c, &c->attrs);
	if (ret)
		return vmpi_error(c, ret, "MPI_Comm_free",
				  "an attribute's delete callback failed");
	vmpi_comm_put(c);
	*comm = MPI_COMM_NULL;
	return MPI_SUCCESS;
}

/* A request lets go of its communicator: the last one frees a freed one. */
void vmpi_comm_put(MPI_Comm c)
{
	if (c->refs)
		c->refs--;
	if (c->builtin || c->refs)
		return;
	vmpi_errh_put(c->errh);
	if (c->local)
		vmpi_comm_put(c->local);
	if (!c->shared_cid)
		vmpi_cid_release(c->cid);
	vcube_comm_close(c->vc);
	free(c->node);
	free(c->rank_of);
	free(c->cart);
	vmpi_graph_free(c->graph);
	free(c);
}

/* ---- point to point -------------------------------------------------------- */

static unsigned int wire_tag(MPI_Comm c, int tag)
{
	return VMPI_P2P | c->cid << 16 | (unsigned int)tag;
}

/* Which messages a receive of (@src, @tag) on @c takes, on the wire. */
static void wire_want(MPI_Comm c, int src, int tag, unsigned int *wsrc,
		      unsigned int *wtag, unsigned int *flags)
{
	*wsrc = src == MPI_ANY_SOURCE ? VCUBE_ANY : c->node[src];
	*wtag = tag == MPI_ANY_TAG ? VMPI_P2P | c->cid << 16 : wire_tag(c, tag);
	*flags = tag == MPI_ANY_TAG ? VCUBE_RECV_TAGCLASS : 0;
}

/*
 * A split message. Its first piece is split_first_len() = max_msg - 3
 * bytes on the message's own tag: this header, then the data's first
 * bytes; the rest follows in pieces of max_msg bytes (the last shorter),
 * tagged
 *   0 0 ssssssssssssss pppppppppppppppp  stream s of the sender, piece p
 * which no receive of the program's takes (vmpi.h). A first piece is
 * known by its length (and its magic): so a message of exactly that odd
 * length is split too, where one of max_msg bytes, a size programs use,
 * goes whole. Each piece costs what a message costs on the network: a
 * library over a transport with a largest packet sends that way.
 */
#define VMPI_SPLIT_MAGIC	0x76637370U	/* "vcsp" */
#define VMPI_MAX_PIECES		65536U		/* p: 16 bits */

struct vmpi_split {
	uint32_t magic;
	uint32_t stream;		/* the sender's count, 14 bits */
	uint64_t total;			/* the message's bytes */
};

static unsigned int split_streams;

static size_t split_first_len(void)
{
	return vmpi.max_msg - 3;
}

/* The data a first piece carries. */
static size_t split_head(void)
{
	return split_first_len() - sizeof(struct vmpi_split);
}

/* Pieces of a message of @total bytes (0: it goes whole). */
static size_t split_npieces(size_t total)
{
	if ((total <= vmpi.max_msg && total != split_first_len()) ||
	    vmpi.max_msg <= 4 * sizeof(struct vmpi_split))
		return 0;
	return 1 + (total - split_head() + vmpi.max_msg - 1) / vmpi.max_msg;
}

static unsigned int piece_tag(unsigned int stream, unsigned int i)
{
	return (stream & 0x3fffU) << 16 | i;
}

/* Piece @i (>= 1) of a split message of @total bytes: offset and length. */
static size_t piece_at(size_t total, unsigned int i, size_t *len)
{
	size_t off = split_head() + (size_t)(i - 1) * vmpi.max_msg;

	*len = total - off < vmpi.max_msg ? total - off : vmpi.max_msg;
	return off;
}

/* Room in detached[] for @n more: 0 or -ENOMEM. */
static int detached_room(size_t n)
{
	size_t cap = detached_cap ? detached_cap : 16;
	uint64_t *d;

	if (ndetached + n <= detached_cap)
		return 0;
	while (cap < ndetached + n)
		cap *= 2;
	d = realloc(detached, cap * sizeof(*d));
	if (!d)
		return -ENOMEM;
	detached = d;
	detached_cap = cap;
	return 0;
}

/* Let go of the detached sends that are done by the node's clock. */
static void detached_reap(void)
{
	size_t i, k = 0;

	for (i = 0; i < ndetached; i++)
		if (vcube_node_test(vmpi.node, detached[i], NULL) != 1)
			detached[k++] = detached[i];
	ndetached = k;
}

/* The pieces after the first of split message @stream, as detached sends. */
static int split_rest(unsigned int dst, const void *buf, size_t bytes,
		      unsigned int stream)
{
	size_t n = split_npieces(bytes), len, off;
	unsigned int i;
	int ret = 0;

	detached_reap();
	if (detached_room(n - 1))
		return -ENOMEM;
	for (i = 1; !ret && i < n; i++) {
		off = piece_at(bytes, i, &len);
		ret = vcube_node_isend(vmpi.node, dst, piece_tag(stream, i),
				       (const char *)buf + off, len, 0,
				       &detached[ndetached]);
		if (!ret)
			ndetached++;
	}
	return ret;
}

/*
 * Send @bytes of @buf in pieces to @dst on @wtag: the first piece as the
 * message would go, blocking (@req NULL) or its request in *@req, and its
 * stream in *@stream. The rest go once the first has (split_rest()), as
 * detached sends (MPI_Request_free's): they may wait for receives the
 * receiver posts only once it has the first piece, when it is in a call of
 * MPI's, so a send waiting for them could wait for ever (MPI_Isend and
 * MPI_Irecv, then MPI_Waitall with the send first, on both sides); and
 * not before the first has gone, or they would take the receiver's system
 * buffer ahead of it (the iPSC/860's and the Delta's hold one megabyte).
 * The kernel has their bytes: the send's buffer is free once they went.
 */
static int split_send(unsigned int dst, unsigned int wtag, const void *buf,
		      size_t bytes, uint64_t *req, unsigned int *stream)
{
	struct vmpi_split h = { .magic = VMPI_SPLIT_MAGIC,
				.stream = split_streams++ & 0x3fffU,
				.total = bytes };
	unsigned char *first;
	int ret;

	first = malloc(split_first_len());
	if (!first)
		return -ENOMEM;
	memcpy(first, &h, sizeof(h));
	memcpy(first + sizeof(h), buf, split_head());
	*stream = h.stream;
	ret = req ? vcube_node_isend(vmpi.node, dst, wtag, first,
				     split_first_len(), 0, req) :
		    vcube_node_send(vmpi.node, dst, wtag, first,
				    split_first_len(), 0, NULL);
	free(first);		/* the kernel copied it */
	if (!ret && !req)
		ret = split_rest(dst, buf, bytes, h.stream);
	return ret;
}

/*
 * Was the message received into @buf (@len bytes long, @cap of them kept)
 * a split one's first piece? Its header in *@h.
 */
static bool split_first(const void *buf, size_t len, size_t cap,
			struct vmpi_split *h)
{
	if (len != split_first_len() || !split_npieces(len) || cap < sizeof(*h))
		return false;
	memcpy(h, buf, sizeof(*h));
	return h->magic == VMPI_SPLIT_MAGIC && split_npieces(h->total) &&
	       split_npieces(h->total) <= VMPI_MAX_PIECES;
}

/*
 * The first piece of split message @h from node @src is in @buf (@cap
 * bytes): the data goes to the front, and the rest's receives are posted
 * into @buf, their requests in @reqs[split_npieces() - 1]. A message
 * longer than @cap: its pieces are received and dropped, and -EMSGSIZE.
 */
static int split_recv(unsigned int src, const struct vmpi_split *h, void *buf,
		      size_t cap, uint64_t *reqs)
{
	size_t n = split_npieces(h->total), len, off;
	unsigned char *junk;
	unsigned int i;
	int ret = 0;

	if (h->total > cap) {
		junk = malloc(vmpi.max_msg);
		if (!junk)
			return -ENOMEM;
		for (i = 1; !ret && i < n; i++) {
			piece_at(h->total, i, &len);
			ret = vcube_node_recv(vmpi.node, src,
					      piece_tag(h->stream, i), junk,
					      len, NULL);
		}
		free(junk);
		return ret ? ret : -EMSGSIZE;
	}
	memmove(buf, (char *)buf + sizeof(*h), split_head());
	for (i = 1; !ret && i < n; i++) {
		off = piece_at(h->total, i, &len);
		ret = vcube_node_irecv(vmpi.node, src, piece_tag(h->stream, i),
				       (char *)buf + off, len, &reqs[i - 1]);
	}
	return ret;
}

static int split_finish(void *buf, size_t cap, struct vcube_status *vs,
			int ret);

static void fill_status(MPI_Comm c, MPI_Status *st, unsigned int src,
			unsigned int tag, size_t len, int err)
{
	if (!st)
		return;
	st->MPI_SOURCE = src < vmpi.nnodes ? c->rank_of[src] : MPI_ANY_SOURCE;
	st->MPI_TAG = (int)(tag & 0xffff);
	st->MPI_ERROR = err;
	st->vmpi_cancelled = 0;
	st->vmpi_bytes = len;
}

static void null_status(MPI_Status *st)
{
	if (!st)
		return;
	st->MPI_SOURCE = MPI_PROC_NULL;
	st->MPI_TAG = MPI_ANY_TAG;
	st->MPI_ERROR = MPI_SUCCESS;
	st->vmpi_cancelled = 0;
	st->vmpi_bytes = 0;
}

int vmpi_enter(MPI_Comm comm, const char *call)
{
	NEED_INIT(call);
	if (vmpi_comm_check(comm))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_COMM, call,
				  "not a communicator");
	return 0;
}

/* @count elements of @type in @buf: their bytes in *@bytes, or the error. */
static int count_check(MPI_Comm comm, const char *call, const void *buf,
		       int count, MPI_Datatype type, size_t *bytes)
{
	if (count < 0)
		return vmpi_error(comm, MPI_ERR_COUNT, call, "count %d", count);
	if (vmpi_type_check(type))
		return vmpi_error(comm, MPI_ERR_TYPE, call,
				  "not a committed datatype");
	*bytes = (size_t)count * type->size;
	if (*bytes && !buf)
		return vmpi_error(comm, MPI_ERR_BUFFER, call, "NULL buffer");
	return 0;
}

int vmpi_count_check(MPI_Comm comm, const char *call, const void *buf,
		     int count, MPI_Datatype type, size_t *bytes)
{
	int ret = count_check(comm, call, buf, count, type, bytes);

	if (!ret && !vmpi_type_contig(type))
		return vmpi_error(comm, MPI_ERR_TYPE, call,
				  "a non-contiguous datatype: the collectives take contiguous ones only");
	if (!ret && *bytes > vmpi.max_msg)
		return vmpi_error(comm, MPI_ERR_COUNT, call,
				  "%zu bytes: past the network's max_msg (%zu)",
				  *bytes, vmpi.max_msg);
	return ret;
}

/*
 * A point-to-point buffer: any length a split message carries (at most
 * VMPI_MAX_PIECES pieces of max_msg bytes).
 */
static int check_buf(MPI_Comm comm, const char *call, const void *buf,
		     int count, MPI_Datatype type, size_t *bytes)
{
	int ret = vmpi_enter(comm, call);

	if (!ret)
		ret = count_check(comm, call, buf, count, type, bytes);
	if (ret)
		return ret;
	if (*bytes > vmpi.max_msg && (!split_npieces(*bytes) ||
				      split_npieces(*bytes) > VMPI_MAX_PIECES))
		return vmpi_error(comm, MPI_ERR_COUNT, call,
				  "%zu bytes: more than %u pieces of the network's max_msg (%zu)",
				  *bytes, VMPI_MAX_PIECES, vmpi.max_msg);
	return 0;
}

static int check_peer(MPI_Comm comm, const char *call, int rank, bool any)
{
	if (rank == MPI_PROC_NULL || (any && rank == MPI_ANY_SOURCE))
		return 0;
	if (rank < 0 || rank >= comm->size)
		return vmpi_error(comm, MPI_ERR_RANK, call,
				  "rank %d of %d", rank, comm->size);
	return 0;
}

static int check_tag(MPI_Comm comm, const char *call, int tag, bool any)
{
	if ((any && tag == MPI_ANY_TAG) || (tag >= 0 && tag <= VMPI_TAG_UB))
		return 0;
	return vmpi_error(comm, MPI_ERR_TAG, call, "tag %d (0 .. %d)", tag,
			  VMPI_TAG_UB);
}

/* The first kept message a receive of (@wsrc, @wtag, @flags) takes. */
static struct vmpi_kept **kept_find(unsigned int wsrc, unsigned int wtag,
				    unsigned int flags)
{
	struct vmpi_kept **k;

	for (k = &kept; *k; k = &(*k)->next) {
		if (wsrc != VCUBE_ANY && (*k)->src != wsrc)
			continue;
		if (flags & VCUBE_RECV_TAGCLASS ?
		    ((*k)->tag & VCUBE_TAG_CLASS_MASK) == wtag :
		    (*k)->tag == wtag)
			return k;
	}
	return NULL;
}

/* The kept message *@k, out of the list. */
static struct vmpi_kept *kept_unlink(struct vmpi_kept **k)
{
	struct vmpi_kept *m = *k;

	*k = m->next;
	if (!*k && kept_tail == &m->next)
		kept_tail = k;
	if (!kept)
		kept_tail = &kept;
	return m;
}

static int kept_take(MPI_Comm c, struct vmpi_kept **k, void *buf, size_t cap,
		     MPI_Status *st)
{
	struct vmpi_kept *m = kept_unlink(k);
	size_t n = m->len < cap ? m->len : cap;
	int err = m->len > cap ? MPI_ERR_TRUNCATE : 0;

	memcpy(buf, m->data, n);
	fill_status(c, st, m->src, m->tag, n, err);
	free(m);
	return err;
}

static int do_send(const char *call, const void *buf, int count,
		   MPI_Datatype type, int dest, int tag, MPI_Comm comm,
		   MPI_Request *request);

/* Collectives pending: a blocking send as a request, waited as MPI_Wait. */
static int send_waited(const char *call, const void *buf, int count,
		       MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	MPI_Request r;
	int ret = do_send(call, buf, count, type, dest, tag, comm, &r);

	return ret ?: MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static int do_send(const char *call, const void *buf, int count,
		   MPI_Datatype type, int dest, int tag, MPI_Comm comm,
		   MPI_Request *request)
{
	size_t bytes, npieces;
	unsigned int stream;
	uint64_t req;
	int ret;

	if (!request && vmpi_icoll_busy())
		return send_waited(call, buf, count, type, dest, tag, comm);
	ret = check_buf(comm, call, buf, count, type, &bytes);
	if (ret)
		return ret;
	if (!vmpi_type_contig(type)) {	/* packed, then sent as bytes */
		void *tmp;

		ret = pack_room(comm, call, bytes, &tmp);
		if (ret)
			return ret;
		vmpi_pack(type, count, buf, tmp);	/* the node copies */
		if (bytes)
			vcube_node_copy(vmpi.node, bytes, NULL);
		ret = do_send(call, tmp, (int)bytes, MPI_BYTE, dest, tag, comm,
			      request);
		free(tmp);		/* the kernel copied it */
		return ret;
	}
	npieces = split_npieces(bytes);
	ret = check_peer(comm, call, dest, false);
	if (ret)
		return ret;
	ret = check_tag(comm, call, tag, false);
	if (ret)
		return ret;
	if (request) {
		*request = calloc(1, sizeof(**request));
		if (!*request)
			return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
		(*request)->comm = comm;
		if (dest == MPI_PROC_NULL) {
			(*request)->kind = RQ_DONE;
			null_status(&(*request)->st);
			comm->refs++;
			return MPI_SUCCESS;
		}
		ret = npieces ? split_send(comm->node[dest], wire_tag(comm, tag),
					   buf, bytes, &req, &stream) :
		      vcube_node_isend(vmpi.node, comm->node[dest],
				       wire_tag(comm, tag), buf, bytes, 0, &req);
		if (!ret && npieces) {
			(*request)->sbuf = buf;
			(*request)->sbytes = bytes;
			(*request)->sdst = comm->node[dest];
			(*request)->sstream = stream;
		}
		if (ret) {
			req_free(*request);
			*request = MPI_REQUEST_NULL;
		} else {
			(*request)->kind = RQ_SEND;
			(*request)->req = req;
			comm->refs++;
		}
	} else {
		if (dest == MPI_PROC_NULL)
			return MPI_SUCCESS;
		ret = npieces ? split_send(comm->node[dest], wire_tag(comm, tag),
					   buf, bytes, NULL, &stream) :
		      vcube_node_send(vmpi.node, comm->node[dest],
				      wire_tag(comm, tag), buf, bytes, 0, NULL);
	}
	if (ret)
		return vmpi_error(comm, vmpi_errclass(ret), call, "to rank %d: %s",
				  dest, vmpi_strerror(ret));
	return MPI_SUCCESS;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	     MPI_Comm comm)
{
	return do_send("MPI_Send", buf, count, type, dest, tag, comm, NULL);
}

/*
 * The network's own protocol decides when a send returns (the iPSC's
 * UNFORCED handshake for long messages, the CM-5's synchronous sends); a
 * synchronous or ready send is the same message.
 */
int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	      MPI_Comm comm)
{
	return do_send("MPI_Ssend", buf, count, type, dest, tag, comm, NULL);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	      MPI_Comm comm)
{
	return do_send("MPI_Rsend", buf, count, type, dest, tag, comm, NULL);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag,
	      MPI_Comm comm, MPI_Request *request)
{
	if (!request)
		return vmpi_error(comm, MPI_ERR_REQUEST, "MPI_Isend", "no request");
	return do_send("MPI_Isend", buf, count, type, dest, tag, comm, request);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	if (!request)
		return vmpi_error(comm, MPI_ERR_REQUEST, "MPI_Issend", "no request");
	return do_send("MPI_Issend", buf, count, type, dest, tag, comm, request);
}

/* A ready send is a standard one: the kernel needs no receive posted. */
int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest,
	       int tag, MPI_Comm comm, MPI_Request *request)
{
	if (!request)
		return vmpi_error(comm, MPI_ERR_REQUEST, "MPI_Irsend", "no request");
	return do_send("MPI_Irsend", buf, count, type, dest, tag, comm, request);
}

static int recv_check(const char *call, void *buf, int count,
		      MPI_Datatype type, int src, int tag, MPI_Comm comm,
		      size_t *bytes)
{
	int ret;

	ret = check_buf(comm, call, buf, count, type, bytes);
	if (!ret)
		ret = check_peer(comm, call, src, true);
	if (!ret)
		ret = check_tag(comm, call, tag, true);
	return ret;
}

static int recv_done(MPI_Comm comm, const char *call,
		     const struct vcube_status *vs, int ret, MPI_Status *st)
{
	int err = ret == -EMSGSIZE ? MPI_ERR_TRUNCATE : 0;

	if (ret && ret != -EMSGSIZE)
		return vmpi_error(comm, vmpi_errclass(ret), call, "%s",
				  vmpi_strerror(ret));
	fill_status(comm, st, vs->src, vs->tag,
		    err ? 0 : (size_t)vs->len, err);
	return err ? vmpi_error(comm, err, call, "a message of %llu bytes",
				(unsigned long long)vs->len) : MPI_SUCCESS;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag,
	     MPI_Comm comm, MPI_Status *status)
{
	unsigned int wsrc, wtag, flags;
	struct vcube_status vs;
	struct vmpi_kept **k;
	uint64_t req;
	size_t cap, full;
	int ret;

	ret = recv_check("MPI_Recv", buf, count, type, src, tag, comm, &cap);
	if (ret)
		return ret;
	if (vmpi_icoll_busy()) {
		/* collectives pending: a request, waited for as MPI_Wait does */
		MPI_Request r;

		ret = MPI_Irecv(buf, count, type, src, tag, comm, &r);
		return ret ?: MPI_Wait(&r, status);
	}
	if (!vmpi_type_contig(type) && src != MPI_PROC_NULL) {
		MPI_Status st;
		void *tmp;

		ret = pack_room(comm, "MPI_Recv", cap, &tmp);
		if (ret)
			return ret;
		ret = MPI_Recv(tmp, (int)cap, MPI_BYTE, src, tag, comm, &st);
		unpack_in(type, count, tmp, st.vmpi_bytes, buf);
		if (status)
			*status = st;
		return ret;
	}
	full = cap;
	if (src == MPI_PROC_NULL) {
		null_status(status);
		return MPI_SUCCESS;
	}
	wire_want(comm, src, tag, &wsrc, &wtag, &flags);
	k = kept_find(wsrc, wtag, flags);
	if (k) {
		ret = kept_take(comm, k, buf, cap, status);
		return ret ? vmpi_error(comm, ret, "MPI_Recv", "truncated") : 0;
	}
	cap = cap < vmpi.max_msg ? cap : vmpi.max_msg;	/* the first piece */
	if (!flags) {
		ret = vcube_node_recv(vmpi.node, wsrc, wtag, buf, cap, &vs);
	} else {
		ret = vcube_node_irecv_flags(vmpi.node, wsrc, wtag, flags, buf,
					     cap, &req);
		if (!ret)
			ret = vcube_node_wait(vmpi.node, req, &vs);
	}
	ret = split_finish(buf, full, &vs, ret);
	return recv_done(comm, "MPI_Recv", &vs, ret, status);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag,
	      MPI_Comm comm, MPI_Request *request)
{
	unsigned int wsrc, wtag, flags;
	struct vmpi_request *r;
	struct vmpi_kept **k;
	size_t cap;
	int ret;

	ret = recv_check("MPI_Irecv", buf, count, type, src, tag, comm, &cap);
	if (ret)
		return ret;
	if (!request)
		return vmpi_error(comm, MPI_ERR_REQUEST, "MPI_Irecv", "no request");
	if (!vmpi_type_contig(type) && src != MPI_PROC_NULL) {
		void *tmp;

		ret = pack_room(comm, "MPI_Irecv", cap, &tmp);
		if (ret)
			return ret;
		ret = MPI_Irecv(tmp, (int)cap, MPI_BYTE, src, tag, comm, request);
		if (ret) {
			free(tmp);
			return ret;
		}
		(*request)->ubuf = buf;
		(*request)->utype = type;
		(*request)->ucount = count;
		vmpi_type_get(type);
		if ((*request)->kind == RQ_DONE)	/* a kept message */
			req_unpack(*request);
		return MPI_SUCCESS;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return vmpi_error(comm, MPI_ERR_NO_MEM, "MPI_Irecv",
				  "out of memory");
	r->comm = comm;
	r->buf = buf;
	r->cap = cap;
	*request = r;
	comm->refs++;
	if (src == MPI_PROC_NULL) {
		r->kind = RQ_DONE;
		null_status(&r->st);
		return MPI_SUCCESS;
	}
	wire_want(comm, src, tag, &wsrc, &wtag, &flags);
	k = kept_find(wsrc, wtag, flags);
	if (k) {
		r->kind = RQ_DONE;
		kept_take(comm, k, buf, cap, &r->st);
		return MPI_SUCCESS;
	}
	ret = vcube_node_irecv_flags(vmpi.node, wsrc, wtag, flags, buf,
				     cap < vmpi.max_msg ? cap : vmpi.max_msg,
				     &r->req);
	if (ret) {
		req_free(r);
		*request = MPI_REQUEST_NULL;
		vmpi_comm_put(comm);
		return vmpi_error(comm, vmpi_errclass(ret), "MPI_Irecv", "%s",
				  vmpi_strerror(ret));
	}
	r->kind = RQ_RECV;
	pend_add(r);
	return MPI_SUCCESS;
}

/*
 * A receive's first message came (@ret, *@vs): if it is a split message's
 * first piece, post the rest's receives and make @r an RQ_PIECES.
 */
static void recv_first(struct vmpi_request *r, struct vcube_status *vs,
		       int ret)
{
	struct vmpi_split h;
	size_t got = vs->len < r->cap ? vs->len : r->cap;

	if ((ret && ret != -EMSGSIZE) || !split_first(r->buf, vs->len, got, &h))
		return;
	r->src = vs->src;
	r->tag = vs->tag;
	r->total = h.total;
	r->npieces = split_npieces(h.total) - 1;
	r->next = 0;
	r->pieces = calloc(r->npieces, sizeof(*r->pieces));
	r->err = r->pieces ? split_recv(vs->src, &h, r->buf, r->cap, r->pieces) :
		 -ENOMEM;
	if (r->err)
		r->npieces = 0;		/* nothing left to wait for */
	r->kind = RQ_PIECES;
}

static int status_err(int ret)
{
	if (ret && ret != -EMSGSIZE)
		return vmpi_errclass(ret);
	return ret ? MPI_ERR_TRUNCATE : 0;
}

/*
 * A pending receive's first message came (@ret, *@vs): a split message's
 * rest posted (@r an RQ_PIECES), or @r done.
 */
static void recv_got(struct vmpi_request *r, struct vcube_status *vs, int ret)
{
	int err;

	pend_del(r);
	r->why = ret;
	recv_first(r, vs, ret);
	if (r->kind != RQ_RECV)
		return;
	err = status_err(ret);
	fill_status(r->comm, &r->st, vs->src, vs->tag, ret ? 0 : (size_t)vs->len,
		    err);
	r->kind = RQ_DONE;
	req_unpack(r);
}

/*
 * Before a blocking wait for a split message's pieces: every pending
 * receive whose message is in by the node's clock is taken, in posting
 * order, a split one's rest posted. A sender's pieces go in order, so
 * those of a message a receive took earlier, not yet posted for, could
 * fill the receiver's system buffer and hold back the pieces waited for
 * (MPI_Irecv A, MPI_Irecv B, MPI_Wait B, of two long messages).
 */
static void recvs_progress(void)
{
	struct vmpi_request *r, *next;
	struct vcube_status vs;
	int ret;

	for (r = pending; r; r = next) {
		next = r->pnext;
		ret = vcube_node_test(vmpi.node, r->req, &vs);
		if (ret == 0)
			continue;
		recv_got(r, &vs, ret == 1 ? 0 : ret);
	}
}

/*
 * Wait for (or test, @test) the rest of RQ_PIECES @r's pieces: 1 all done,
 * the first error in r->err. Before a blocking wait, pending receives are
 * progressed (recvs_progress()).
 */
static int pieces_settle(struct vmpi_request *r, bool test)
{
	int ret;

	if (!test)
		recvs_progress();
	for (; r->next < r->npieces; r->next++) {
		ret = test ? vcube_node_test(vmpi.node, r->pieces[r->next], NULL) :
			     vcube_node_wait(vmpi.node, r->pieces[r->next], NULL);
		if (test && ret == 0) {
			vcube_node_delay(vmpi.node, vmpi.poll_ns);
			return 0;
		}
		if (ret < 0 && !r->err)
			r->err = ret;
	}
	return 1;
}

/*
 * A blocking receive's message, in @buf (@cap bytes) as *@vs says: if it
 * was a split one's first piece, the rest (as a request's, recv_first()),
 * and *@vs its whole length.
 */
static int split_finish(void *buf, size_t cap, struct vcube_status *vs,
			int ret)
{
	struct vmpi_request r = { .kind = RQ_RECV, .buf = buf, .cap = cap };

	recv_first(&r, vs, ret);
	if (r.kind != RQ_PIECES)
		return ret;
	pieces_settle(&r, false);
	free(r.pieces);
	vs->len = r.total;
	return r.err;
}

static void empty_status(MPI_Status *st)
{
	null_status(st);
	if (st)
		st->MPI_SOURCE = MPI_ANY_SOURCE;
}

int vmpi_req_coll(MPI_Comm comm, struct vmpi_icoll *ic, MPI_Request *req)
{
	struct vmpi_request *r = calloc(1, sizeof(*r));

	if (!r)
		return vmpi_error(comm, MPI_ERR_NO_MEM, "a nonblocking collective",
				  "out of memory");
	r->kind = RQ_COLL;
	r->comm = comm;
	r->coll = ic;
	comm->refs++;
	*req = r;
	return MPI_SUCCESS;
}

/*
 * A generalised request's @r: done once the program completed it (a
 * wait before then could only wait forever: -EDEADLK, as an error).
 */
static int greq_settle(struct vmpi_request *r, bool test)
{
	if (vmpi_greq_settle(r->greq, &r->st)) {
		r->kind = RQ_DONE;
		return 1;
	}
	if (test) {
		vcube_node_delay(vmpi.node, vmpi.poll_ns);
		return 0;
	}
	empty_status(&r->st);
	r->why = -EDEADLK;
	r->st.MPI_ERROR = MPI_ERR_REQUEST;
	r->kind = RQ_DONE;
	return 1;
}

/* A nonblocking collective's @r, as req_settle() settles it. */
static int coll_settle(struct vmpi_request *r, bool test)
{
	int ret = vmpi_icoll_progress(r->coll, !test);

	if (!ret) {
		vmpi_icoll_pause();
		return 0;
	}
	empty_status(&r->st);
	r->why = ret < 0 ? ret : 0;
	r->st.MPI_ERROR = ret < 0 ? vmpi_errclass(ret) : 0;
	vmpi_icoll_free(r->coll);
	r->coll = NULL;
	r->kind = RQ_DONE;
	return 1;
}

/*
 * Complete @r (blocking, or a test when @test): 1 done, its status in
 * r->st and r an RQ_DONE; 0 not yet (a test: the node polled).
 */
static int req_settle(struct vmpi_request *r, bool test)
{
	struct vcube_status vs;
	int ret, err;

	if (r->kind == RQ_DONE)
		return 1;
	if (r->kind == RQ_COLL)
		return coll_settle(r, test);
	if (r->kind == RQ_GREQ)
		return greq_settle(r, test);
	if (r->kind == RQ_PERSIST) {	/* the request it started */
		if (!req_settle(r->inner, test))
			return 0;
		r->st = r->inner->st;
		r->why = r->inner->why;
		vmpi_comm_put(r->inner->comm);
		req_free(r->inner);
		r->inner = NULL;
		r->kind = RQ_DONE;
		return 1;
	}
	if (!test && vmpi_icoll_busy()) {
		/* collectives pending: test, and move them, until done */
		while (!req_settle(r, true))
			vmpi_icoll_poll();
		return 1;
	}
	if (r->kind == RQ_RECV || r->kind == RQ_SEND) {
		if (test) {
			ret = vcube_node_test(vmpi.node, r->req, &vs);
			if (ret == 0) {
				vcube_node_delay(vmpi.node, vmpi.poll_ns);
				return 0;
			}
			if (ret == 1)
				ret = 0;
		} else {
			ret = vcube_node_wait(vmpi.node, r->req, &vs);
		}
		if (r->kind == RQ_RECV) {
			recv_got(r, &vs, ret);
			if (r->kind == RQ_DONE)
				return 1;
		} else {
			if (!ret && r->sbuf)
				ret = split_rest(r->sdst, r->sbuf, r->sbytes,
						 r->sstream);
			r->sbuf = NULL;
			null_status(&r->st);
			r->st.MPI_SOURCE = MPI_ANY_SOURCE;
			r->st.MPI_ERROR = status_err(ret);
			r->why = ret;
		}
	}
	if (r->kind == RQ_PIECES) {
		if (!pieces_settle(r, test))
			return 0;
		err = status_err(r->err);
		r->why = r->err;
		fill_status(r->comm, &r->st, r->src, r->tag,
			    err ? 0 : r->total, err);
	}
	r->kind = RQ_DONE;
	req_unpack(r);
	return 1;
}

/*
 * A completed @*rp let go: freed and MPI_REQUEST_NULL, or a persistent
 * one inactive, its status empty.
 */
static void req_retire(MPI_Request *rp)
{
	struct vmpi_request *r = *rp;
	MPI_Comm c = r->comm;

	if (r->persist) {
		empty_status(&r->st);
		r->why = 0;
		r->active = false;
		return;
	}
	req_free(r);
	*rp = MPI_REQUEST_NULL;
	vmpi_comm_put(c);
}

/* Hand @*rp's status out and free it; its error, through its handler. */
static int req_release(MPI_Request *rp, MPI_Status *st, const char *call)
{
	struct vmpi_request *r = *rp;
	MPI_Comm c = r->comm;
	int err = r->st.MPI_ERROR, ret = MPI_SUCCESS;

	if (st)
		*st = r->st;
	if (err)
		ret = vmpi_error(c, err, call, "%s%s", err == MPI_ERR_TRUNCATE ?
				 "a message longer than the receive's buffer" :
				 "the request failed: ", err == MPI_ERR_TRUNCATE ||
				 !r->why ? "" : vmpi_strerror(r->why));
	req_retire(rp);
	return ret;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
	NEED_INIT("MPI_Wait");
	if (!request)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Wait",
				  "no request");
	if (!*request) {
		empty_status(status);
		return MPI_SUCCESS;
	}
	req_settle(*request, false);
	return req_release(request, status, "MPI_Wait");
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
	NEED_INIT("MPI_Test");
	if (!request || !flag)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Test",
				  "no request");
	*flag = 1;
	if (!*request) {
		empty_status(status);
		return MPI_SUCCESS;
	}
	if (!req_settle(*request, true)) {
		*flag = 0;
		return MPI_SUCCESS;
	}
	return req_release(request, status, "MPI_Test");
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
	int i, err = MPI_SUCCESS;

	NEED_INIT("MPI_Waitall");
	for (i = 0; i < count; i++)
		if (requests[i])
			req_settle(requests[i], false);
	for (i = 0; i < count; i++) {
		MPI_Status *st = statuses ? &statuses[i] : NULL;

		if (!requests[i])
			empty_status(st);
		else if (requests[i]->st.MPI_ERROR)
			err = MPI_ERR_IN_STATUS;
	}
	for (i = 0; i < count; i++) {
		MPI_Status tmp, *st = statuses ? &statuses[i] : &tmp;

		if (!requests[i])
			continue;
		if (requests[i]->st.MPI_ERROR) {	/* reported once, below */
			*st = requests[i]->st;
			req_retire(&requests[i]);
			continue;
		}
		req_release(&requests[i], st, "MPI_Waitall");
	}
	return err ? vmpi_error(MPI_COMM_WORLD, err, "MPI_Waitall",
				"a request failed (see its status)") : err;
}

/* MPI_REQUEST_NULL, or an inactive persistent request: nothing to wait for. */
static bool req_null(MPI_Request r)
{
	return !r || (r->persist && !r->active);
}

/* The first done, testing each in turn (each miss costs a poll). */
int MPI_Waitany(int count, MPI_Request requests[], int *index,
		MPI_Status *status)
{
	int i, live;

	NEED_INIT("MPI_Waitany");
	for (;;) {
		live = 0;
		for (i = 0; i < count; i++) {
			if (req_null(requests[i]))
				continue;
			live = 1;
			if (requests[i]->kind == RQ_DONE ||
			    req_settle(requests[i], true)) {
				*index = i;
				return req_release(&requests[i], status,
						   "MPI_Waitany");
			}
		}
		if (!live) {
			*index = MPI_UNDEFINED;
			empty_status(status);
			return MPI_SUCCESS;
		}
	}
}

/* The first done, if one is (a single pass: each miss costs a poll). */
int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag,
		MPI_Status *status)
{
	int i, live = 0;

	NEED_INIT("MPI_Testany");
	if (count < 0 || (count && !requests) || !index || !flag)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Testany",
				  "count %d, or no requests, index or flag",
				  count);
	*flag = 0;
	*index = MPI_UNDEFINED;
	for (i = 0; i < count; i++) {
		if (req_null(requests[i]))
			continue;
		live = 1;
		if (req_settle(requests[i], true)) {
			*flag = 1;
			*index = i;
			return req_release(&requests[i], status, "MPI_Testany");
		}
	}
	if (!live) {
		*flag = 1;
		empty_status(status);
	}
	return MPI_SUCCESS;
}

/*
 * Every one done in a pass, released, into @indices and @statuses; a
 * wait (@wait) passes again until one is. No active request: *@outcount
 * is MPI_UNDEFINED.
 */
static int some(const char *call, bool wait, int count, MPI_Request requests[],
		int *outcount, int indices[], MPI_Status statuses[])
{
	int i, live, n, err = MPI_SUCCESS, ret;

	NEED_INIT(call);
	if (count < 0 || (count && (!requests || !indices)) || !outcount)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
				  "count %d, or no requests, indices or outcount",
				  count);
	do {
		live = n = 0;
		for (i = 0; i < count; i++) {
			if (req_null(requests[i]))
				continue;
			live = 1;
			if (!req_settle(requests[i], true))
				continue;
			ret = req_release(&requests[i], statuses ?
					  &statuses[n] : NULL, call);
			if (ret)
				err = MPI_ERR_IN_STATUS;
			indices[n++] = i;
		}
	} while (wait && live && !n);
	*outcount = live ? n : MPI_UNDEFINED;
	return err;
}

int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount,
		 int indices[], MPI_Status statuses[])
{
	return some("MPI_Waitsome", true, incount, requests, outcount, indices,
		    statuses);
}

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount,
		 int indices[], MPI_Status statuses[])
{
	return some("MPI_Testsome", false, incount, requests, outcount,
		    indices, statuses);
}

/*
 * A receive not yet matched is taken back from the kernel
 * (VCUBE_IOC_CANCEL): its request completes, cancelled. A receive already
 * matched, a send (the kernel has its bytes) and a collective complete
 * as they would have, not cancelled.
 */
int MPI_Cancel(MPI_Request *request)
{
	struct vcube_status vs;
	struct vmpi_request *r;
	int ret;

	NEED_INIT("MPI_Cancel");
	if (!request || !*request)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Cancel",
				  "no request");
	r = *request;
	if (r->kind == RQ_PERSIST)
		r = r->inner;
	if (r->kind == RQ_COLL)
		return vmpi_error(r->comm, MPI_ERR_REQUEST, "MPI_Cancel",
				  "of a nonblocking collective");
	if (r->greq) {
		vmpi_greq_cancel(r->greq);
		return MPI_SUCCESS;
	}
	if (r->kind != RQ_RECV)
		return MPI_SUCCESS;
	/* as a probe: what came by the node's clock is taken, not cancelled */
	ret = vcube_node_test(vmpi.node, r->req, &vs);
	if (ret) {
		recv_got(r, &vs, ret == 1 ? 0 : ret);
		return MPI_SUCCESS;
	}
	if (vcube_node_cancel(vmpi.node, r->req))
		return MPI_SUCCESS;
	pend_del(r);
	null_status(&r->st);
	r->st.MPI_SOURCE = MPI_ANY_SOURCE;
	r->st.vmpi_cancelled = 1;
	if (r->ubuf) {			/* a non-contiguous type's: nothing came */
		free(r->buf);
		vmpi_type_put(r->utype);
		r->ubuf = NULL;
		r->buf = NULL;
	}
	r->kind = RQ_DONE;
	return MPI_SUCCESS;
}

int MPI_Test_cancelled(const MPI_Status *status, int *flag)
{
	if (!status || !flag)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Test_cancelled", "no status or flag");
	*flag = status->vmpi_cancelled;
	return MPI_SUCCESS;
}

int MPI_Status_set_cancelled(MPI_Status *status, int flag)
{
	if (!status)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Status_set_cancelled", "no status");
	status->vmpi_cancelled = !!flag;
	return MPI_SUCCESS;
}

/* MPI_Test that leaves the request as it is, done or not. */
int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
	NEED_INIT("MPI_Request_get_status");
	if (!flag)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Request_get_status", "no flag");
	*flag = 1;
	if (!request) {
		empty_status(status);
		return MPI_SUCCESS;
	}
	if (!req_settle(request, true)) {
		*flag = 0;
		return MPI_SUCCESS;
	}
	if (status)
		*status = request->st;
	return MPI_SUCCESS;
}

/* Done when all are: then each is released; else none is touched. */
int MPI_Testall(int count, MPI_Request requests[], int *flag,
		MPI_Status statuses[])
{
	int i;

	NEED_INIT("MPI_Testall");
	*flag = 1;
	for (i = 0; i < count; i++)
		if (requests[i] && !req_settle(requests[i], true))
			*flag = 0;
	if (!*flag)
		return MPI_SUCCESS;
	return MPI_Waitall(count, requests, statuses);
}

/*
 * A send's request may go: the send completes on its own, and
 * MPI_Finalize waits for it. A receive's may not: it would take a message.
 */
int MPI_Request_free(MPI_Request *request)
{
	struct vmpi_request *r;

	NEED_INIT("MPI_Request_free");
	if (!request || !*request)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
				  "MPI_Request_free", "no request");
	r = *request;
	if (r->persist && r->kind == RQ_PERSIST) {
		/* an active one: what it started goes on alone */
		int ret = MPI_Request_free(&r->inner);

		if (ret)
			return ret;
	}
	if (r->kind == RQ_COLL)
		return vmpi_error(r->comm, MPI_ERR_REQUEST, "MPI_Request_free",
				  "of a nonblocking collective not yet complete");
	if (r->kind == RQ_RECV || r->kind == RQ_PIECES)
		return vmpi_error(r->comm, MPI_ERR_UNSUPPORTED_OPERATION,
				  "MPI_Request_free",
				  "of a receive not yet complete");
	if (r->kind == RQ_SEND) {
		/*
		 * A split message's first piece goes first, then the rest: a
		 * freed request cannot wait for it later (MPI_Request_free of
		 * a long send blocks until its first piece went).
		 */
		if (r->sbuf) {
			vcube_node_wait(vmpi.node, r->req, NULL);
			split_rest(r->sdst, r->sbuf, r->sbytes, r->sstream);
			r->sbuf = NULL;
		} else {
			detached_reap();
			if (detached_room(1))
				return vmpi_error(r->comm, MPI_ERR_NO_MEM,
						  "MPI_Request_free",
						  "out of memory");
			detached[ndetached++] = r->req;
		}
	}
	vmpi_comm_put(r->comm);
	req_free(r);
	*request = MPI_REQUEST_NULL;
	return MPI_SUCCESS;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		 int dest, int sendtag, void *recvbuf, int recvcount,
		 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
		 MPI_Status *status)
{
	MPI_Request r;
	int ret;

	ret = MPI_Irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, &r);
	if (ret)
		return ret;
	ret = MPI_Send(sendbuf, sendcount, sendtype, dest, sendtag, comm);
	if (ret) {
		/* the receive goes, unless a message completed it */
		if (r->kind == RQ_RECV &&
		    vcube_node_cancel(vmpi.node, r->req) == 0) {
			vmpi_comm_put(r->comm);
			req_free(r);
		} else {
			MPI_Wait(&r, MPI_STATUS_IGNORE);
		}
		return ret;
	}
	return MPI_Wait(&r, status);
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
			 int sendtag, int source, int recvtag, MPI_Comm comm,
			 MPI_Status *status)
{
	MPI_Datatype stype = type;
	int scount = count, ret;
	size_t bytes;
	void *tmp;

	ret = check_buf(comm, "MPI_Sendrecv_replace", buf, count, type, &bytes);
	if (ret)
		return ret;
	if (vmpi_type_contig(type)) {	/* a copy of count elements */
		tmp = malloc(bytes ? bytes : 1);
		if (!tmp)
			return vmpi_error(comm, MPI_ERR_NO_MEM,
					  "MPI_Sendrecv_replace", "out of memory");
	} else {			/* packed, sent as its bytes */
		ret = pack_room(comm, "MPI_Sendrecv_replace", bytes, &tmp);
		if (ret)
			return ret;
		scount = (int)bytes;
		stype = MPI_BYTE;
	}
	vmpi_pack(type, count, buf, tmp);	/* a copy, free of charge */
	ret = MPI_Sendrecv(tmp, scount, stype, dest, sendtag, buf, count, type,
			   source, recvtag, comm, status);
	free(tmp);
	return ret;
}

/*
 * Probe: messages are received into buffers of the library's and kept, in
 * order, for the receives that ask for them (every receive looks there
 * first). A probe takes every message of the communicator from the
 * source(s) it names, whatever its tag, until one its tag matches: so no
 * message a later, broader receive should get first stays behind in the
 * kernel. MPI_Iprobe posts each such receive, tests it at the node's
 * clock and cancels it when nothing came (then the node spends
 * VCUBE_MPI_POLL_NS, as a real poll does, so a loop of probes lets
 * virtual time pass).
 */
static int probe_one(MPI_Comm comm, unsigned int wsrc, bool test,
		     struct vmpi_kept **out)
{
	struct vcube_status vs;
	struct vmpi_kept *m, *small;
	struct vmpi_split h;
	uint64_t req;
	int ret;

	*out = NULL;
	m = malloc(sizeof(*m) + vmpi.max_msg);
	if (!m)
		return -ENOMEM;
	ret = vcube_node_irecv_flags(vmpi.node, wsrc, VMPI_P2P | comm->cid << 16,
				     VCUBE_RECV_TAGCLASS, m->data, vmpi.max_msg,
				     &req);
	if (ret) {
		free(m);
		return ret;
	}
	if (test) {
		ret = vcube_node_test(vmpi.node, req, &vs);
		if (ret == 0) {
			ret = vcube_node_cancel(vmpi.node, req);
			if (ret == 0) {
				free(m);
				vcube_node_delay(vmpi.node, vmpi.poll_ns);
				return 0;
			}
			if (ret == -EBUSY)	/* a message came meanwhile */
				ret = vcube_node_wait(vmpi.node, req, &vs);
		} else if (ret == 1) {
			ret = 0;
		}
	} else {
		ret = vcube_node_wait(vmpi.node, req, &vs);
	}
	/*
	 * On an error the receive may still be posted, into m: m stays
	 * (a leak, not a write into freed memory).
	 */
	if (ret)
		return ret;
	if (split_first(m->data, vs.len, vs.len, &h)) {
		small = realloc(m, sizeof(*m) + h.total);
		if (!small) {
			free(m);
			return -ENOMEM;	/* the rest stays in the kernel */
		}
		m = small;
		ret = split_finish(m->data, h.total, &vs, 0);
		if (ret) {
			free(m);
			return ret;
		}
	}
	small = realloc(m, sizeof(*m) + vs.len);
	m = small ? small : m;
	m->src = vs.src;
	m->tag = vs.tag;
	m->len = vs.len;
	m->next = NULL;
	*kept_tail = m;
	kept_tail = &m->next;
	*out = m;
	return 0;
}

static int probe(const char *call, int src, int tag, MPI_Comm comm,
		 int *flag, MPI_Status *status)
{
	unsigned int wsrc, wtag, flags;
	struct vmpi_kept **k, *m;
	int ret;

	ret = vmpi_enter(comm, call);
	if (!ret)
		ret = check_peer(comm, call, src, true);
	if (!ret)
		ret = check_tag(comm, call, tag, true);
	if (ret)
		return ret;
	if (flag)
		*flag = 1;
	if (src == MPI_PROC_NULL) {
		null_status(status);
		return MPI_SUCCESS;
	}
	wire_want(comm, src, tag, &wsrc, &wtag, &flags);
	for (;;) {
		k = kept_find(wsrc, wtag, flags);
		if (k) {
			fill_status(comm, status, (*k)->src, (*k)->tag,
				    (*k)->len, 0);
			return MPI_SUCCESS;
		}
		/* collectives pending: a blocking probe tests, and moves them */
		ret = probe_one(comm, wsrc, flag || vmpi_icoll_busy(), &m);
		if (ret)
			return vmpi_error(comm, vmpi_errclass(ret), call, "%s",
					  vmpi_strerror(ret));
		if (!m && !flag) {
			vmpi_icoll_poll();
			continue;
		}
		if (!m) {
			*flag = 0;
			return MPI_SUCCESS;
		}
	}
}

/* ---- matched probes: the message a probe found, the program's ------------ */

struct vmpi_message {
	MPI_Comm comm;
	struct vmpi_kept *m;
};

struct vmpi_message vmpi_message_no_proc;

/*
 * A probe (@flag NULL: blocking), whose message leaves the kept list for
 * *@msg: no receive but MPI_Mrecv's or MPI_Imrecv's can take it.
 */
static int mprobe(const char *call, int src, int tag, MPI_Comm comm,
		  int *flag, MPI_Message *msg, MPI_Status *status)
{
	unsigned int wsrc, wtag, flags;
	struct vmpi_kept **k;
	int f = 1, ret;

	if (!msg)
		return vmpi_error(comm, MPI_ERR_ARG, call, "no message");
	*msg = MPI_MESSAGE_NULL;
	ret = probe(call, src, tag, comm, flag ? &f : NULL, status);
	if (flag)
		*flag = f;
	if (ret || !f)
		return ret;
	if (src == MPI_PROC_NULL) {
		*msg = MPI_MESSAGE_NO_PROC;
		return MPI_SUCCESS;
	}
	wire_want(comm, src, tag, &wsrc, &wtag, &flags);
	k = kept_find(wsrc, wtag, flags);	/* the one probe found */
	*msg = malloc(sizeof(**msg));
	if (!*msg)
		return vmpi_error(comm, MPI_ERR_NO_MEM, call, "out of memory");
	(*msg)->comm = comm;
	(*msg)->m = kept_unlink(k);
	comm->refs++;
	return MPI_SUCCESS;
}

/*
 * A message's Fortran handle: 0 MPI_MESSAGE_NULL, 1 MPI_MESSAGE_NO_PROC,
 * else its place in a table of those converted (a live message's, until
 * it is received; the table only grows with messages converted at once).
 */
static MPI_Message *fmsg;
static int nfmsg;

MPI_Fint MPI_Message_c2f(MPI_Message message)
{
	int i, free_slot = -1;
	MPI_Message *t;

	if (message == MPI_MESSAGE_NULL)
		return 0;
	if (message == MPI_MESSAGE_NO_PROC)
		return 1;
	for (i = 0; i < nfmsg; i++) {
		if (fmsg[i] == message)
			return i + 2;
		if (!fmsg[i] && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0) {
		t = realloc(fmsg, (size_t)(nfmsg + 1) * sizeof(*t));
		if (!t)
			return 0;
		fmsg = t;
		free_slot = nfmsg++;
	}
	fmsg[free_slot] = message;
	return free_slot + 2;
}

MPI_Message MPI_Message_f2c(MPI_Fint message)
{
	if (message == 1)
		return MPI_MESSAGE_NO_PROC;
	if (message < 2 || message - 2 >= nfmsg)
		return MPI_MESSAGE_NULL;
	return fmsg[message - 2];
}

/* A received message leaves the table. */
static void fmsg_forget(MPI_Message m)
{
	int i;

	for (i = 0; i < nfmsg; i++)
		if (fmsg[i] == m)
			fmsg[i] = MPI_MESSAGE_NULL;
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
	       MPI_Status *status)
{
	return mprobe("MPI_Mprobe", source, tag, comm, NULL, message, status);
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag,
		MPI_Message *message, MPI_Status *status)
{
	if (!flag)
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Improbe", "no flag");
	return mprobe("MPI_Improbe", source, tag, comm, flag, message, status);
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
	      MPI_Status *status)
{
	struct vmpi_message *g;
	struct vmpi_kept *m;
	size_t cap, n;
	MPI_Comm c;
	int ret;

	NEED_INIT("MPI_Mrecv");
	if (!message || !*message)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Mrecv",
				  "no message");
	if (*message == MPI_MESSAGE_NO_PROC) {
		null_status(status);
		*message = MPI_MESSAGE_NULL;
		return MPI_SUCCESS;
	}
	g = *message;
	c = g->comm;
	ret = vmpi_count_check(c, "MPI_Mrecv", buf, count, type, &cap);
	if (ret)
		return ret;
	m = g->m;
	n = m->len < cap ? m->len : cap;
	if (vmpi_type_contig(type)) {
		memcpy(buf, m->data, n);
	} else {
		vmpi_unpack(type, count, m->data, n, buf);
		if (n)
			vcube_node_copy(vmpi.node, n, NULL);
	}
	fill_status(c, status, m->src, m->tag, n,
		    m->len > cap ? MPI_ERR_TRUNCATE : 0);
	ret = m->len > cap ? vmpi_error(c, MPI_ERR_TRUNCATE, "MPI_Mrecv",
					"a message of %zu bytes into %zu",
					m->len, cap) : MPI_SUCCESS;
	free(m);
	fmsg_forget(g);
	free(g);
	*message = MPI_MESSAGE_NULL;
	vmpi_comm_put(c);
	return ret;
}

/* MPI_Mrecv at once: the message is here; its request complete. */
int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
	       MPI_Request *request)
{
	MPI_Comm c = message && *message && *message != MPI_MESSAGE_NO_PROC ?
		     (*message)->comm : MPI_COMM_WORLD;
	MPI_Status st;
	int ret;

	if (!request)
		return vmpi_error(c, MPI_ERR_REQUEST, "MPI_Imrecv", "no request");
	ret = MPI_Irecv(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, c, request);
	if (!ret)
		ret = MPI_Mrecv(buf, count, type, message, &st);
	if (!ret)
		(*request)->st = st;
	return ret;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	return probe("MPI_Probe", source, tag, comm, NULL, status);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
	       MPI_Status *status)
{
	int f = 0, ret;

	if (!flag)
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Iprobe", "no flag");
	ret = probe("MPI_Iprobe", source, tag, comm, &f, status);
	*flag = f;
	return ret;
}

/* ---- the transport the collectives of a communicator use ------------------ */

static unsigned int coll_tag(const struct vmpi_comm *c, unsigned int tag)
{
	if (c == &vmpi_comm_world)
		return tag;
	return VMPI_COLL | c->cid << 20 | ((tag >> 16) & 0xf) << 16 |
	       (tag & 0xffff);
}

static unsigned int coll_node(const struct vmpi_comm *c, unsigned int rank)
{
	return rank < (unsigned int)c->size ? c->node[rank] : VCUBE_ANY;
}

static int tp_isend(void *ctx, unsigned int to, unsigned int tag,
		    const void *buf, size_t len, unsigned int flags,
		    uint64_t *req)
{
	struct vmpi_comm *c = ctx;

	return vcube_node_isend(vmpi.node, coll_node(c, to), coll_tag(c, tag),
				buf, len, flags, req);
}

static int tp_irecv(void *ctx, unsigned int from, unsigned int tag, void *buf,
		    size_t cap, uint64_t *req)
{
	struct vmpi_comm *c = ctx;

	return vcube_node_irecv(vmpi.node, coll_node(c, from), coll_tag(c, tag),
				buf, cap, req);
}

static int tp_test(void *ctx, uint64_t req, size_t *len)
{
	(void)ctx;
	return vcube_device_transport.test(vmpi.node, req, len);
}

/*
 * A blocking collective's wait for @req of node @node, every
 * communicator's. While nonblocking ones are pending it tests, and moves
 * them between its tests (icoll.c), as MPI_Wait does.
 */
static int moving_wait(void *node, uint64_t req, size_t *len)
{
	const struct vcube_transport *d = &vcube_device_transport;
	int ret;

	if (!vmpi_icoll_busy())
		return d->wait(node, req, len);
	while (!(ret = d->test(node, req, len)))
		vmpi_icoll_pause();
	return ret < 0 ? ret : 0;
}

static int tp_wait(void *ctx, uint64_t req, size_t *len)
{
	(void)ctx;
	return moving_wait(vmpi.node, req, len);
}

static int tp_send(void *ctx, unsigned int to, unsigned int tag,
		   const void *buf, size_t len, unsigned int flags)
{
	struct vmpi_comm *c = ctx;
	uint64_t req;
	int ret;

	if (!vmpi_icoll_busy())
		return vcube_node_send(vmpi.node, coll_node(c, to),
				       coll_tag(c, tag), buf, len, flags, NULL);
	ret = tp_isend(ctx, to, tag, buf, len, flags, &req);
	return ret ?: tp_wait(ctx, req, NULL);
}

static int tp_recv(void *ctx, unsigned int from, unsigned int tag, void *buf,
		   size_t cap)
{
	struct vmpi_comm *c = ctx;
	uint64_t req;
	int ret;

	if (!vmpi_icoll_busy())
		return vcube_node_recv(vmpi.node, coll_node(c, from),
				       coll_tag(c, tag), buf, cap, NULL);
	ret = tp_irecv(ctx, from, tag, buf, cap, &req);
	return ret ?: tp_wait(ctx, req, NULL);
}

static int tp_clock(void *ctx, uint64_t *ns)
{
	(void)ctx;
	return vcube_node_clock(vmpi.node, ns);
}

static int tp_delay(void *ctx, uint64_t ns)
{
	(void)ctx;
	return vcube_node_delay(vmpi.node, ns);
}

static int tp_copy(void *ctx, uint64_t bytes)
{
	(void)ctx;
	return vcube_node_copy(vmpi.node, bytes, NULL);
}

int vmpi_swap(MPI_Comm c, int peer, unsigned int k, const void *s, size_t sn,
	      void *r, size_t rn)
{
	/* a collective tag no libvcube collective uses */
	unsigned int tag = 0xf0000 | (0xfff0 + (k & 0xf));
	uint64_t req;
	int ret = tp_irecv(c, (unsigned int)peer, tag, r, rn, &req);

	if (!ret)
		ret = tp_send(c, (unsigned int)peer, tag, s, sn, 0);
	if (!ret)
		ret = tp_wait(c, req, NULL);
	return vmpi_errclass(ret);
}

/*
 * MPI_COMM_WORLD's transport: the device's (its context the node), but
 * while nonblocking collectives are pending its blocking calls test and
 * move them between tests, as the other communicators' do (moving_wait()).
 */
static int world_send(void *ctx, unsigned int to, unsigned int tag,
		      const void *buf, size_t len, unsigned int flags)
{
	const struct vcube_transport *d = &vcube_device_transport;
	uint64_t req;
	int ret;

	if (!vmpi_icoll_busy())
		return d->send(ctx, to, tag, buf, len, flags);
	ret = d->isend(ctx, to, tag, buf, len, flags, &req);
	return ret ?: moving_wait(ctx, req, NULL);
}

static int world_recv(void *ctx, unsigned int from, unsigned int tag,
		      void *buf, size_t cap)
{
	const struct vcube_transport *d = &vcube_device_transport;
	uint64_t req;
	int ret;

	if (!vmpi_icoll_busy())
		return d->recv(ctx, from, tag, buf, cap);
	ret = d->irecv(ctx, from, tag, buf, cap, &req);
	return ret ?: moving_wait(ctx, req, NULL);
}

static struct vcube_transport world_transport;

/* MPI_COMM_WORLD's communicator @w on world_transport. */
static void world_hook(struct vcube_comm *w)
{
	world_transport = vcube_device_transport;
	world_transport.wait = moving_wait;
	world_transport.send = world_send;
	world_transport.recv = world_recv;
	w->tp = &world_transport;
}

const struct vcube_transport vmpi_transport = {
	.send = tp_send, .irecv = tp_irecv, .wait = tp_wait, .recv = tp_recv,
	.clock = tp_clock, .delay = tp_delay, .copy = tp_copy,
	.isend = tp_isend, .test = tp_test,
};
