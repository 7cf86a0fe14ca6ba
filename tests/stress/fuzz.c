// SPDX-License-Identifier: GPL-2.0
/*
 * The stress suite's random ioctls: P processes (some with a second thread
 * on the same file) bind random nodes and issue random calls, valid and not:
 * sends and receives of random sizes, protocols and tags, waits and tests of
 * real and made-up requests, delays, collectives, copies, routes, garbage
 * commands and arguments, bad and kernel pointers, closes and reopens, a
 * close by one thread while the other is in a call. Meanwhile the parent
 * kills (SIGKILL) random processes and starts others, and stops and
 * continues (SIGSTOP/SIGCONT) others.
 *
 * Every payload carries its own seed and checksum: a receive that completes
 * is checked byte for byte. The run fails if a payload arrives corrupt, a
 * process dies of anything but the parent's kills, or an errno comes back
 * that the interface never returns (vcube(4)); the kernel log is the
 * caller's to check (tests/stress/stress.sh).
 *
 *   fuzz [--procs P] [--ops N] [--seed S] [--nodes N] [--kills K]
 *        [--stops K] [--threads] [--maxlen B]
 *
 * --ops is the calls made, over all processes (a few more, those in
 * progress as the budget runs out). Prints one line of counts, and a
 * pass/fail line.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/vcube.h>

#define MAX_PROCS	256
#define SLOTS		16	/* receives a process keeps posted */

/* Counts every process adds to, in shared memory. */
struct counts {
	atomic_ullong ops;
	atomic_ullong ok;
	atomic_ullong err[160];		/* by errno */
	atomic_ullong bad_errno;	/* one vcube(4) never returns */
	atomic_ullong recv_checked;	/* payloads checked byte for byte */
	atomic_ullong corrupt;
	atomic_ullong closes;
	atomic_ullong racing_closes;	/* a close while the other thread called */
	atomic_ullong budget;		/* calls still to make */
};

static struct counts *cnt;
static unsigned int nnodes = 32, maxlen = 16384;
static int threads;

/* splitmix64: one stream per process, from the run's seed */
static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int below(uint64_t *s, unsigned int n)
{
	return n ? (unsigned int)(rnd(s) % n) : 0;
}

/*
 * A payload: 8 bytes of seed, 8 bytes of checksum of the rest, the rest
 * drawn from the seed. Shorter ones are not checked.
 */
static void fill(unsigned char *b, size_t len, uint64_t seed)
{
	uint64_t s = seed, sum = 0;
	size_t i;

	if (len < 16)
		return;
	memcpy(b, &seed, 8);
	for (i = 16; i < len; i++) {
		b[i] = (unsigned char)rnd(&s);
		sum = sum * 31 + b[i];
	}
	memcpy(b + 8, &sum, 8);
}

static int intact(const unsigned char *b, size_t len)
{
	uint64_t s, sum = 0, want;
	size_t i;

	if (len < 16)
		return 1;
	memcpy(&s, b, 8);
	memcpy(&want, b + 8, 8);
	for (i = 16; i < len; i++) {
		if (b[i] != (unsigned char)rnd(&s))
			return 0;
		sum = sum * 31 + b[i];
	}
	return sum == want;
}

/* The errnos vcube(4) documents for its calls; anything else is a bug. */
static int documented(int e)
{
	switch (e) {
	case EINVAL: case EFAULT: case EMSGSIZE: case ENOTTY: case EPERM:
	case EBADF: case EBUSY: case EAGAIN: case ENOBUFS: case EDEADLK:
	case ENOENT: case EINTR: case ENODEV: case EOPNOTSUPP: case EOVERFLOW:
	case ENOMEM:
		return 1;
	}
	return 0;
}

struct proc {
	uint64_t s;
	int fd;
	unsigned int node;
	unsigned char *sbuf;
	unsigned char *rbuf[SLOTS];
	uint64_t rreq[SLOTS];		/* 0: slot free */
	size_t rlen[SLOTS];
	uint64_t reqs[SLOTS];		/* ids seen, for waits */
	pthread_mutex_t lock;		/* the slots and the binding */
	atomic_int in_call;
	struct proc *owner;		/* whose file and slots: itself, or the
					 * first thread's for the second */
	int no_recv;			/* the second thread: no receives, no
					 * waits (payloads land in the first's
					 * buffers, checked by it alone) */
	uint64_t bind_s;		/* bind_some()'s draws, under @lock */
};

/*
 * A call made: it counts, and comes off the budget (turns that make none,
 * waiting to bind, do not).
 */
static void note(long r)
{
	atomic_fetch_add(&cnt->ops, 1);
	atomic_fetch_sub(&cnt->budget, 1);
	if (r == 0) {
		atomic_fetch_add(&cnt->ok, 1);
		return;
	}
	if (errno > 0 && errno < 160)
		atomic_fetch_add(&cnt->err[errno], 1);
	if (!documented(errno)) {
		atomic_fetch_add(&cnt->bad_errno, 1);
		fprintf(stderr, "# undocumented errno %d (%s)\n", errno,
			strerror(errno));
	}
}

/*
 * Bind a random node, unless the process has one: one file at a time per
 * process, or a node bound and forgotten would hold everyone's virtual
 * time (a bound process out of calls counts as running) for good. Only
 * the first thread binds, and forgets its receives as it does: request
 * ids are per node, and a receive of the node before must not be taken
 * for one of the new node's (its buffer is another).
 */
static void bind_some(struct proc *p)
{
	char path[32];
	int tries, fd;

	pthread_mutex_lock(&p->lock);
	if (p->fd < 0)
		memset(p->rreq, 0, sizeof(p->rreq));
	for (tries = 0; tries < 8 && p->fd < 0; tries++) {
		p->node = below(&p->bind_s, nnodes);
		snprintf(path, sizeof(path), "/dev/vcube%u", p->node);
		fd = open(path, below(&p->bind_s, 10) ? O_RDWR : O_RDONLY);
		__atomic_store_n(&p->fd, fd, __ATOMIC_SEQ_CST);
	}
	pthread_mutex_unlock(&p->lock);
}

/* Close the node the process has now, once (either thread may). */
static void let_go(struct proc *p)
{
	int fd;

	pthread_mutex_lock(&p->lock);
	fd = __atomic_exchange_n(&p->fd, -1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&p->lock);
	if (fd >= 0)
		close(fd);
}

/* A pointer the kernel must refuse: NULL, low, kernel, unmapped, odd. */
static void *bad_ptr(uint64_t *s)
{
	static void *hole;

	if (!hole) {
		hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
	}
	switch (below(s, 5)) {
	case 0: return NULL;
	case 1: return (void *)1;
	case 2: return (void *)0xffffffff81000000ULL;
	case 3: return hole;
	default: return (void *)(uintptr_t)rnd(s);
	}
}

static void check_status(struct proc *p, const struct vcube_status *st)
{
	unsigned int i;

	if (!st->done || st->error)
		return;
	pthread_mutex_lock(&p->lock);
	for (i = 0; i < SLOTS; i++) {
		if (p->rreq[i] != st->req)
			continue;
		if (st->len <= p->rlen[i]) {
			atomic_fetch_add(&cnt->recv_checked, 1);
			if (!intact(p->rbuf[i], st->len)) {
				atomic_fetch_add(&cnt->corrupt, 1);
				fprintf(stderr, "# node %u: %llu bytes from %u corrupt\n",
					p->node, (unsigned long long)st->len,
					st->src);
			}
		}
		p->rreq[i] = 0;
	}
	pthread_mutex_unlock(&p->lock);
}

/* A send of random length, destination, tag and flags; bad pointers. */
static void op_send(struct proc *p, int fd)
{
	struct vcube_send sd;
	size_t len = below(&p->s, 4) ? below(&p->s, maxlen + 1) :
		     below(&p->s, 64);
	long r;

	memset(&sd, 0, sizeof(sd));
	fill(p->sbuf, len, rnd(&p->s));
	sd.dst = below(&p->s, 20) ? below(&p->s, nnodes) :
		 (uint32_t)rnd(&p->s);
	sd.tag = below(&p->s, 4);
	sd.flags = below(&p->s, 4) ? VCUBE_SEND_NONBLOCK : 0;
	if (!below(&p->s, 4))
		sd.flags |= VCUBE_SEND_FORCED;
	if (!below(&p->s, 30))
		sd.flags |= 1U << below(&p->s, 32);
	sd.buf = (uintptr_t)p->sbuf;
	sd.len = len;
	if (!below(&p->s, 20))
		sd.buf = (uintptr_t)bad_ptr(&p->s);
	if (!below(&p->s, 40))
		sd.len = rnd(&p->s);
	r = ioctl(fd, VCUBE_IOC_SEND, &sd);
	note(r);
	if (!r)
		p->reqs[below(&p->s, SLOTS)] = sd.st.req;
}

/* A receive into a free slot (or a reused one), checked if it completes. */
static void op_recv(struct proc *p, int fd)
{
	struct vcube_recv rv;
	unsigned int i;
	long r;

	memset(&rv, 0, sizeof(rv));
	pthread_mutex_lock(&p->lock);
	for (i = 0; i < SLOTS && p->rreq[i]; i++)
		;
	pthread_mutex_unlock(&p->lock);
	if (i == SLOTS)
		i = below(&p->s, SLOTS);	/* reuse: its old one is dropped */
	rv.src = below(&p->s, 3) ? VCUBE_ANY : below(&p->s, nnodes);
	rv.tag = below(&p->s, 2) ? VCUBE_ANY : below(&p->s, 4);
	rv.flags = below(&p->s, 8) ? VCUBE_RECV_NONBLOCK : 0;
	rv.buf = (uintptr_t)p->rbuf[i];
	rv.len = below(&p->s, maxlen + 1);
	if (!below(&p->s, 25))
		rv.buf = (uintptr_t)bad_ptr(&p->s);
	r = ioctl(fd, VCUBE_IOC_RECV, &rv);
	note(r);
	if (!r && rv.buf == (uintptr_t)p->rbuf[i]) {
		pthread_mutex_lock(&p->lock);
		p->rreq[i] = rv.st.req;
		p->rlen[i] = rv.len;
		pthread_mutex_unlock(&p->lock);
		p->reqs[below(&p->s, SLOTS)] = rv.st.req;
		check_status(p, &rv.st);
	}
}

/* A wait or a test of a posted, seen or made-up request. */
static void op_wait(struct proc *p, int fd)
{
	struct vcube_wait w;
	long r;

	memset(&w, 0, sizeof(w));
	if (below(&p->s, 4)) {
		pthread_mutex_lock(&p->lock);
		w.req = p->rreq[below(&p->s, SLOTS)];
		pthread_mutex_unlock(&p->lock);
		if (!w.req)
			w.req = p->reqs[below(&p->s, SLOTS)];
	} else {
		w.req = rnd(&p->s) % 1000;
	}
	w.flags = below(&p->s, 3) ? VCUBE_WAIT_TEST : 0;
	if (!below(&p->s, 30))
		w.flags = (uint32_t)rnd(&p->s);
	r = ioctl(fd, VCUBE_IOC_WAIT, &w);
	note(r);
	if (!r)
		check_status(p, &w.st);
}

/* A mark of random bytes, mostly bad: the ioctl's result. */
static long op_mark(struct proc *p, int fd)
{
	struct vcube_mark mk;
	unsigned int i;

	for (i = 0; i < sizeof(mk.label); i++)
		mk.label[i] = (char)(below(&p->s, 2) ?
				     0x20 + below(&p->s, 96) :
				     rnd(&p->s));
	return ioctl(fd, VCUBE_IOC_MARK, &mk);
}

/* Time: a delay, the clock, jitter or a mark. */
static void op_time(struct proc *p, int fd)
{
	uint64_t v;
	long r;

	v = below(&p->s, 2) ? below(&p->s, 100000) : rnd(&p->s);
	switch (below(&p->s, 4)) {
	case 0: r = ioctl(fd, VCUBE_IOC_DELAY, &v); break;
	case 1: r = ioctl(fd, VCUBE_IOC_CLOCK, &v); break;
	case 2: r = ioctl(fd, VCUBE_IOC_JITTER, &v); break;
	default: r = op_mark(p, fd); break;
	}
	note(r);
}

/* A collective of the control network, mostly wrong. */
static void op_cnet(struct proc *p, int fd)
{
	uint64_t sb[4] = { 1, 2, 3, 4 }, rb[4];
	struct vcube_cnet c;
	long r;

	memset(&c, 0, sizeof(c));
	c.kind = below(&p->s, 5);
	c.op = below(&p->s, 7);
	c.type = below(&p->s, 4);
	c.root = below(&p->s, nnodes);
	c.first = below(&p->s, nnodes);
	c.nodes = below(&p->s, nnodes + 1);
	c.count = below(&p->s, 5);
	c.sbuf = (uintptr_t)sb;
	c.rbuf = (uintptr_t)rb;
	c.rlen = sizeof(rb);
	if (!below(&p->s, 5))
		c.sbuf = (uintptr_t)bad_ptr(&p->s);
	r = ioctl(fd, VCUBE_IOC_CNET, &c);
	note(r);
}

/* A copy, a route of random bytes, or the node's info. */
static void op_misc(struct proc *p, int fd)
{
	union {
		struct vcube_copy cp;
		struct vcube_node_info ni;
		unsigned char raw[1024];
	} a;
	unsigned int i;
	long r;

	memset(&a, 0, sizeof(a));
	switch (below(&p->s, 3)) {
	case 0:
		a.cp.bytes = below(&p->s, 2) ? below(&p->s, 1 << 20) :
			     rnd(&p->s);
		r = ioctl(fd, VCUBE_IOC_COPY, &a.cp);
		break;
	case 1:
		for (i = 0; i < sizeof(a.raw); i++)
			a.raw[i] = (unsigned char)rnd(&p->s);
		if (below(&p->s, 2))
			memset(a.raw, 0, 64);
		r = ioctl(fd, VCUBE_IOC_ROUTE, a.raw);
		break;
	default:
		r = ioctl(fd, VCUBE_IOC_NODE_INFO, &a.ni);
		break;
	}
	note(r);
}

/* Garbage: random commands, sizes and arguments. */
static void op_garbage(struct proc *p, int fd)
{
	unsigned char raw[1024];
	unsigned long cmd;
	unsigned int i;
	long r;

	for (i = 0; i < sizeof(raw); i++)
		raw[i] = (unsigned char)rnd(&p->s);
	switch (below(&p->s, 3)) {
	case 0:		/* a vcube number with any direction and size */
		cmd = _IOC(below(&p->s, 4), VCUBE_IOC_MAGIC,
			   below(&p->s, 16), below(&p->s, 1024));
		break;
	case 1:		/* a real command, a wrong size */
		cmd = _IOC(_IOC_READ | _IOC_WRITE, VCUBE_IOC_MAGIC,
			   below(&p->s, 10), below(&p->s, 200));
		break;
	default:
		cmd = (unsigned long)(uint32_t)rnd(&p->s);
		break;
	}
	r = ioctl(fd, cmd, below(&p->s, 3) ? (void *)raw : bad_ptr(&p->s));
	note(r);
}

/* One random call of the process (binding a node first if it has none). */
static void one_op(struct proc *p)
{
	unsigned int k = below(&p->s, 100);
	int fd = __atomic_load_n(&p->owner->fd, __ATOMIC_SEQ_CST);

	if (fd < 0) {
		if (p == p->owner)
			bind_some(p);
		return;
	}
	if (p->no_recv && k >= 25 && k < 62)
		k = 0;				/* a send instead */
	atomic_store(&p->in_call, 1);
	if (k < 25)
		op_send(p, fd);
	else if (k < 45)
		op_recv(p, fd);
	else if (k < 62)
		op_wait(p, fd);
	else if (k < 70)
		op_time(p, fd);
	else if (k < 74)
		op_cnet(p, fd);
	else if (k < 78)
		op_misc(p, fd);
	else if (k < 94)
		op_garbage(p, fd);
	else {		/* close (the first thread binds again) */
		atomic_store(&p->in_call, 0);
		let_go(p->owner);
		atomic_fetch_add(&cnt->closes, 1);
		if (p == p->owner)
			bind_some(p);
		return;
	}
	atomic_store(&p->in_call, 0);
}

/*
 * The second thread: sends and everything but receives and waits, on the
 * first thread's file, and now and then closes that file while the first
 * is in a call. It ends when the budget does.
 */
static void *second(void *arg)
{
	struct proc *p = arg;
	struct proc q = { .s = p->s ^ 0x5555, .owner = p, .no_recv = 1 };

	q.sbuf = malloc(maxlen + 1);
	while ((long long)atomic_load(&cnt->budget) > 0) {
		if (__atomic_load_n(&p->fd, __ATOMIC_SEQ_CST) >= 0 &&
		    !below(&q.s, 200) && atomic_load(&p->in_call)) {
			/* the call keeps its file until it returns */
			let_go(p);
			atomic_fetch_add(&cnt->racing_closes, 1);
			usleep(1000);
			continue;
		}
		if (__atomic_load_n(&p->fd, __ATOMIC_SEQ_CST) < 0) {
			usleep(100);	/* the first thread binds */
			continue;
		}
		q.node = p->node;
		one_op(&q);
	}
	free(q.sbuf);
	let_go(p);
	return NULL;
}

static void child(uint64_t seed)
{
	struct proc p = { .s = seed, .fd = -1, .bind_s = seed ^ 0xb1d };
	pthread_t t;
	unsigned int i;
	int two = threads && below(&p.s, 2);

	p.owner = &p;
	pthread_mutex_init(&p.lock, NULL);
	p.sbuf = malloc(maxlen + 1);
	for (i = 0; i < SLOTS; i++)
		p.rbuf[i] = malloc(maxlen + 1);
	bind_some(&p);
	if (two)
		pthread_create(&t, NULL, second, &p);
	while ((long long)atomic_load(&cnt->budget) > 0) {
		if (__atomic_load_n(&p.fd, __ATOMIC_SEQ_CST) < 0) {
			bind_some(&p);
			if (__atomic_load_n(&p.fd, __ATOMIC_SEQ_CST) < 0) {
				usleep(1000);
				continue;
			}
		}
		one_op(&p);
	}
	/*
	 * Done: the node goes, so that it holds nobody's virtual time while
	 * the other thread may still be in a call (on it, or on an older
	 * file whose node waits for others).
	 */
	let_go(&p);
	if (two)
		pthread_join(t, NULL);
	_exit(0);
}

static int usage(FILE *f, int rc)
{
	fprintf(f,
		"usage: fuzz [--procs P] [--ops N] [--seed S] [--nodes N] [--kills K]\n"
		"            [--stops K] [--threads] [--maxlen B]\n"
		"Random vcube ioctls from P processes (default 64) against /dev/vcube*,\n"
		"N in all (default 100000), with K kill -9s and K stops and continues.\n");
	return rc;
}

/* The run: its options, the processes, what the parent did to them. */
struct run {
	unsigned int procs, kills, stops, killed, stopped, live;
	unsigned long long ops, seed, crashed;
	pid_t pid[MAX_PROCS];
	uint64_t s;		/* the parent's draws */
};

/* Parse the options into @r and the globals: -1 to go on, else the status. */
static int parse(int argc, char **argv, struct run *r)
{
	static const struct option opts[] = {
		{ "procs", 1, NULL, 'p' }, { "ops", 1, NULL, 'o' },
		{ "seed", 1, NULL, 's' }, { "nodes", 1, NULL, 'n' },
		{ "kills", 1, NULL, 'k' }, { "stops", 1, NULL, 'S' },
		{ "threads", 0, NULL, 't' }, { "maxlen", 1, NULL, 'm' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': r->procs = strtoul(optarg, NULL, 0); break;
		case 'o': r->ops = strtoull(optarg, NULL, 0); break;
		case 's': r->seed = strtoull(optarg, NULL, 0); break;
		case 'n': nnodes = strtoul(optarg, NULL, 0); break;
		case 'k': r->kills = strtoul(optarg, NULL, 0); break;
		case 'S': r->stops = strtoul(optarg, NULL, 0); break;
		case 't': threads = 1; break;
		case 'm': maxlen = strtoul(optarg, NULL, 0); break;
		case 'h': return usage(stdout, 0);
		default: return usage(stderr, 2);
		}
	}
	if (!r->procs || r->procs > MAX_PROCS || !nnodes || optind != argc) {
		fprintf(stderr, "fuzz: --procs is 1..%d, --nodes at least 1\n",
			MAX_PROCS);
		return usage(stderr, 2);
	}
	return -1;
}

/* Kills and stops, spread over the run by the budget's progress. */
static void disturb(struct run *r)
{
	unsigned int i;
	int status;

	while (r->killed < r->kills || r->stopped < r->stops) {
		long long left = (long long)atomic_load(&cnt->budget);
		long long done = (long long)r->ops - left;
		unsigned int due = (unsigned int)((done *
						   (long long)(r->kills + 1)) /
						  (long long)r->ops);

		if (left <= 0)
			break;
		usleep(2000 + below(&r->s, 8000));
		i = below(&r->s, r->procs);
		if (r->killed < r->kills && r->killed < due) {
			uint64_t cs = rnd(&r->s);

			kill(r->pid[i], SIGKILL);
			waitpid(r->pid[i], &status, 0);
			r->killed++;
			r->pid[i] = fork();
			if (!r->pid[i])
				child(cs);
		} else if (r->stopped < r->stops) {
			kill(r->pid[i], SIGSTOP);
			usleep(below(&r->s, 20000));
			kill(r->pid[i], SIGCONT);
			r->stopped++;
		}
	}
}

/* Wait for every process: those that crashed, those left alive. */
static void reap(struct run *r)
{
	unsigned int i;
	int status;

	for (r->live = r->procs, i = 0; i < r->procs; i++) {
		if (waitpid(r->pid[i], &status, 0) != r->pid[i])
			continue;
		r->live--;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			r->crashed++;
			fprintf(stderr, "# process %d ended with status %#x\n",
				r->pid[i], status);
		}
	}
}

/* The counts, the errors by name and the pass/fail line: the exit status. */
static int report(const struct run *r)
{
	int e;

	printf("fuzz: %llu calls (%llu succeeded) from %u processes%s, seed %llu; %u kill -9, %u stop/cont, %llu closes (%llu under the other thread's call); %llu payloads checked, %llu corrupt; %llu undocumented errnos\n",
	       (unsigned long long)atomic_load(&cnt->ops),
	       (unsigned long long)atomic_load(&cnt->ok), r->procs,
	       threads ? " (half with two threads)" : "", r->seed, r->killed,
	       r->stopped,
	       (unsigned long long)atomic_load(&cnt->closes),
	       (unsigned long long)atomic_load(&cnt->racing_closes),
	       (unsigned long long)atomic_load(&cnt->recv_checked),
	       (unsigned long long)atomic_load(&cnt->corrupt),
	       (unsigned long long)atomic_load(&cnt->bad_errno));
	printf("fuzz: errors:");
	for (e = 1; e < 160; e++)
		if (atomic_load(&cnt->err[e]))
			printf(" %s %llu", strerrorname_np(e) ?: "?",
			       (unsigned long long)atomic_load(&cnt->err[e]));
	printf("\n");
	e = !atomic_load(&cnt->corrupt) && !atomic_load(&cnt->bad_errno) &&
	    !r->crashed && !r->live;
	printf("%s - fuzz: every payload intact, every errno documented, every process exited (%llu did not)\n",
	       e ? "ok" : "not ok", r->crashed + r->live);
	return e ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct run r = { .procs = 64, .ops = 100000, .seed = 1 };
	unsigned int i;
	int ret;

	ret = parse(argc, argv, &r);
	if (ret >= 0)
		return ret;
	cnt = mmap(NULL, sizeof(*cnt), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cnt == MAP_FAILED)
		return perror("mmap"), 1;
	atomic_store(&cnt->budget, r.ops);
	r.s = r.seed;
	for (i = 0; i < r.procs; i++) {
		uint64_t cs = rnd(&r.s);

		r.pid[i] = fork();
		if (!r.pid[i])
			child(cs);
	}
	disturb(&r);
	reap(&r);
	return report(&r);
}
