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

static void one_op(struct proc *p)
{
	union {
		struct vcube_send sd;
		struct vcube_recv rv;
		struct vcube_wait w;
		struct vcube_cnet c;
		struct vcube_copy cp;
		struct vcube_node_info ni;
		unsigned char raw[1024];
	} a;
	unsigned int k = below(&p->s, 100), i;
	uint64_t v;
	long r;
	int fd = __atomic_load_n(&p->owner->fd, __ATOMIC_SEQ_CST);

	if (fd < 0) {
		if (p == p->owner)
			bind_some(p);
		return;
	}
	if (p->no_recv && k >= 25 && k < 62)
		k = 0;				/* a send instead */
	memset(&a, 0, sizeof(a));
	atomic_store(&p->in_call, 1);
	if (k < 25) {				/* a send */
		size_t len = below(&p->s, 4) ? below(&p->s, maxlen + 1) :
			     below(&p->s, 64);

		fill(p->sbuf, len, rnd(&p->s));
		a.sd.dst = below(&p->s, 20) ? below(&p->s, nnodes) :
			   (uint32_t)rnd(&p->s);
		a.sd.tag = below(&p->s, 4);
		a.sd.flags = below(&p->s, 4) ? VCUBE_SEND_NONBLOCK : 0;
		if (!below(&p->s, 4))
			a.sd.flags |= VCUBE_SEND_FORCED;
		if (!below(&p->s, 30))
			a.sd.flags |= 1U << below(&p->s, 32);
		a.sd.buf = (uintptr_t)p->sbuf;
		a.sd.len = len;
		if (!below(&p->s, 20))
			a.sd.buf = (uintptr_t)bad_ptr(&p->s);
		if (!below(&p->s, 40))
			a.sd.len = rnd(&p->s);
		r = ioctl(fd, VCUBE_IOC_SEND, &a.sd);
		note(r);
		if (!r)
			p->reqs[below(&p->s, SLOTS)] = a.sd.st.req;
	} else if (k < 45) {			/* a receive, into a free slot */
		pthread_mutex_lock(&p->lock);
		for (i = 0; i < SLOTS && p->rreq[i]; i++)
			;
		pthread_mutex_unlock(&p->lock);
		if (i == SLOTS)
			i = below(&p->s, SLOTS);	/* reuse: its old one is dropped */
		a.rv.src = below(&p->s, 3) ? VCUBE_ANY : below(&p->s, nnodes);
		a.rv.tag = below(&p->s, 2) ? VCUBE_ANY : below(&p->s, 4);
		a.rv.flags = below(&p->s, 8) ? VCUBE_RECV_NONBLOCK : 0;
		a.rv.buf = (uintptr_t)p->rbuf[i];
		a.rv.len = below(&p->s, maxlen + 1);
		if (!below(&p->s, 25))
			a.rv.buf = (uintptr_t)bad_ptr(&p->s);
		r = ioctl(fd, VCUBE_IOC_RECV, &a.rv);
		note(r);
		if (!r && a.rv.buf == (uintptr_t)p->rbuf[i]) {
			pthread_mutex_lock(&p->lock);
			p->rreq[i] = a.rv.st.req;
			p->rlen[i] = a.rv.len;
			pthread_mutex_unlock(&p->lock);
			p->reqs[below(&p->s, SLOTS)] = a.rv.st.req;
			check_status(p, &a.rv.st);
		}
	} else if (k < 62) {			/* a wait or a test */
		if (below(&p->s, 4)) {
			pthread_mutex_lock(&p->lock);
			a.w.req = p->rreq[below(&p->s, SLOTS)];
			pthread_mutex_unlock(&p->lock);
			if (!a.w.req)
				a.w.req = p->reqs[below(&p->s, SLOTS)];
		} else {
			a.w.req = rnd(&p->s) % 1000;
		}
		a.w.flags = below(&p->s, 3) ? VCUBE_WAIT_TEST : 0;
		if (!below(&p->s, 30))
			a.w.flags = (uint32_t)rnd(&p->s);
		r = ioctl(fd, VCUBE_IOC_WAIT, &a.w);
		note(r);
		if (!r)
			check_status(p, &a.w.st);
	} else if (k < 70) {			/* time */
		v = below(&p->s, 2) ? below(&p->s, 100000) : rnd(&p->s);
		switch (below(&p->s, 4)) {
		case 0: r = ioctl(fd, VCUBE_IOC_DELAY, &v); break;
		case 1: r = ioctl(fd, VCUBE_IOC_CLOCK, &v); break;
		case 2: r = ioctl(fd, VCUBE_IOC_JITTER, &v); break;
		default: {		/* a mark of random bytes, mostly bad */
			struct vcube_mark mk;
			unsigned int i;

			for (i = 0; i < sizeof(mk.label); i++)
				mk.label[i] = (char)(below(&p->s, 2) ?
						     0x20 + below(&p->s, 96) :
						     rnd(&p->s));
			r = ioctl(fd, VCUBE_IOC_MARK, &mk);
			break;
		}
		}
		note(r);
	} else if (k < 74) {			/* a collective, mostly wrong */
		uint64_t sb[4] = { 1, 2, 3, 4 }, rb[4];

		a.c.kind = below(&p->s, 5);
		a.c.op = below(&p->s, 7);
		a.c.type = below(&p->s, 4);
		a.c.root = below(&p->s, nnodes);
		a.c.first = below(&p->s, nnodes);
		a.c.nodes = below(&p->s, nnodes + 1);
		a.c.count = below(&p->s, 5);
		a.c.sbuf = (uintptr_t)sb;
		a.c.rbuf = (uintptr_t)rb;
		a.c.rlen = sizeof(rb);
		if (!below(&p->s, 5))
			a.c.sbuf = (uintptr_t)bad_ptr(&p->s);
		r = ioctl(fd, VCUBE_IOC_CNET, &a.c);
		note(r);
	} else if (k < 78) {			/* copy, route, info */
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
	} else if (k < 94) {			/* garbage */
		unsigned long cmd;

		for (i = 0; i < sizeof(a.raw); i++)
			a.raw[i] = (unsigned char)rnd(&p->s);
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
		r = ioctl(fd, cmd, below(&p->s, 3) ? (void *)a.raw :
					bad_ptr(&p->s));
		note(r);
	} else {		/* close (the first thread binds again) */
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

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "procs", 1, NULL, 'p' }, { "ops", 1, NULL, 'o' },
		{ "seed", 1, NULL, 's' }, { "nodes", 1, NULL, 'n' },
		{ "kills", 1, NULL, 'k' }, { "stops", 1, NULL, 'S' },
		{ "threads", 0, NULL, 't' }, { "maxlen", 1, NULL, 'm' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	unsigned int procs = 64, kills = 0, stops = 0, killed = 0, stopped = 0;
	unsigned long long ops = 100000, seed = 1, crashed = 0;
	pid_t pid[MAX_PROCS];
	uint64_t s;
	unsigned int i, live;
	int c, status, e;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': procs = strtoul(optarg, NULL, 0); break;
		case 'o': ops = strtoull(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': nnodes = strtoul(optarg, NULL, 0); break;
		case 'k': kills = strtoul(optarg, NULL, 0); break;
		case 'S': stops = strtoul(optarg, NULL, 0); break;
		case 't': threads = 1; break;
		case 'm': maxlen = strtoul(optarg, NULL, 0); break;
		case 'h': return usage(stdout, 0);
		default: return usage(stderr, 2);
		}
	}
	if (!procs || procs > MAX_PROCS || !nnodes || optind != argc) {
		fprintf(stderr, "fuzz: --procs is 1..%d, --nodes at least 1\n",
			MAX_PROCS);
		return usage(stderr, 2);
	}
	cnt = mmap(NULL, sizeof(*cnt), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cnt == MAP_FAILED)
		return perror("mmap"), 1;
	atomic_store(&cnt->budget, ops);
	s = seed;
	for (i = 0; i < procs; i++) {
		uint64_t cs = rnd(&s);

		pid[i] = fork();
		if (!pid[i])
			child(cs);
	}
	/* kills and stops, spread over the run by the budget's progress */
	while (killed < kills || stopped < stops) {
		long long left = (long long)atomic_load(&cnt->budget);
		long long done = (long long)ops - left;
		unsigned int due = (unsigned int)((done * (long long)(kills + 1)) /
						  (long long)ops);

		if (left <= 0)
			break;
		usleep(2000 + below(&s, 8000));
		i = below(&s, procs);
		if (killed < kills && killed < due) {
			uint64_t cs = rnd(&s);

			kill(pid[i], SIGKILL);
			waitpid(pid[i], &status, 0);
			killed++;
			pid[i] = fork();
			if (!pid[i])
				child(cs);
		} else if (stopped < stops) {
			kill(pid[i], SIGSTOP);
			usleep(below(&s, 20000));
			kill(pid[i], SIGCONT);
			stopped++;
		}
	}
	for (live = procs, i = 0; i < procs; i++) {
		if (waitpid(pid[i], &status, 0) != pid[i])
			continue;
		live--;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			crashed++;
			fprintf(stderr, "# process %d ended with status %#x\n",
				pid[i], status);
		}
	}
	printf("fuzz: %llu calls (%llu succeeded) from %u processes%s, seed %llu; %u kill -9, %u stop/cont, %llu closes (%llu under the other thread's call); %llu payloads checked, %llu corrupt; %llu undocumented errnos\n",
	       (unsigned long long)atomic_load(&cnt->ops),
	       (unsigned long long)atomic_load(&cnt->ok), procs,
	       threads ? " (half with two threads)" : "", seed, killed, stopped,
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
	    !crashed && !live;
	printf("%s - fuzz: every payload intact, every errno documented, every process exited (%llu did not)\n",
	       e ? "ok" : "not ok", crashed + live);
	return e ? 0 : 1;
}
