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

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ranks", 1, NULL, 'r' }, { "rounds", 1, NULL, 'k' },
		{ "kills", 1, NULL, 'n' }, { "seed", 1, NULL, 's' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	unsigned int n = 16, rounds = 6, kills = 10, it, i, stuck = 0;
	unsigned int finished = 0, deadlocked = 0, notidle = 0, cleanbad = 0;
	unsigned long long seed = 1, checked = 0, corrupt = 0, s;
	unsigned int bad_errno = 0, clean_us = 0;
	struct timespec t0, t1;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': n = strtoul(optarg, NULL, 0); break;
		case 'k': rounds = strtoul(optarg, NULL, 0); break;
		case 'n': kills = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'h':
			printf("usage: killx [--ranks R] [--rounds K] [--kills N] [--seed S]\n"
			       "N exchanges of R ranks (default 16), K rounds each, one rank\n"
			       "killed (SIGKILL) at a random moment of each; then a clean one.\n");
			return 0;
		default:
			return 2;
		}
	}
	if (n < 2 || n > MAX_RANKS || optind != argc) {
		fprintf(stderr, "killx: --ranks is 2..%d\n", MAX_RANKS);
		return 2;
	}
	out = mmap(NULL, sizeof(*out) * MAX_RANKS, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (out == MAP_FAILED)
		return perror("mmap"), 1;

	/* a clean exchange first: how long one takes, to kill inside it */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	cleanbad += exchange(n, rounds, seed, -1, 0, 300) != 0;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clean_us = (t1.tv_sec - t0.tv_sec) * 1000000 +
		   (t1.tv_nsec - t0.tv_nsec) / 1000;
	for (i = 0; i < n; i++)
		cleanbad += !out[i].done || out[i].corrupt;

	s = seed;
	for (it = 0; it < kills; it++) {
		int victim;

		s = mix(s + it);
		victim = (int)(s % n);
		stuck += exchange(n, rounds, s, victim,
				  (unsigned int)(mix(s) % (clean_us + 1)), 300);
		for (i = 0; i < n; i++) {
			if ((int)i == victim)
				continue;
			finished += out[i].done;
			deadlocked += out[i].deadlocked;
			checked += out[i].checked;
			corrupt += out[i].corrupt;
			if (out[i].bad_errno) {
				fprintf(stderr, "# run %u rank %u: %s\n", it, i,
					strerror(out[i].bad_errno));
				bad_errno++;
			}
		}
		notidle += !owners_clear(n);
		/* and the network works after it, every byte right */
		cleanbad += exchange(n, rounds, s + 1, -1, 0, 300) != 0;
		for (i = 0; i < n; i++)
			cleanbad += !out[i].done || out[i].corrupt;
	}
	printf("killx: %u exchanges of %u ranks x %u rounds, each with one kill -9 within %u us: survivors finished %u, told EDEADLK %u, other errors %u; %llu blocks checked, %llu corrupt\n",
	       kills, n, rounds, clean_us, finished, deadlocked, bad_errno,
	       checked, corrupt);
	printf("%s - killx: survivors finish or get EDEADLK (%u other errors, %u stuck)\n",
	       !bad_errno && !stuck ? "ok" : "not ok", bad_errno, stuck);
	printf("%s - killx: every block that arrived is the one sent (%llu checked)\n",
	       !corrupt ? "ok" : "not ok", checked);
	printf("%s - killx: after each, every node unbound (%u not) and a clean exchange whole (%u failed)\n",
	       !notidle && !cleanbad ? "ok" : "not ok", notidle, cleanbad);
	return bad_errno || stuck || corrupt || notidle || cleanbad;
}
