/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal harness for host tests: exit 0 pass, 1 fail, 77 skip. */
#ifndef VCUBE_TEST_CHECK_H
#define VCUBE_TEST_CHECK_H

#include <stdio.h>

static _Atomic int check_failures;	/* the engine tests CHECK from threads */
static _Atomic long check_count;

#define CHECK(cond, ...)						\
	do {								\
		check_count++;						\
		if (!(cond)) {						\
			if (check_failures++ < 20) {			\
				fprintf(stderr, "%s:%d: %s: ", __FILE__, \
					__LINE__, #cond);		\
				fprintf(stderr, __VA_ARGS__);		\
				fputc('\n', stderr);			\
			}						\
		}							\
	} while (0)

static inline int check_done(const char *name)
{
	printf("%s: %ld checks, %d failed\n", name, check_count,
	       check_failures);
	return check_failures ? 1 : 0;
}

#endif
