// SPDX-License-Identifier: MIT
/*
 * A network read from a file (graph.h): loading, the checks both formats
 * share, and BookSim2's anynet format.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "graph.h"

int vcube_netfile_fail(struct vcube_netfile *g, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(g->err, sizeof(g->err), fmt, ap);
	va_end(ap);
	return err;
}

void vcube_netfile_free(struct vcube_netfile *g)
{
	free(g->node_router);
	free(g->node_lat);
	free(g->links);
	free(g->routes);
	g->node_router = g->node_lat = NULL;
	g->links = NULL;
	g->routes = NULL;
	g->routers = g->nodes = g->nlinks = g->nroutes = 0;
}

/* Every router reached from router 0 over the links: 0, or -EINVAL. */
static int graph_connected(struct vcube_netfile *g, const char *name)
{
	uint32_t *first, *next, *queue, head = 0, tail = 0, r, i, other;
	bool *seen;
	int ret = 0;

	first = malloc(g->routers * sizeof(*first));
	next = malloc(2 * (size_t)g->nlinks * sizeof(*next) + 1);
	queue = malloc(g->routers * sizeof(*queue));
	seen = calloc(g->routers, sizeof(*seen));
	if (!first || !next || !queue || !seen) {
		ret = vcube_netfile_fail(g, -ENOMEM, "%s: out of memory", name);
		goto out;
	}
	/* each router's link ends as a list: end 2i is a's, 2i+1 is b's */
	memset(first, 0xff, g->routers * sizeof(*first));
	for (i = 0; i < 2 * g->nlinks; i++) {
		r = i & 1 ? g->links[i / 2].b : g->links[i / 2].a;
		next[i] = first[r];
		first[r] = i;
	}
	seen[0] = true;
	queue[tail++] = 0;
	while (head < tail) {
		r = queue[head++];
		for (i = first[r]; i != UINT32_MAX; i = next[i]) {
			other = i & 1 ? g->links[i / 2].a : g->links[i / 2].b;
			if (!seen[other]) {
				seen[other] = true;
				queue[tail++] = other;
			}
		}
	}
	for (r = 0; r < g->routers && seen[r]; r++)
		;
	if (r < g->routers)
		ret = vcube_netfile_fail(g, -EINVAL,
				       "%s: router %u cannot be reached from router 0: the network must be connected",
				       name, r);
out:
	free(first);
	free(next);
	free(queue);
	free(seen);
	return ret;
}

int vcube_netfile_check(struct vcube_netfile *g, const char *name)
{
	uint32_t i;

	if (!g->routers)
		return vcube_netfile_fail(g, -EINVAL, "%s: no routers", name);
	if (g->routers > VCUBE_NETFILE_MAX_ROUTERS)
		return vcube_netfile_fail(g, -EINVAL, "%s: %u routers: at most %u are supported",
					name, g->routers, VCUBE_NETFILE_MAX_ROUTERS);
	if (g->nodes < 2)
		return vcube_netfile_fail(g, -EINVAL, "%s: %u nodes: a network needs at least 2",
					name, g->nodes);
	if (g->nodes > VCUBE_NETFILE_MAX_NODES)
		return vcube_netfile_fail(g, -EINVAL, "%s: %u nodes: at most %u are supported",
					name, g->nodes, VCUBE_NETFILE_MAX_NODES);
	if (g->nlinks > VCUBE_NETFILE_MAX_LINKS)
		return vcube_netfile_fail(g, -EINVAL, "%s: %u links: at most %u are supported",
					name, g->nlinks, VCUBE_NETFILE_MAX_LINKS);
	for (i = 0; i < g->nodes; i++)
		if (g->node_router[i] >= g->routers)
			return vcube_netfile_fail(g, -EINVAL, "%s: node %u is on no router",
						name, i);
	for (i = 0; i < g->nlinks; i++)
		if (g->links[i].a == g->links[i].b ||
		    g->links[i].a >= g->routers || g->links[i].b >= g->routers)
			return vcube_netfile_fail(g, -EINVAL, "%s: link %u joins router %u to %u",
						name, i, g->links[i].a, g->links[i].b);
	return graph_connected(g, name);
}

int vcube_netfile_parse(struct vcube_netfile *g, const char *name,
		      const char *text, size_t len, const char *format)
{
	size_t i = 0;
	int ret;

	memset(g, 0, sizeof(*g));
	if (!format) {
		while (i < len && isspace((unsigned char)text[i]))
			i++;
		format = i < len && text[i] == '<' ? "graphml" : "anynet";
	}
	if (!strcmp(format, "anynet"))
		ret = vcube_netfile_anynet(g, name, text, len);
	else if (!strcmp(format, "graphml"))
		ret = vcube_netfile_graphml(g, name, text, len);
	else
		return vcube_netfile_fail(g, -EINVAL, "%s: unknown format '%s': use anynet or graphml",
					name, format);
	g->format = !strcmp(format, "anynet") ? "anynet" : "graphml";
	if (!ret)
		ret = vcube_netfile_check(g, name);
	if (ret)
		vcube_netfile_free(g);
	return ret;
}

/* The file's bytes, at most 64 MiB: 0, or -errno said in g->err. */
static int graph_slurp(struct vcube_netfile *g, const char *path, char **text,
		       size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *b = NULL, *nb;
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (!f)
		return vcube_netfile_fail(g, -errno, "%s: %s", path, strerror(errno));
	for (;;) {
		nb = n + 1 >= cap || !b ? realloc(b, cap *= 2) : b;
		if (!nb) {
			ret = vcube_netfile_fail(g, -ENOMEM, "%s: out of memory", path);
			break;
		}
		b = nb;
		got = fread(b + n, 1, cap - n - 1, f);
		n += got;
		if (n > (64U << 20)) {
			ret = vcube_netfile_fail(g, -EFBIG, "%s: larger than 64 MiB", path);
			break;
		}
		if (got)
			continue;
		if (ferror(f))
			ret = vcube_netfile_fail(g, -EIO, "%s: read error", path);
		break;
	}
	fclose(f);
	if (ret) {
		free(b);
		return ret;
	}
	b[n] = 0;
	*text = b;
	*len = n;
	return 0;
}

int vcube_netfile_load(struct vcube_netfile *g, const char *path,
		     const char *format)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = graph_slurp(g, path, &text, &len);
	if (!ret)
		ret = vcube_netfile_parse(g, path, text, len, format);
	free(text);
	return ret;
}

/* The value of word @key= in @w, or NULL. */
static const char *graph_word(const char *w, const char *key)
{
	size_t n = strlen(key);

	return !strncmp(w, key, n) && w[n] == '=' ? w + n + 1 : NULL;
}

/* One routes line's three ids into @e: 1, 0 for a blank one, or -1. */
static int graph_route_line(const char *line, const struct vcube_netfile *g,
			    uint16_t *e)
{
	unsigned long v[3];
	char *end;
	int k;

	for (k = 0; k < 3; k++) {
		while (*line == ' ' || *line == '\t')
			line++;
		if (!k && (*line == '#' || *line == '\n' || *line == '\r' ||
			   !*line))
			return 0;
		if (*line < '0' || *line > '9')
			return -1;
		v[k] = strtoul(line, &end, 10);
		if (v[k] >= g->routers)
			return -1;
		e[k] = (uint16_t)v[k];
		line = end;
	}
	line += strspn(line, " \t\r\n");
	return *line && *line != '#' ? -1 : 1;
}

int vcube_netfile_routes(struct vcube_netfile *g, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	uint32_t n = 0, cap = 0;
	uint16_t e[3], *grown;
	int ret;

	if (!f)
		return vcube_netfile_fail(g, -errno, "routes=%s: %s", path,
					  strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		n++;
		ret = graph_route_line(line, g, e);
		if (ret < 0) {
			fclose(f);
			return vcube_netfile_fail(g, -EINVAL,
						  "%s:%u: not 'ROUTER TOWARD NEXT', three routers of 0..%u",
						  path, n, g->routers - 1);
		}
		if (!ret)
			continue;
		if (g->nroutes == 65536) {
			fclose(f);
			return vcube_netfile_fail(g, -E2BIG, "%s:%u: more than 65536 routes",
						  path, n);
		}
		if (g->nroutes == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(g->routes, 3 * (size_t)cap * sizeof(*grown));
			if (!grown) {
				fclose(f);
				return vcube_netfile_fail(g, -ENOMEM, "%s: out of memory", path);
			}
			g->routes = grown;
		}
		memcpy(g->routes + 3 * g->nroutes++, e, sizeof(e));
	}
	fclose(f);
	return 0;
}

int vcube_netfile_words(struct vcube_netfile *g, int *argc, char **argv)
{
	const char *path = NULL, *format = NULL, *routes = NULL, *v;
	int i, n = 0, ret;

	memset(g, 0, sizeof(*g));
	for (i = 0; i < *argc; i++) {
		if ((v = graph_word(argv[i], "file")))
			path = v;
		else if ((v = graph_word(argv[i], "format")))
			format = v;
		else if ((v = graph_word(argv[i], "routes")))
			routes = v;
		else
			argv[n++] = argv[i];
	}
	*argc = n;
	if (n < i)
		argv[n] = NULL;
	if (format && strcmp(format, "anynet") && strcmp(format, "graphml"))
		return vcube_netfile_fail(g, -EINVAL,
					  "unknown format=%s: use anynet or graphml",
					  format);
	if (!path)
		return format || routes ?
		       vcube_netfile_fail(g, -EINVAL, "%s= needs file=",
					  format ? "format" : "routes") : 0;
	if (!*path)
		return vcube_netfile_fail(g, -EINVAL, "file= needs a path");
	ret = vcube_netfile_load(g, path, format);
	return ret || !routes ? ret : vcube_netfile_routes(g, routes);
}

int vcube_netfile_u16(const struct vcube_netfile *g, uint16_t **node_router,
		      uint16_t **links)
{
	uint32_t i;

	*node_router = calloc(g->nodes + 1, sizeof(uint16_t));
	*links = calloc(2 * (size_t)g->nlinks + 1, sizeof(uint16_t));
	if (!*node_router || !*links) {
		free(*node_router);
		free(*links);
		*node_router = *links = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < g->nodes; i++)
		(*node_router)[i] = (uint16_t)g->node_router[i];
	for (i = 0; i < g->nlinks; i++) {
		(*links)[2 * i] = (uint16_t)g->links[i].a;
		(*links)[2 * i + 1] = (uint16_t)g->links[i].b;
	}
	return 0;
}

int vcube_netfile_has_costs(const struct vcube_netfile *g)
{
	uint32_t i;

	for (i = 0; i < g->nlinks; i++)
		if (g->links[i].bw || g->links[i].lat[0] || g->links[i].lat[1])
			return 1;
	for (i = 0; g->node_lat && i < g->nodes; i++)
		if (g->node_lat[i])
			return 1;
	return 0;
}

int vcube_netfile_costs(struct vcube_netfile *g, uint32_t **costs)
{
	size_t nodes = g->nodes, base = 4 * nodes;
	uint32_t i, *c;
	uint64_t ps;

	*costs = NULL;
	if (!vcube_netfile_has_costs(g))
		return 0;
	if (!strcmp(g->format, "anynet"))
		return vcube_netfile_fail(g, -EOPNOTSUPP,
					  "anynet's latencies are cycles, not modelled: the profile's costs apply");
	c = calloc(base + 4 * (size_t)g->nlinks, sizeof(*c));
	if (!c)
		return vcube_netfile_fail(g, -ENOMEM,
					  "out of memory: the graph's costs");
	for (i = 0; g->node_lat && i < g->nodes; i++) {
		c[2 * i] = g->node_lat[i];
		c[2 * (nodes + i)] = g->node_lat[i];
	}
	for (i = 0; i < g->nlinks; i++) {
		const struct vcube_netfile_link *l = &g->links[i];

		ps = l->bw ? (1000000000000ULL + l->bw / 2) / l->bw : 0;
		if (ps > 1000000000ULL) {
			free(c);
			return vcube_netfile_fail(g, -ERANGE,
						  "link %u: %llu bytes/s is under 1000 bytes/s, the slowest vcube models",
						  i, (unsigned long long)l->bw);
		}
		c[base + 4 * i] = l->lat[0];
		c[base + 4 * i + 1] = (uint32_t)(ps ? ps : l->bw ? 1 : 0);
		c[base + 4 * i + 2] = l->lat[1];
		c[base + 4 * i + 3] = c[base + 4 * i + 1];
	}
	*costs = c;
	return 0;
}

/* ---- anynet ----------------------------------------------------------- */

/* One "a -> b" a line named, with its latency (0: none), for merging. */
struct anynet_ref {
	uint32_t from, to, lat, line;
};

struct anynet {
	struct vcube_netfile *g;
	const char *name;
	uint32_t line;
	uint32_t nodes, routers;	/* one past the largest id seen */
	uint32_t cap_nodes;
	bool *router_seen;		/* [VCUBE_NETFILE_MAX_ROUTERS] */
	struct anynet_ref *refs;
	size_t nrefs, cap_refs;
};

/* An id or latency: decimal digits only, at most @max. */
static int anynet_num(struct anynet *a, const char *tok, uint32_t max,
		      const char *what, uint32_t *v)
{
	unsigned long long x = 0;
	const char *p;

	for (p = tok; *p; p++) {
		if (!isdigit((unsigned char)*p) || x > max)
			break;
		x = x * 10 + (*p - '0');
	}
	if (p == tok || *p || x > max)
		return vcube_netfile_fail(a->g, -EINVAL, "%s:%u: '%s' is not a %s (0..%u)",
					a->name, a->line, tok, what, max);
	*v = (uint32_t)x;
	return 0;
}

/* Room for node @n: 0 or -ENOMEM. */
static int anynet_node_room(struct anynet *a, uint32_t n)
{
	struct vcube_netfile *g = a->g;
	uint32_t cap = a->cap_nodes ? a->cap_nodes : 64, i;
	uint32_t *r, *l;

	if (n < a->cap_nodes)
		return 0;
	while (cap <= n)
		cap *= 2;
	r = realloc(g->node_router, cap * sizeof(*r));
	if (r)
		g->node_router = r;
	l = r ? realloc(g->node_lat, cap * sizeof(*l)) : NULL;
	if (!l)
		return vcube_netfile_fail(g, -ENOMEM, "%s: out of memory", a->name);
	g->node_lat = l;
	for (i = a->cap_nodes; i < cap; i++) {
		r[i] = UINT32_MAX;
		l[i] = 0;
	}
	a->cap_nodes = cap;
	return 0;
}

/* Node @n hangs off router @r, with latency @lat (0: none given). */
static int anynet_attach(struct anynet *a, uint32_t n, uint32_t r, uint32_t lat)
{
	struct vcube_netfile *g = a->g;
	int ret = anynet_node_room(a, n);

	if (ret)
		return ret;
	if (g->node_router[n] != UINT32_MAX && g->node_router[n] != r)
		return vcube_netfile_fail(g, -EINVAL, "%s:%u: node %u is on router %u and router %u: a node hangs off one router",
					a->name, a->line, n, g->node_router[n], r);
	g->node_router[n] = r;
	if (lat)
		g->node_lat[n] = lat;
	if (n >= a->nodes)
		a->nodes = n + 1;
	return 0;
}

static int anynet_ref(struct anynet *a, uint32_t from, uint32_t to)
{
	struct anynet_ref *nr;

	if (from == to)
		return vcube_netfile_fail(a->g, -EINVAL, "%s:%u: router %u is linked to itself",
					a->name, a->line, from);
	if (a->nrefs == a->cap_refs) {
		a->cap_refs = a->cap_refs ? 2 * a->cap_refs : 256;
		nr = realloc(a->refs, a->cap_refs * sizeof(*nr));
		if (!nr)
			return vcube_netfile_fail(a->g, -ENOMEM, "%s: out of memory", a->name);
		a->refs = nr;
	}
	a->refs[a->nrefs++] = (struct anynet_ref){ from, to, 0, a->line };
	if (a->nrefs / 2 > VCUBE_NETFILE_MAX_LINKS)
		return vcube_netfile_fail(a->g, -EINVAL, "%s:%u: more than %u links",
					a->name, a->line, VCUBE_NETFILE_MAX_LINKS);
	return 0;
}

static int anynet_kind(const char *tok)
{
	if (!strcasecmp(tok, "router"))
		return 1;
	if (!strcasecmp(tok, "node"))
		return 0;
	return -1;
}

static void anynet_router(struct anynet *a, uint32_t r)
{
	a->router_seen[r] = true;
	if (r >= a->routers)
		a->routers = r + 1;
}

/*
 * One line's words: HEAD_KIND HEAD_ID (KIND ID [LAT])... A latency follows
 * the body it is for. 0, or -errno said.
 */
static int anynet_line(struct anynet *a, char *line)
{
	static const uint32_t max[2] = { VCUBE_NETFILE_MAX_NODES - 1,
					 VCUBE_NETFILE_MAX_ROUTERS - 1 };
	static const char *const what[2] = { "node id", "router id" };
	int hk = -1, bk = -1, k, ret;
	uint32_t head = 0, id = 0, lat;
	bool have_head = false, have_body = false, lat_ok = false;
	char *tok, *save = NULL;

	for (tok = strtok_r(line, " \t\r", &save); tok;
	     tok = strtok_r(NULL, " \t\r", &save)) {
		k = anynet_kind(tok);
		if (k < 0 && lat_ok && isdigit((unsigned char)*tok)) {
			ret = anynet_num(a, tok, VCUBE_NETFILE_MAX_LAT, "latency in cycles", &lat);
			if (ret)
				return ret;
			if (!lat)
				return vcube_netfile_fail(a->g, -EINVAL, "%s:%u: a latency of 0 cycles",
							a->name, a->line);
			if (hk == 1 && bk == 1)
				a->refs[a->nrefs - 2].lat = lat;
			else
				a->g->node_lat[hk ? id : head] = lat;
			lat_ok = false;
			continue;
		}
		if (k < 0)
			return vcube_netfile_fail(a->g, -EINVAL, "%s:%u: '%s' where 'router' or 'node' belongs",
						a->name, a->line, tok);
		tok = strtok_r(NULL, " \t\r", &save);
		if (!tok)
			return vcube_netfile_fail(a->g, -EINVAL, "%s:%u: '%s' without an id",
						a->name, a->line, k ? "router" : "node");
		ret = anynet_num(a, tok, max[k], what[k], &id);
		if (ret)
			return ret;
		if (k)
			anynet_router(a, id);
		if (!have_head) {
			hk = k;
			head = id;
			have_head = true;
			if (!k && (ret = anynet_node_room(a, id)))
				return ret;
			continue;
		}
		bk = k;
		have_body = true;
		lat_ok = true;
		if (!hk && !bk)
			return vcube_netfile_fail(a->g, -EINVAL, "%s:%u: node %u linked to node %u: nodes hang off routers",
						a->name, a->line, head, id);
		if (!hk)
			ret = anynet_attach(a, head, id, 0);
		else if (!bk)
			ret = anynet_attach(a, id, head, 0);
		else if (!(ret = anynet_ref(a, head, id)))
			ret = anynet_ref(a, id, head);
		if (ret)
			return ret;
	}
	if (have_head && !have_body && !hk)
		return vcube_netfile_fail(a->g, -EINVAL, "%s:%u: node %u names no router",
					a->name, a->line, head);
	return 0;
}

static int anynet_ref_cmp(const void *x, const void *y)
{
	const struct anynet_ref *p = x, *q = y;
	uint32_t pa = p->from < p->to ? p->from : p->to;
	uint32_t qa = q->from < q->to ? q->from : q->to;
	uint32_t pb = p->from ^ p->to ^ pa, qb = q->from ^ q->to ^ qa;

	if (pa != qa)
		return pa < qa ? -1 : 1;
	if (pb != qb)
		return pb < qb ? -1 : 1;
	return p->line < q->line ? -1 : p->line > q->line;
}

/*
 * The links: every pair of routers named, once (BookSim keeps one channel
 * each way per pair). A direction's latency is the last one given for it.
 */
static int anynet_links(struct anynet *a)
{
	struct vcube_netfile *g = a->g;
	struct anynet_ref *r;
	size_t i;
	uint32_t lo, hi;

	if (a->nrefs)
		qsort(a->refs, a->nrefs, sizeof(*a->refs), anynet_ref_cmp);
	g->links = calloc(a->nrefs / 2 + 1, sizeof(*g->links));
	if (!g->links)
		return vcube_netfile_fail(g, -ENOMEM, "%s: out of memory", a->name);
	for (i = 0; i < a->nrefs; i++) {
		r = &a->refs[i];
		lo = r->from < r->to ? r->from : r->to;
		hi = r->from ^ r->to ^ lo;
		if (!g->nlinks || g->links[g->nlinks - 1].a != lo ||
		    g->links[g->nlinks - 1].b != hi)
			g->links[g->nlinks++] = (struct vcube_netfile_link){ .a = lo, .b = hi };
		if (r->lat)
			g->links[g->nlinks - 1].lat[r->from != lo] = r->lat;
	}
	return 0;
}

/* Ids count from 0 without gaps, as BookSim requires. */
static int anynet_ids(struct anynet *a)
{
	uint32_t i;

	for (i = 0; i < a->routers; i++)
		if (!a->router_seen[i])
			return vcube_netfile_fail(a->g, -EINVAL, "%s: router %u is never named: ids count from 0 without gaps",
						a->name, i);
	for (i = 0; i < a->nodes; i++)
		if (a->g->node_router[i] == UINT32_MAX)
			return vcube_netfile_fail(a->g, -EINVAL, "%s: node %u is on no router: ids count from 0 without gaps",
						a->name, i);
	return 0;
}

int vcube_netfile_anynet(struct vcube_netfile *g, const char *name,
		       const char *text, size_t len)
{
	struct anynet a = { .g = g, .name = name };
	const char *p = text, *end = text + len, *nl;
	char *line = NULL;
	int ret = 0;

	a.router_seen = calloc(VCUBE_NETFILE_MAX_ROUTERS, sizeof(bool));
	if (!a.router_seen)
		return vcube_netfile_fail(g, -ENOMEM, "%s: out of memory", name);
	if (memchr(text, 0, len))
		ret = vcube_netfile_fail(g, -EINVAL, "%s: a NUL byte: not a text file", name);
	for (; !ret && p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		a.line++;
		free(line);
		line = strndup(p, nl - p);
		if (!line) {
			ret = vcube_netfile_fail(g, -ENOMEM, "%s: out of memory", name);
			break;
		}
		/* '#' to the end of a line is a comment (vcube's, not BookSim's) */
		if (strchr(line, '#'))
			*strchr(line, '#') = 0;
		ret = anynet_line(&a, line);
	}
	free(line);
	if (!ret && !a.routers)
		ret = vcube_netfile_fail(g, -EINVAL, "%s: no 'router' line: not an anynet file", name);
	if (!ret)
		ret = anynet_ids(&a);
	if (!ret)
		ret = anynet_links(&a);
	g->routers = a.routers;
	g->nodes = a.nodes;
	free(a.refs);
	free(a.router_seen);
	return ret;
}
