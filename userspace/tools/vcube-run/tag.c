// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-run --tag-output: each rank's stdout and stderr are pipes that
 * vcube-run reads, and every line a rank writes goes out as one write,
 * "[1,R]<stdout>:" (or "<stderr>:") before it, as Open MPI's mpirun
 * --tag-output writes it: lines of several ranks never mix within a line.
 * What a rank wrote before it ended is all relayed, its last line given a
 * newline if it had none; a line past RUN_TAG_LINE bytes goes out in
 * pieces of that size, each a line of its own. When vcube-run's own stdout or stderr
 * is gone (a closed pipe), the ranks' pipes for it are closed too, so a
 * rank writing there gets SIGPIPE as it would without --tag-output.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "vcube-run/run.h"

#define RUN_TAG_LINE	(1U << 20)
#define RUN_TAG_READ	65536

struct run_stream {
	int fd;			/* the read end; -1 once closed */
	int wfd;		/* the write end, until the rank is started */
	unsigned int rank;
	int out;		/* STDOUT_FILENO or STDERR_FILENO */
	char *buf;		/* the prefix, then the line so far */
	size_t len, cap, head;	/* head: the prefix's length */
};

struct run_tag {
	unsigned int n;
	struct run_stream *s;	/* rank r's stdout at 2r, stderr at 2r + 1 */
	struct pollfd *pfd;
	unsigned int *idx;	/* the stream of each pfd */
	struct rlimit nofile;	/* as it was: the ranks get it back */
	bool raised;		/* ... if it was raised */
	bool gone[3];		/* vcube-run's fd 1 or 2 is gone */
};

/* Room for @want descriptors: the soft limit raised as far as needed. */
static int tag_room(struct run_tag *t, rlim_t want)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &t->nofile))
		return 0;
	if (t->nofile.rlim_cur == RLIM_INFINITY || t->nofile.rlim_cur >= want)
		return 0;
	r = t->nofile;
	r.rlim_cur = want;
	if ((r.rlim_max != RLIM_INFINITY && r.rlim_max < want) ||
	    setrlimit(RLIMIT_NOFILE, &r)) {
		fprintf(stderr, "vcube-run: --tag-output: %u ranks need %llu descriptors, past the limit of %llu (ulimit -Hn)\n",
			t->n, (unsigned long long)want,
			(unsigned long long)r.rlim_max);
		return 1;
	}
	t->raised = true;
	return 0;
}

static int tag_stream(struct run_stream *s, unsigned int rank, int out)
{
	int p[2];

	s->fd = s->wfd = -1;
	s->rank = rank;
	s->out = out;
	s->cap = 256;
	s->buf = malloc(s->cap);
	if (!s->buf || pipe2(p, O_CLOEXEC)) {
		perror("vcube-run: --tag-output");
		return 1;
	}
	s->fd = p[0];
	s->wfd = p[1];
	s->head = s->len = (size_t)snprintf(s->buf, s->cap, "[1,%u]<%s>:",
					    rank, out == STDOUT_FILENO ?
					    "stdout" : "stderr");
	return 0;
}

int run_tag_open(struct run_tag **tp, unsigned int n)
{
	struct run_tag *t = calloc(1, sizeof(*t));
	unsigned int i;

	*tp = t;
	if (t) {
		t->n = n;
		t->s = calloc(2 * (size_t)n, sizeof(*t->s));
		t->pfd = calloc(2 * (size_t)n + 1, sizeof(*t->pfd));
		t->idx = calloc(2 * (size_t)n, sizeof(*t->idx));
	}
	if (!t || !t->s || !t->pfd || !t->idx) {
		fprintf(stderr, "vcube-run: --tag-output: out of memory\n");
		return 1;
	}
	if (tag_room(t, 4 * (rlim_t)n + 64))
		return 1;
	for (i = 0; i < 2 * n; i++)
		t->s[i].fd = t->s[i].wfd = -1;
	for (i = 0; i < 2 * n; i++)
		if (tag_stream(&t->s[i], i / 2,
			       i % 2 ? STDERR_FILENO : STDOUT_FILENO))
			return 1;
	return 0;
}

/* @fd as the child's @to, open across exec (the other pipes close there). */
static int tag_dup(int fd, int to)
{
	if (fd == to)
		return fcntl(fd, F_SETFD, 0);
	return dup2(fd, to) < 0 ? -1 : 0;
}

void run_tag_child(struct run_tag *t, unsigned int rank)
{
	if (tag_dup(t->s[2 * rank].wfd, STDOUT_FILENO) ||
	    tag_dup(t->s[2 * rank + 1].wfd, STDERR_FILENO))
		_exit(126);
	if (t->raised)
		setrlimit(RLIMIT_NOFILE, &t->nofile);
}

void run_tag_parent(struct run_tag *t)
{
	unsigned int i;

	for (i = 0; i < 2 * t->n; i++) {
		if (t->s[i].wfd >= 0)
			close(t->s[i].wfd);
		t->s[i].wfd = -1;
	}
}

static void tag_close(struct run_stream *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

/* @len bytes to fd @out, all of them: false once it is gone. */
static bool tag_write(struct run_tag *t, int out, const char *b, size_t len)
{
	ssize_t w;

	while (len && !t->gone[out]) {
		w = write(out, b, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			t->gone[out] = true;
			break;
		}
		b += w;
		len -= (size_t)w;
	}
	return !t->gone[out];
}

/* Every stream writing to fd @out closed: vcube-run cannot pass it on. */
static void tag_gone(struct run_tag *t, int out)
{
	unsigned int i;

	for (i = 0; i < 2 * t->n; i++)
		if (t->s[i].out == out)
			tag_close(&t->s[i]);
}

/*
 * The prefix and @s's bytes up to @end out in one write, a newline added
 * if they do not end with one (over the byte at @end, put back after).
 */
static void tag_line(struct run_tag *t, struct run_stream *s, size_t end)
{
	bool nl = s->buf[end - 1] == '\n';
	char at = s->buf[end];	/* the buffer has a byte past its data */
	size_t rest = s->len - end;

	if (!nl)
		s->buf[end] = '\n';
	if (!tag_write(t, s->out, s->buf, end + !nl))
		tag_gone(t, s->out);
	s->buf[end] = at;
	memmove(s->buf + s->head, s->buf + end, rest);
	s->len = s->head + rest;
}

/*
 * Whole lines of @s out, and a line's first RUN_TAG_LINE bytes once it
 * has that many; all of it with @last (the rank's pipe ended).
 */
static void tag_lines(struct run_tag *t, struct run_stream *s, bool last)
{
	size_t have;
	char *nl;

	while ((have = s->len - s->head) > 0) {
		nl = memchr(s->buf + s->head, '\n',
			    have < RUN_TAG_LINE ? have : RUN_TAG_LINE);
		if (nl)
			tag_line(t, s, (size_t)(nl - s->buf) + 1);
		else if (have >= RUN_TAG_LINE)
			tag_line(t, s, s->head + RUN_TAG_LINE);
		else
			break;
	}
	if (last && s->len > s->head)
		tag_line(t, s, s->len);
}

/* Read what @s has: > 0 some, 0 at its end (or an error), -1 none yet. */
static int tag_read(struct run_tag *t, struct run_stream *s)
{
	ssize_t r;

	if (s->cap < s->len + RUN_TAG_READ + 1) {
		size_t cap = s->len + RUN_TAG_READ + 1;
		char *b = realloc(s->buf, cap);

		if (!b)
			return 0;
		s->buf = b;
		s->cap = cap;
	}
	do
		r = read(s->fd, s->buf + s->len, RUN_TAG_READ);
	while (r < 0 && errno == EINTR);
	if (r > 0) {
		s->len += (size_t)r;
		tag_lines(t, s, false);
		return 1;
	}
	return r < 0 && errno == EAGAIN ? -1 : 0;
}

static void tag_end(struct run_tag *t, struct run_stream *s)
{
	tag_lines(t, s, true);
	tag_close(s);
}

void run_tag_pump(struct run_tag *t, int wake)
{
	unsigned int i, k = 0, m;
	struct run_stream *s;

	for (i = 0; i < 2 * t->n; i++) {
		if (t->s[i].fd < 0)
			continue;
		t->idx[k] = i;
		t->pfd[k].fd = t->s[i].fd;
		t->pfd[k++].events = POLLIN;
	}
	t->pfd[k].fd = wake;
	t->pfd[k].events = POLLIN;
	if (poll(t->pfd, k + 1, -1) <= 0)
		return;		/* a signal: the caller looks again */
	for (m = 0; m < k; m++) {
		s = &t->s[t->idx[m]];
		/* (closed meanwhile if its side of vcube-run went) */
		if (s->fd >= 0 && t->pfd[m].revents && !tag_read(t, s))
			tag_end(t, s);
	}
}

void run_tag_drain(struct run_tag *t)
{
	unsigned int i;

	for (i = 0; i < 2 * t->n; i++) {
		if (t->s[i].fd < 0)
			continue;
		/*
		 * What the rank wrote is in the pipe; do not wait for an end
		 * that a process it left behind, holding the pipe, may delay.
		 */
		fcntl(t->s[i].fd, F_SETFL, O_NONBLOCK);
		while (t->s[i].fd >= 0 && tag_read(t, &t->s[i]) > 0)
			;
		tag_end(t, &t->s[i]);
	}
}

void run_tag_free(struct run_tag *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; t->s && i < 2 * t->n; i++) {
		tag_close(&t->s[i]);
		if (t->s[i].wfd >= 0)
			close(t->s[i].wfd);
		free(t->s[i].buf);
	}
	free(t->s);
	free(t->pfd);
	free(t->idx);
	free(t);
}
