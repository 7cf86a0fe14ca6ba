// SPDX-License-Identifier: MIT
/*
 * GraphML, as SST Merlin's anytopo reads it (networkx's read_graphml):
 * an undirected graph whose vertices are routers, each with an integer
 * "endpoints" attribute, and whose edges are links (parallel ones too).
 * Optional edge attributes: "latency" (ns, or with a unit: 100ns, 1.5us)
 * and "bandwidth" (bytes/s, or with a unit: 12.5GB/s, 100Gb/s). Read with
 * libxml2, the network never touched (XML_PARSE_NONET), no entities
 * expanded.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "graph.h"

enum { KEY_ENDPOINTS, KEY_LATENCY, KEY_BANDWIDTH, NKEYS };
static const char *const key_names[NKEYS] = { "endpoints", "latency",
					      "bandwidth" };

struct gml_id {
	const char *id;
	uint32_t r;
};

struct gml {
	struct vcube_netfile *g;
	const char *name;
	char *id[NKEYS];		/* the <key> ids of our attributes */
	char *dflt[NKEYS];		/* their <default>s, if any */
	char **vid;			/* [routers]: vertex ids, in order */
	struct gml_id *byid;		/* [routers]: sorted by id */
	uint32_t cap_links;
};

static bool is(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

static char *attr(const xmlNode *n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
}

/* @n's text as a malloc()ed string (libxml2's is freed with xmlFree). */
static char *gml_text(const xmlNode *n)
{
	xmlChar *x = xmlNodeGetContent(n);
	char *s = x ? strdup((const char *)x) : NULL;

	xmlFree(x);
	return s;
}

static int gml_line(const xmlNode *n)
{
	return (int)xmlGetLineNo(n);
}

/* The value a number with an optional unit means, scaled by the unit. */
static int gml_value(const char *s, const char *const *units,
		     const double *scale, double *v)
{
	char *end;
	int i;

	*v = strtod(s, &end);
	if (end == s || !isfinite(*v) || *v < 0)
		return -EINVAL;
	while (*end == ' ')
		end++;
	if (!*end)
		return 0;
	for (i = 0; units[i]; i++) {
		if (!strcmp(end, units[i])) {
			*v *= scale[i];
			return 0;
		}
	}
	return -EINVAL;
}

static int gml_latency(const char *s, uint32_t *ns)
{
	static const char *const u[] = { "ns", "us", "ms", "s", NULL };
	static const double k[] = { 1, 1e3, 1e6, 1e9 };
	double v;

	if (gml_value(s, u, k, &v) || v > VCUBE_NETFILE_MAX_LAT || v < 0.5)
		return -EINVAL;
	*ns = (uint32_t)llround(v);
	return 0;
}

static int gml_bandwidth(const char *s, uint64_t *bps)
{
	static const char *const u[] = { "B/s", "KB/s", "MB/s", "GB/s",
					 "TB/s", "b/s", "Kb/s", "Mb/s",
					 "Gb/s", "Tb/s", NULL };
	static const double k[] = { 1, 1e3, 1e6, 1e9, 1e12,
				    1.0 / 8, 1e3 / 8, 1e6 / 8, 1e9 / 8,
				    1e12 / 8 };
	double v;

	if (gml_value(s, u, k, &v) || v < 1 || v > 1e15)
		return -EINVAL;
	*bps = (uint64_t)llround(v);
	return 0;
}

/* <key> elements: which ids carry endpoints, latency and bandwidth. */
static int gml_keys(struct gml *m, const xmlNode *root)
{
	const xmlNode *n, *c;
	char *name, *id, *for_;
	int k;

	for (n = root->children; n; n = n->next) {
		if (!is(n, "key"))
			continue;
		name = attr(n, "attr.name");
		id = attr(n, "id");
		for_ = attr(n, "for");
		for (k = 0; name && id && k < NKEYS; k++) {
			if (strcmp(name, key_names[k]) ||
			    (for_ && strcmp(for_, k ? "edge" : "node") &&
			     strcmp(for_, "all")))
				continue;
			free(m->id[k]);
			m->id[k] = strdup(id);
			for (c = n->children; c; c = c->next)
				if (is(c, "default")) {
					free(m->dflt[k]);
					m->dflt[k] = gml_text(c);
				}
		}
		xmlFree(name);
		xmlFree(id);
		xmlFree(for_);
	}
	return 0;
}

/* The text of @n's <data> for attribute @k, or its default; free() it. */
static char *gml_data(const struct gml *m, const xmlNode *n, int k)
{
	const xmlNode *c;
	char *key;
	bool mine;

	for (c = n->children; m->id[k] && c; c = c->next) {
		if (!is(c, "data"))
			continue;
		key = attr(c, "key");
		mine = key && !strcmp(key, m->id[k]);
		xmlFree(key);
		if (mine)
			return gml_text(c);
	}
	return m->dflt[k] ? strdup(m->dflt[k]) : NULL;
}

static int gml_vertex(struct gml *m, const xmlNode *n)
{
	struct vcube_netfile *g = m->g;
	char *id = attr(n, "id"), *e = gml_data(m, n, KEY_ENDPOINTS), *end;
	uint32_t r = g->routers, i;
	unsigned long v = 0;
	void *p;

	if (!id || !e) {
		vcube_netfile_fail(g, -EINVAL, "%s:%d: %s", m->name, gml_line(n),
				 !id ? "a <node> without an id" :
				 "a vertex without an 'endpoints' attribute: each router says how many nodes hang off it");
		goto bad;
	}
	errno = 0;
	v = strtoul(e, &end, 10);
	if (end == e || *end || errno || v > VCUBE_NETFILE_MAX_NODES ||
	    g->nodes + v > VCUBE_NETFILE_MAX_NODES || r >= VCUBE_NETFILE_MAX_ROUTERS) {
		if (end == e || *end)
			vcube_netfile_fail(g, -EINVAL, "%s:%d: vertex '%s': endpoints='%s' is not a count",
					   m->name, gml_line(n), id, e);
		else
			vcube_netfile_fail(g, -EINVAL, "%s:%d: vertex '%s': endpoints='%s' takes the network past its limits (%u nodes, %u routers)",
					   m->name, gml_line(n), id, e,
					   VCUBE_NETFILE_MAX_NODES,
					   VCUBE_NETFILE_MAX_ROUTERS);
		goto bad;
	}
	p = realloc(m->vid, (r + 1) * sizeof(*m->vid));
	if (p)
		m->vid = p;
	if (p && (p = realloc(g->node_router, (g->nodes + v + 1) * sizeof(uint32_t))))
		g->node_router = p;
	if (!p) {
		vcube_netfile_fail(g, -ENOMEM, "%s: out of memory", m->name);
		goto bad;
	}
	for (i = 0; i < v; i++)
		g->node_router[g->nodes++] = r;
	m->vid[r] = id;
	g->routers++;
	free(e);
	return 0;
bad:
	xmlFree(id);
	free(e);
	return -EINVAL;
}

static int gml_id_cmp(const void *x, const void *y)
{
	return strcmp(((const struct gml_id *)x)->id,
		      ((const struct gml_id *)y)->id);
}

/* The vertices sorted by id, for the edges' lookups; 0 or -errno said. */
static int gml_index(struct gml *m)
{
	uint32_t i, n = m->g->routers;

	m->byid = malloc((n + 1) * sizeof(*m->byid));
	if (!m->byid)
		return vcube_netfile_fail(m->g, -ENOMEM, "%s: out of memory", m->name);
	for (i = 0; i < n; i++)
		m->byid[i] = (struct gml_id){ m->vid[i], i };
	qsort(m->byid, n, sizeof(*m->byid), gml_id_cmp);
	for (i = 1; i < n; i++)
		if (!strcmp(m->byid[i].id, m->byid[i - 1].id))
			return vcube_netfile_fail(m->g, -EINVAL, "%s: two vertices with id '%s'",
						m->name, m->byid[i].id);
	return 0;
}

/* A vertex's index by its id. */
static int gml_find(const struct gml *m, const char *id, uint32_t *r)
{
	struct gml_id key = { id, 0 }, *f;

	if (!id)
		return -ENOENT;
	f = bsearch(&key, m->byid, m->g->routers, sizeof(key), gml_id_cmp);
	if (!f)
		return -ENOENT;
	*r = f->r;
	return 0;
}

static int gml_edge(struct gml *m, const xmlNode *n)
{
	struct vcube_netfile *g = m->g;
	char *s = attr(n, "source"), *t = attr(n, "target");
	char *dir = attr(n, "directed"), *lat = gml_data(m, n, KEY_LATENCY);
	char *bw = gml_data(m, n, KEY_BANDWIDTH);
	struct vcube_netfile_link l = { 0 };
	int ret = -EINVAL;
	void *p;

	if (dir && !strcmp(dir, "true"))
		vcube_netfile_fail(g, ret, "%s:%d: a directed edge: links go both ways (undirected graphs only, as SST's anytopo)",
				 m->name, gml_line(n));
	else if (gml_find(m, s, &l.a) || gml_find(m, t, &l.b))
		vcube_netfile_fail(g, ret, "%s:%d: an edge from '%s' to '%s': no such vertex",
				 m->name, gml_line(n), s ? s : "", t ? t : "");
	else if (l.a == l.b)
		vcube_netfile_fail(g, ret, "%s:%d: vertex '%s' is linked to itself",
				 m->name, gml_line(n), s);
	else if (lat && gml_latency(lat, &l.lat[0]))
		vcube_netfile_fail(g, ret, "%s:%d: latency '%s' is not a time (ns, or 100ns, 1.5us; up to 1 s)",
				 m->name, gml_line(n), lat);
	else if (bw && gml_bandwidth(bw, &l.bw))
		vcube_netfile_fail(g, ret, "%s:%d: bandwidth '%s' is not a rate (bytes/s, or 12.5GB/s, 100Gb/s)",
				 m->name, gml_line(n), bw);
	else if (g->nlinks >= VCUBE_NETFILE_MAX_LINKS)
		vcube_netfile_fail(g, ret, "%s:%d: more than %u links",
				 m->name, gml_line(n), VCUBE_NETFILE_MAX_LINKS);
	else
		ret = 0;
	if (!ret && g->nlinks == m->cap_links) {
		m->cap_links = m->cap_links ? 2 * m->cap_links : 256;
		p = realloc(g->links, m->cap_links * sizeof(*g->links));
		if (p)
			g->links = p;
		else
			ret = vcube_netfile_fail(g, -ENOMEM, "%s: out of memory", m->name);
	}
	if (!ret) {
		l.lat[1] = l.lat[0];
		g->links[g->nlinks++] = l;
	}
	xmlFree(s);
	xmlFree(t);
	xmlFree(dir);
	free(lat);
	free(bw);
	return ret;
}

/* The one <graph>: its vertices first (an edge may come before them). */
static int gml_graph(struct gml *m, const xmlNode *graph)
{
	char *ed = attr(graph, "edgedefault");
	const xmlNode *n;
	int ret = 0;

	if (!ed || strcmp(ed, "undirected"))
		ret = vcube_netfile_fail(m->g, -EINVAL, "%s:%d: edgedefault='%s': links go both ways (undirected graphs only, as SST's anytopo)",
				       m->name, gml_line(graph), ed ? ed : "");
	xmlFree(ed);
	for (n = graph->children; !ret && n; n = n->next) {
		if (is(n, "node"))
			ret = gml_vertex(m, n);
		else if (is(n, "hyperedge"))
			ret = vcube_netfile_fail(m->g, -EINVAL, "%s:%d: a hyperedge: links join two routers",
					       m->name, gml_line(n));
	}
	if (!ret && m->g->routers)
		ret = gml_index(m);
	for (n = graph->children; !ret && n; n = n->next)
		if (is(n, "edge"))
			ret = gml_edge(m, n);
	if (!ret && !m->g->node_router)
		ret = vcube_netfile_fail(m->g, -EINVAL, "%s: no vertices", m->name);
	if (!ret) {
		m->g->node_lat = calloc(m->g->nodes + 1, sizeof(uint32_t));
		if (!m->g->node_lat)
			ret = vcube_netfile_fail(m->g, -ENOMEM, "%s: out of memory", m->name);
	}
	return ret;
}

static int gml_root(struct gml *m, xmlDoc *doc)
{
	const xmlNode *root = xmlDocGetRootElement(doc), *n, *graph = NULL;

	if (!root || !is(root, "graphml"))
		return vcube_netfile_fail(m->g, -EINVAL, "%s: not GraphML (its root element is <%s>)",
					m->name, root ? (const char *)root->name : "");
	gml_keys(m, root);
	for (n = root->children; n; n = n->next) {
		if (!is(n, "graph"))
			continue;
		if (graph)
			return vcube_netfile_fail(m->g, -EINVAL, "%s:%d: a second <graph>: one network per file",
						m->name, gml_line(n));
		graph = n;
	}
	if (!graph)
		return vcube_netfile_fail(m->g, -EINVAL, "%s: no <graph>", m->name);
	return gml_graph(m, graph);
}

int vcube_netfile_graphml(struct vcube_netfile *g, const char *name,
			const char *text, size_t len)
{
	struct gml m = { .g = g, .name = name };
	const xmlError *e;
	xmlDoc *doc;
	uint32_t i;
	int ret, k;

	if (len > INT32_MAX)
		return vcube_netfile_fail(g, -EFBIG, "%s: too large", name);
	doc = xmlReadMemory(text, (int)len, name, NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR |
			    XML_PARSE_NOWARNING);
	if (!doc) {
		e = xmlGetLastError();
		ret = vcube_netfile_fail(g, -EINVAL, "%s:%d: not well-formed XML: %s",
				       name, e ? e->line : 0,
				       e && e->message ? e->message : "");
		g->err[strcspn(g->err, "\n")] = 0;
		return ret;
	}
	ret = gml_root(&m, doc);
	xmlFreeDoc(doc);
	for (i = 0; m.vid && i < g->routers; i++)
		xmlFree(m.vid[i]);
	free(m.vid);
	free(m.byid);
	for (k = 0; k < NKEYS; k++) {
		free(m.id[k]);
		free(m.dflt[k]);
	}
	return ret;
}
