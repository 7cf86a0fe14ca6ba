// SPDX-License-Identifier: MIT
/*
 * libvcube: node lists ("8-15", "0,4,8-11") and a job's placement, rank r
 * on the r-th node of the list vcube-run hands over in VCUBE_NODES
 * (place.h). Pure: the host tests check it without a module.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "place.h"

/* Past this many ranks a list is refused (vcube-run starts 4096 at most). */
#define VCUBE_PLACE_MAX		(1U << 20)

struct vcube_place_pair {
	unsigned int node;
	unsigned int rank;
};

struct vcube_place {
	unsigned int n;
	unsigned int *node;			/* rank -> node */
	struct vcube_place_pair *by_node;	/* sorted by node */
};

/* A node number at *@s: digits, below VCUBE_ANY; *@s moves past it. */
static int nodelist_number(const char **s, unsigned int *v)
{
	unsigned long long x = 0;
	const char *p = *s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		x = x * 10 + (unsigned int)(*p - '0');
		if (x >= VCUBE_ANY)
			return -ERANGE;
	}
	*s = p;
	*v = (unsigned int)x;
	return 0;
}

int vcube_nodelist_parse(const char *list, unsigned int *nodes, size_t max,
			 size_t *n)
{
	const char *p = list;
	unsigned int lo, hi, v;
	size_t count = 0;
	int ret;

	if (!list || !n)
		return -EINVAL;
	do {
		ret = nodelist_number(&p, &lo);
		hi = lo;
		if (!ret && *p == '-') {
			p++;
			ret = nodelist_number(&p, &hi);
			if (!ret && hi < lo)
				ret = -EINVAL;
		}
		if (!ret && *p && *p != ',')
			ret = -EINVAL;
		if (ret)
			return ret;
		if ((size_t)(hi - lo) >= SIZE_MAX - count)
			return -E2BIG;
		if (nodes && count + (hi - lo) >= max)
			return -E2BIG;
		for (v = lo; nodes && v <= hi; v++)
			nodes[count++] = v;
		if (!nodes)
			count += (size_t)(hi - lo) + 1;
	} while (*p && *++p);
	if (p > list && p[-1] == ',')
		return -EINVAL;		/* a trailing comma */
	*n = count;
	return 0;
}

int vcube_nodelist_format(const unsigned int *nodes, size_t n, char *buf,
			  size_t len)
{
	size_t i, j, used = 0;
	int w;

	if (!nodes || !n || !buf)
		return -EINVAL;
	for (i = 0; i < n; i = j + 1) {
		for (j = i; j + 1 < n && nodes[j] < VCUBE_ANY - 1 &&
			    nodes[j + 1] == nodes[j] + 1; j++)
			;
		if (j > i)
			w = snprintf(buf + used, len - used, "%s%u-%u",
				     i ? "," : "", nodes[i], nodes[j]);
		else
			w = snprintf(buf + used, len - used, "%s%u",
				     i ? "," : "", nodes[i]);
		if (w < 0 || (size_t)w >= len - used)
			return -ENOSPC;
		used += (size_t)w;
	}
	return 0;
}

static int place_pair_cmp(const void *a, const void *b)
{
	const struct vcube_place_pair *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

int vcube_place_create(const unsigned int *nodes, size_t n,
		       struct vcube_place **placep)
{
	struct vcube_place *p;
	size_t i, same = 0;

	if (!nodes || !placep || !n || n > VCUBE_PLACE_MAX)
		return -EINVAL;
	*placep = NULL;
	for (i = 0; i < n; i++)
		same += nodes[i] == i;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->n = (unsigned int)n;
	p->node = malloc(n * sizeof(*p->node));
	p->by_node = malloc(n * sizeof(*p->by_node));
	if (!p->node || !p->by_node) {
		vcube_place_free(p);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		p->node[i] = nodes[i];
		p->by_node[i].node = nodes[i];
		p->by_node[i].rank = (unsigned int)i;
	}
	qsort(p->by_node, n, sizeof(*p->by_node), place_pair_cmp);
	for (i = 1; i < n; i++) {
		if (p->by_node[i].node == p->by_node[i - 1].node) {
			vcube_place_free(p);
			return -EINVAL;		/* a node twice */
		}
	}
	if (same == n)
		vcube_place_free(p);	/* the identity: nothing to do */
	else
		*placep = p;
	return 0;
}

/* VCUBE_SIZE, when it is set: the placement must have as many ranks. */
static int place_env_size(size_t n)
{
	const char *s = getenv("VCUBE_SIZE");
	unsigned long v;
	char *end;

	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	return errno || *end || v != n ? -EINVAL : 0;
}

int vcube_place_load(struct vcube_place **placep)
{
	const char *s = getenv("VCUBE_NODES");
	unsigned int *nodes;
	size_t n;
	int ret;

	if (!placep)
		return -EINVAL;
	*placep = NULL;
	if (!s || !*s)
		return 0;
	ret = vcube_nodelist_parse(s, NULL, 0, &n);
	if (ret || !n || n > VCUBE_PLACE_MAX)
		return -EINVAL;
	ret = place_env_size(n);
	if (ret)
		return ret;
	nodes = malloc(n * sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	ret = vcube_nodelist_parse(s, nodes, n, &n);
	ret = ret ? -EINVAL : vcube_place_create(nodes, n, placep);
	free(nodes);
	return ret;
}

void vcube_place_free(struct vcube_place *place)
{
	if (!place)
		return;
	free(place->node);
	free(place->by_node);
	free(place);
}

unsigned int vcube_place_size(const struct vcube_place *place)
{
	return place->n;
}

int vcube_place_node(const struct vcube_place *place, unsigned int rank,
		     unsigned int *node)
{
	if (rank >= place->n)
		return -EINVAL;
	*node = place->node[rank];
	return 0;
}

int vcube_place_rank(const struct vcube_place *place, unsigned int node,
		     unsigned int *rank)
{
	struct vcube_place_pair key = { .node = node }, *hit;

	hit = bsearch(&key, place->by_node, place->n, sizeof(key),
		      place_pair_cmp);
	if (!hit)
		return -ENOENT;
	*rank = hit->rank;
	return 0;
}

int vcube_place_span(const struct vcube_place *place, unsigned int first,
		     unsigned int count, unsigned int *node)
{
	unsigned int i;

	if (!count || first >= place->n || count > place->n - first)
		return -EINVAL;
	for (i = 1; i < count; i++)
		if (place->node[first + i] != place->node[first] + i)
			return -EOPNOTSUPP;
	if (node)
		*node = place->node[first];
	return 0;
}

int vcube_env_node(unsigned int rank, unsigned int *node)
{
	struct vcube_place *place;
	int ret;

	if (!node)
		return -EINVAL;
	ret = vcube_place_load(&place);
	if (ret)
		return ret;
	if (!place) {
		/* none (or the identity): rank r is on node r */
		*node = rank;
		return 0;
	}
	ret = vcube_place_node(place, rank, node);
	vcube_place_free(place);
	return ret ? -ENOENT : 0;
}
