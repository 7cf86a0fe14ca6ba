// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-run: where the ranks run. --nodes LIST (libvcube's node lists:
 * 8-15, 0,4,8-11) or --rankfile FILE in Open MPI's syntax, one "rank
 * R=HOST slot=NODE" a line, '#' starting a comment. vcube's nodes are all
 * on this machine, so HOST must name it (localhost, or its host name,
 * whole or up to the first dot): a rankfile written for a cluster is
 * refused, not run here as if it fitted; SLOT is one node number (Open
 * MPI's socket:core has no meaning here). Every error is one line naming
 * what was wrong and where.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vcube-run/run.h"
#include "vcube.h"

static int place_alloc(struct run_place *p, unsigned int n)
{
	p->n = n;
	p->node = calloc(n, sizeof(*p->node));
	p->line = calloc(n, sizeof(*p->line));
	if (!p->node || !p->line) {
		fprintf(stderr, "vcube-run: out of memory\n");
		return 2;
	}
	return 0;
}

/* A node named twice: the first rank on it again; -1 if none is. */
static int place_twice(const struct run_place *p)
{
	unsigned int i, j;

	for (j = 1; j < p->n; j++)
		for (i = 0; i < j; i++)
			if (p->node[i] == p->node[j])
				return (int)j;
	return -1;
}

static int place_list(struct run_place *p, const char *list, unsigned long n)
{
	size_t count;
	int ret, j;

	ret = vcube_nodelist_parse(list, NULL, 0, &count);
	if (ret) {
		fprintf(stderr, "vcube-run: --nodes '%s': %s\n", list,
			ret == -ERANGE ? "a node past any network's" :
			"not a node list (like 8-15 or 0,4,8-11)");
		return 2;
	}
	if (count > RUN_MAX_RANKS) {
		fprintf(stderr, "vcube-run: --nodes '%s': %zu nodes, more than the %u processes vcube-run starts\n",
			list, count, RUN_MAX_RANKS);
		return 2;
	}
	if (n && n != count) {
		fprintf(stderr, "vcube-run: --nodes '%s' lists %zu node%s, but -n is %lu\n",
			list, count, count == 1 ? "" : "s", n);
		return 2;
	}
	if (place_alloc(p, (unsigned int)count))
		return 2;
	vcube_nodelist_parse(list, p->node, count, &count);
	j = place_twice(p);
	if (j >= 0) {
		fprintf(stderr, "vcube-run: --nodes '%s': node %u twice\n", list,
			p->node[j]);
		return 2;
	}
	p->from = list;
	p->given = true;
	return 0;
}

/* This machine, as a rankfile's HOST may name it. */
static bool rankfile_host_ok(const char *host)
{
	char me[HOST_NAME_MAX + 1];
	size_t dot;

	if (!strcmp(host, "localhost"))
		return true;
	if (gethostname(me, sizeof(me)))
		return false;
	me[sizeof(me) - 1] = '\0';
	dot = strcspn(me, ".");
	return !strcmp(host, me) ||
	       (strlen(host) == dot && !strncmp(host, me, dot));
}

/*
 * The words of @s, each '=' one of its own, into @tok (room for @max):
 * their number, or @max + 1 if there are more.
 */
static int rankfile_words(char *s, char **tok, int max)
{
	static char eq[] = "=";
	int n = 0;

	for (;;) {
		s += strspn(s, " \t\r");
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		if (*s == '=') {
			tok[n++] = eq;
			s++;
			continue;
		}
		tok[n++] = s;
		s += strcspn(s, " \t\r=");
		if (*s == '=') {
			*s++ = '\0';
			if (n == max)
				return max + 1;
			tok[n++] = eq;
		} else if (*s) {
			*s++ = '\0';
		}
	}
}

/* A decimal number, all of @w: 0 and *@v, or -1. */
static int rankfile_uint(const char *w, unsigned long max, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)*w))
		return -1;
	errno = 0;
	*v = strtoul(w, &end, 10);
	return errno || *end || *v > max ? -1 : 0;
}

/*
 * One line, its comment cut off: *@rank and *@node, 0; 1 for a line with
 * nothing on it; 2 with the error said.
 */
static int rankfile_line(char *s, const char *file, unsigned int ln,
			 unsigned long *rank, unsigned long *node)
{
	char *w[8];
	int n;

	s[strcspn(s, "#\n")] = '\0';
	n = rankfile_words(s, w, 7);
	if (!n)
		return 1;
	if (n != 7 || strcmp(w[0], "rank") || strcmp(w[2], "=") ||
	    strcmp(w[4], "slot") || strcmp(w[5], "=")) {
		fprintf(stderr, "vcube-run: %s:%u: not 'rank R=HOST slot=NODE'\n",
			file, ln);
		return 2;
	}
	if (rankfile_uint(w[1], RUN_MAX_RANKS - 1, rank)) {
		fprintf(stderr, "vcube-run: %s:%u: rank '%s' is not one of 0..%u\n",
			file, ln, w[1], RUN_MAX_RANKS - 1);
		return 2;
	}
	if (!rankfile_host_ok(w[3])) {
		fprintf(stderr, "vcube-run: %s:%u: host '%s' is not this machine (localhost or its name): vcube's nodes are all here\n",
			file, ln, w[3]);
		return 2;
	}
	if (rankfile_uint(w[6], VCUBE_ANY - 1, node)) {
		fprintf(stderr, "vcube-run: %s:%u: slot '%s' is not a node number\n",
			file, ln, w[6]);
		return 2;
	}
	return 0;
}

/* Rank @rank on @node, said at line @ln: 0, or 2 if either was before. */
static int rankfile_put(struct run_place *p, const char *file, unsigned int ln,
			unsigned long rank, unsigned long node)
{
	unsigned int i;

	if (rank >= p->n) {
		fprintf(stderr, "vcube-run: %s:%u: rank %lu, but -n is %u\n",
			file, ln, rank, p->n);
		return 2;
	}
	if (p->line[rank]) {
		fprintf(stderr, "vcube-run: %s:%u: rank %lu again (line %u)\n",
			file, ln, rank, p->line[rank]);
		return 2;
	}
	for (i = 0; i < p->n; i++) {
		if (p->line[i] && p->node[i] == node) {
			fprintf(stderr, "vcube-run: %s:%u: node %lu again (rank %u's, line %u)\n",
				file, ln, node, i, p->line[i]);
			return 2;
		}
	}
	p->node[rank] = (unsigned int)node;
	p->line[rank] = ln;
	return 0;
}

/* @f's lines into @p, whose n is -n's or the most ranks there can be. */
static int rankfile_read(struct run_place *p, FILE *f, const char *file,
			 unsigned int *top)
{
	unsigned long rank, node;
	unsigned int ln = 0;
	char buf[1024];
	int ret;

	*top = 0;
	while (fgets(buf, sizeof(buf), f)) {
		ln++;
		if (!strchr(buf, '\n') && !feof(f)) {
			fprintf(stderr, "vcube-run: %s:%u: a line past %zu characters\n",
				file, ln, sizeof(buf) - 2);
			return 2;
		}
		ret = rankfile_line(buf, file, ln, &rank, &node);
		if (ret == 1)
			continue;
		ret = ret ?: rankfile_put(p, file, ln, rank, node);
		if (ret)
			return ret;
		if (rank >= *top)
			*top = (unsigned int)rank + 1;
	}
	return 0;
}

static int place_rankfile(struct run_place *p, const char *file,
			  unsigned long n)
{
	unsigned int top, r;
	FILE *f = fopen(file, "r");
	int ret;

	if (!f) {
		fprintf(stderr, "vcube-run: --rankfile %s: %s\n", file,
			strerror(errno));
		return 2;
	}
	ret = place_alloc(p, n ? (unsigned int)n : RUN_MAX_RANKS);
	ret = ret ?: rankfile_read(p, f, file, &top);
	fclose(f);
	if (ret)
		return ret;
	if (!top) {
		fprintf(stderr, "vcube-run: %s: no 'rank R=HOST slot=NODE' line\n",
			file);
		return 2;
	}
	if (!n)
		p->n = top;
	for (r = 0; r < p->n; r++) {
		if (!p->line[r]) {
			fprintf(stderr, "vcube-run: %s: no line for rank %u (each of 0..%u needs one)\n",
				file, r, p->n - 1);
			return 2;
		}
	}
	p->from = file;
	p->given = true;
	return 0;
}

int run_place_make(struct run_place *p, const char *list, const char *file,
		   unsigned long n)
{
	unsigned int r;

	memset(p, 0, sizeof(*p));
	if (list && file) {
		fprintf(stderr, "vcube-run: --nodes and --rankfile both choose the nodes: give one\n");
		return 2;
	}
	if (list)
		return place_list(p, list, n);
	if (file)
		return place_rankfile(p, file, n);
	if (place_alloc(p, (unsigned int)n))
		return 2;
	for (r = 0; r < n; r++)
		p->node[r] = r;
	return 0;
}

int run_place_fits(const struct run_place *p, unsigned int nodes,
		   const char *net)
{
	unsigned int r;

	for (r = 0; r < p->n; r++) {
		if (p->node[r] < nodes)
			continue;
		if (p->line[r])
			fprintf(stderr, "vcube-run: %s:%u: ", p->from, p->line[r]);
		else
			fprintf(stderr, "vcube-run: --nodes '%s': ", p->from);
		fprintf(stderr, "node %u is past network %s's %u nodes (0-%u)\n",
			p->node[r], net, nodes, nodes - 1);
		return 2;
	}
	return 0;
}

int run_place_env(const struct run_place *p)
{
	size_t len = (size_t)p->n * 12 + 1;
	unsigned int r;
	char *list;
	int ret;

	for (r = 0; r < p->n && p->node[r] == r; r++)
		;
	if (r == p->n)
		return unsetenv("VCUBE_NODES") ? -errno : 0;
	list = malloc(len);
	if (!list)
		return -ENOMEM;
	ret = vcube_nodelist_format(p->node, p->n, list, len);
	if (!ret && setenv("VCUBE_NODES", list, 1))
		ret = -errno;
	free(list);
	return ret;
}

void run_place_free(struct run_place *p)
{
	free(p->node);
	free(p->line);
	p->node = NULL;
	p->line = NULL;
}
