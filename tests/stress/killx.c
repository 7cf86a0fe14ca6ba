// SPDX-License-Identifier: GPL-2.0
/*
 * kill -9 of a random rank in the middle of a complete exchange: R ranks
 * (nodes 0..R-1) exchange blocks of three sizes (both protocols) for K
 * rounds, every byte checked; at a random moment one rank is killed. The
 * survivors must finish or be told EDEADLK (they wait for the dead one),
 * nothing else; every block that arrives must be the one sent; after them
 * the network must be idle: every node unbound, and a whole exchange on it
 * again, with no kill, completes with every byte right.
 *
 *   killx [--ranks R] [--rounds K] [--kills N] [--seed S]
 *
 * Runs N such exchanges (each with one kill) and the clean one after each;
 * prints one pass/fail line per property with the counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
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

#define MAX_RANKS	64

/* What each rank says of itself, in shared memory. */
struct outcome {
	int done;		/* every round completed */
	int deadlocked;		/* a call said EDEADLK */
	int bad_errno;		/* any other error: the errno */
	unsigned long long checked, corrupt;
};

static struct outcome *out;
/* every rank bound before any sends (a message to an unbound node is lost) */
static int ready[2], go[2];

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void fill(unsigned char *b, size_t len, uint64_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		b[i] = (unsigned char)(mix(seed + i / 8) >> (8 * (i % 8)));
}

static size_t block_len(unsigned int round)
{
	static const size_t lens[] = { 40, 4096, 65536 };

	return lens[round % 3];
}

static int call(int fd, unsigned long cmd, void *arg, struct outcome *o)
{
	if (!ioctl(fd, cmd, arg))
		return 0;
	if (errno == EDEADLK)
		o->deadlocked = 1;
	else
		o->bad_errno = errno;
	return -1;
}

/* Rank @r of @n: @rounds rounds of a shifted pairwise exchange. */
static void rank(unsigned int r, unsigned int n, unsigned int rounds,
		 uint64_t run)
{
	struct outcome *o = &out[r];
	unsigned char *sb = malloc(65536), *rb = malloc(65536),
		      *want = malloc(65536);
	char path[32];
	unsigned int k, j;
	int fd;

	snprintf(path, sizeof(path), "/dev/vcube%u", r);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		o->bad_errno = errno;
		_exit(1);
	}
	if (write(ready[1], path, 1) != 1 || read(go[0], path, 1) != 1)
		_exit(1);
	for (k = 0; k < rounds; k++) {
		size_t len = block_len(k);

		for (j = 1; j < n; j++) {
			unsigned int to = (r + j) % n, from = (r + n - j) % n;
			struct vcube_recv rv = {
				.src = from, .tag = k, .flags = VCUBE_RECV_NONBLOCK,
				.buf = (uintptr_t)rb, .len = len,
			};
			struct vcube_send sd = {
				.dst = to, .tag = k, .buf = (uintptr_t)sb,
				.len = len,
			};
			struct vcube_wait w = { 0 };

			fill(sb, len, run ^ ((uint64_t)r << 40) ^
			     ((uint64_t)to << 20) ^ ((uint64_t)k << 8) ^ j);
			if (call(fd, VCUBE_IOC_RECV, &rv, o) ||
			    call(fd, VCUBE_IOC_SEND, &sd, o))
				_exit(0);
			w.req = rv.st.req;
			if (call(fd, VCUBE_IOC_WAIT, &w, o))
				_exit(0);
			fill(want, len, run ^ ((uint64_t)from << 40) ^
			     ((uint64_t)r << 20) ^ ((uint64_t)k << 8) ^ j);
			o->checked++;
			if (w.st.len != len || w.st.src != from ||
			    memcmp(rb, want, len))
				o->corrupt++;
		}
	}
	o->done = 1;
	_exit(0);
}

static int owners_clear(unsigned int n)
{
	unsigned int i;
	char path[64];
	int pid, busy = 0;
	FILE *f;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/sys/class/vcube/vcube%u/owner", i);
		f = fopen(path, "r");
		if (!f || fscanf(f, "%d", &pid) != 1 || pid)
			busy++;
		if (f)
			fclose(f);
	}
	return !busy;
}

/*
 * One exchange of @n ranks; if @kill, one rank is killed after @after_us.
 * Returns how many ranks were still running after @limit s (0: all ended).
 */
static unsigned int exchange(unsigned int n, unsigned int rounds, uint64_t run,
			     int victim, unsigned int after_us,
			     unsigned int limit)
{
	pid_t pid[MAX_RANKS] = { 0 };
	unsigned int i, left = n;
	time_t end = time(NULL) + limit;
	int status;

	char c[MAX_RANKS] = { 0 };

	memset(out, 0, sizeof(*out) * MAX_RANKS);
	if (pipe(ready) || pipe(go))
		return n;
	for (i = 0; i < n; i++) {
		pid[i] = fork();
		if (!pid[i])
			rank(i, n, rounds, run);
	}
	/* all bound, then all go (a rank that failed to bind: none do) */
	for (i = 0; i < n && read(ready[0], c, 1) == 1; i++)
		;
	if (i == n && write(go[1], c, n) != (ssize_t)n)
		i = 0;
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	if (victim >= 0) {
		usleep(after_us);
		kill(pid[victim], SIGKILL);
	}
	while (left && time(NULL) < end) {
		pid_t p = waitpid(-1, &status, WNOHANG);

		if (p > 0)
			left--;
		else
			usleep(10000);
	}
	if (left) {
		for (i = 0; i < n; i++)
			kill(pid[i], SIGKILL);
		while (waitpid(-1, &status, 0) > 0)
			;
	}
	return left;
}

/* The command line's numbers. */
struct args {
	unsigned int n, rounds, kills;
	unsigned long long seed;
};

/* What the runs add up to. */
struct tally {
	unsigned int stuck, finished, deadlocked, notidle, cleanbad;
	unsigned int bad_errno;
	unsigned long long checked, corrupt;
};

/* Parse the options into @a: -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "ranks", 1, NULL, 'r' }, { "rounds", 1, NULL, 'k' },
		{ "kills", 1, NULL, 'n' }, { "seed", 1, NULL, 's' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': a->n = strtoul(optarg, NULL, 0); break;
		case 'k': a->rounds = strtoul(optarg, NULL, 0); break;
		case 'n': a->kills = strtoul(optarg, NULL, 0); break;
		case 's': a->seed = strtoull(optarg, NULL, 0); break;
		case 'h':
			printf("usage: killx [--ranks R] [--rounds K] [--kills N] [--seed S]\n"
			       "N exchanges of R ranks (default 16), K rounds each, one rank\n"
			       "killed (SIGKILL) at a random moment of each; then a clean one.\n");
			return 0;
		default:
			return 2;
		}
	}
	if (a->n < 2 || a->n > MAX_RANKS || optind != argc) {
		fprintf(stderr, "killx: --ranks is 2..%d\n", MAX_RANKS);
		return 2;
	}
	return -1;
}

/* A clean exchange first: how long one takes (us), to kill inside it. */
static unsigned int clean_first(const struct args *a, struct tally *t)
{
	struct timespec t0, t1;
	unsigned int i, clean_us;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	t->cleanbad += exchange(a->n, a->rounds, a->seed, -1, 0, 300) != 0;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clean_us = (t1.tv_sec - t0.tv_sec) * 1000000 +
		   (t1.tv_nsec - t0.tv_nsec) / 1000;
	for (i = 0; i < a->n; i++)
		t->cleanbad += !out[i].done || out[i].corrupt;
	return clean_us;
}

/*
 * Run @it, seeded @s: an exchange with a random rank killed within
 * @clean_us, what the survivors say, then a clean exchange after it.
 */
static void one_kill(const struct args *a, unsigned int it,
		     unsigned long long s, unsigned int clean_us,
		     struct tally *t)
{
	unsigned int i, n = a->n;
	int victim;

	victim = (int)(s % n);
	t->stuck += exchange(n, a->rounds, s, victim,
			     (unsigned int)(mix(s) % (clean_us + 1)), 300);
	for (i = 0; i < n; i++) {
		if ((int)i == victim)
			continue;
		t->finished += out[i].done;
		t->deadlocked += out[i].deadlocked;
		t->checked += out[i].checked;
		t->corrupt += out[i].corrupt;
		if (out[i].bad_errno) {
			fprintf(stderr, "# run %u rank %u: %s\n", it, i,
				strerror(out[i].bad_errno));
			t->bad_errno++;
		}
	}
	t->notidle += !owners_clear(n);
	/* and the network works after it, every byte right */
	t->cleanbad += exchange(n, a->rounds, s + 1, -1, 0, 300) != 0;
	for (i = 0; i < n; i++)
		t->cleanbad += !out[i].done || out[i].corrupt;
}

/* The counts and one pass/fail line per property; the exit status. */
static int report(const struct args *a, unsigned int clean_us,
		  const struct tally *t)
{
	printf("killx: %u exchanges of %u ranks x %u rounds, each with one kill -9 within %u us: survivors finished %u, told EDEADLK %u, other errors %u; %llu blocks checked, %llu corrupt\n",
	       a->kills, a->n, a->rounds, clean_us, t->finished, t->deadlocked,
	       t->bad_errno, t->checked, t->corrupt);
	printf("%s - killx: survivors finish or get EDEADLK (%u other errors, %u stuck)\n",
	       !t->bad_errno && !t->stuck ? "ok" : "not ok", t->bad_errno,
	       t->stuck);
	printf("%s - killx: every block that arrived is the one sent (%llu checked)\n",
	       !t->corrupt ? "ok" : "not ok", t->checked);
	printf("%s - killx: after each, every node unbound (%u not) and a clean exchange whole (%u failed)\n",
	       !t->notidle && !t->cleanbad ? "ok" : "not ok", t->notidle,
	       t->cleanbad);
	return t->bad_errno || t->stuck || t->corrupt || t->notidle ||
	       t->cleanbad;
}

int main(int argc, char **argv)
{
	struct args a = { .n = 16, .rounds = 6, .kills = 10, .seed = 1 };
	struct tally t = { 0 };
	unsigned long long s;
	unsigned int it, clean_us;
	int ret;

	ret = parse(argc, argv, &a);
	if (ret >= 0)
		return ret;
	out = mmap(NULL, sizeof(*out) * MAX_RANKS, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (out == MAP_FAILED)
		return perror("mmap"), 1;

	clean_us = clean_first(&a, &t);
	s = a.seed;
	for (it = 0; it < a.kills; it++) {
		s = mix(s + it);
		one_kill(&a, it, s, clean_us, &t);
	}
	return report(&a, clean_us, &t);
}
