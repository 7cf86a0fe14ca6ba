// SPDX-License-Identifier: GPL-2.0
/*
 * The barrier table and Seidel & Davis' Table III as plain computation:
 * from Table I's constants the minimum message lengths are the paper's,
 * to the byte, and other constants move them the way the formula says.
 * (The barriers themselves run through the module: tests/vm/sync.sh.)
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "vcube.h"

int main(void)
{
	static const uint64_t table3[] = { 645, 1062, 1478, 1895, 2312, 2728 };
	struct vcube_costs k = { .b_s = 75000, .s = 44000, .b_l = 136000,
				 .a_ps = 360000 };
	static const char *const names[] = { "gsync", "sync0", "rds",
					     "dissemination", "tree", "cm5_control" };
	unsigned int d;
	size_t i, j, n;

	for (d = 2; d <= 7; d++)
		CHECK(vcube_costs_rds_min_len(&k, d) == table3[d - 2],
		      "d=%u: %llu, Table III %llu", d,
		      (unsigned long long)vcube_costs_rds_min_len(&k, d),
		      (unsigned long long)table3[d - 2]);
	/* (2 d b_s - b_l / 2) / a, rounded up: d = 1 gives 82 000 / 360 */
	CHECK(vcube_costs_rds_min_len(&k, 1) == 228, "d=1: %llu",
	      (unsigned long long)vcube_costs_rds_min_len(&k, 1));
	k.a_ps = 720000;	/* twice the time per byte: half the bytes */
	CHECK(vcube_costs_rds_min_len(&k, 7) == 1364, "a doubled: %llu",
	      (unsigned long long)vcube_costs_rds_min_len(&k, 7));
	k.b_l = 2 * 2 * 7 * 75000;	/* b_l / 2 covers the barrier: never */
	CHECK(vcube_costs_rds_min_len(&k, 7) == 0, "b_l huge");
	k.a_ps = 0;
	CHECK(vcube_costs_rds_min_len(&k, 3) == 0, "a = 0");

	/* the barriers in the registry, as the paper and the docs name them */
	for (i = 0, n = 0; i < vcube_algo_count(); i++)
		n += vcube_algo_get(i)->kind == VCUBE_ALGO_SYNC;
	CHECK(n == 6, "%zu barriers", n);
	for (i = 0; i < 6; i++) {
		const struct vcube_algo *a = NULL;

		CHECK(vcube_algo_find(VCUBE_ALGO_SYNC, names[i], &a) == 0 && a &&
		      !strcmp(a->name, names[i]), "barrier %zu", i);
		CHECK(a && a->source && a->summary, "barrier %zu text", i);
		CHECK(a && !!(a->needs & VCUBE_ALGO_POW2) == (i < 3),
		      "%s needs", names[i]);
		CHECK(a && !!(a->needs & VCUBE_ALGO_CNET) == (i == 5),
		      "%s needs a control network", names[i]);
	}
	/* a name is unique within its kind; every kind has a name */
	for (i = 0; i < vcube_algo_count(); i++)
		for (j = i + 1; j < vcube_algo_count(); j++)
			CHECK(vcube_algo_get(i)->kind != vcube_algo_get(j)->kind ||
			      strcmp(vcube_algo_get(i)->name, vcube_algo_get(j)->name),
			      "%s twice", vcube_algo_get(i)->name);
	for (i = 0; i < VCUBE_ALGO_NKINDS; i++)
		CHECK(vcube_algo_kind_name((unsigned int)i) != NULL, "kind %zu", i);
	CHECK(!vcube_algo_kind_name(VCUBE_ALGO_NKINDS), "no such kind");
	CHECK(!vcube_algo_get(vcube_algo_count()), "past the end");
	CHECK(vcube_algo_find(VCUBE_ALGO_SYNC, "nosuch", NULL) == -ENOENT, "nosuch");
	CHECK(vcube_algo_find(VCUBE_ALGO_SYNC, "pex", NULL) == -ENOENT,
	      "pex is no barrier");
	CHECK(vcube_algo_find(VCUBE_ALGO_NKINDS, "tree", NULL) == -ENOENT,
	      "no such kind");
	CHECK(vcube_algo_find(VCUBE_ALGO_SYNC, NULL, NULL) == -EINVAL, "no name");
	CHECK(vcube_algo_usable(NULL, VCUBE_ALGO_SYNC, "rds") == -EINVAL, "no comm");
	CHECK(vcube_sync_run(NULL, "rds") == -EINVAL, "no comm");
	CHECK(vcube_costs_measure(NULL, NULL) == -EINVAL, "no comm");
	return check_done("sync_test");
}
