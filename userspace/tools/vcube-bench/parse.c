// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench: numbers and lists on the command line, and binding to the
 * node under vcube-run (or to the MPI rank, in vcube-bench-mpi); SIGINT
 * and SIGTERM caught for the sweep to stop between repetitions.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcube-bench/bench.h"

int bench_parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end || *s == '-' ? -EINVAL : 0;
}

int bench_parse_list(const char *arg, uint64_t *sizes, unsigned int *nsizes)
{
	char *copy = strdup(arg), *tok, *save, *dots, *colon;
	uint64_t lo, hi, step, v;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	*nsizes = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		dots = strstr(tok, "..");
		if (!dots) {
			ret = bench_parse_u64(tok, &v);
			if (!ret && *nsizes < MAX_SIZES)
				sizes[(*nsizes)++] = v;
			else if (!ret)
				ret = -E2BIG;
			continue;
		}
		*dots = '\0';
		colon = strchr(dots + 2, ':');
		if (colon)
			*colon++ = '\0';
		ret = bench_parse_u64(tok, &lo);
		if (!ret)
			ret = bench_parse_u64(dots + 2, &hi);
		if (!ret && colon)
			ret = bench_parse_u64(colon, &step);
		if (!ret && (hi < lo || (colon && !step) || (!colon && !lo)))
			ret = -EINVAL;
		for (v = lo; !ret && v <= hi; v = colon ? v + step : v * 2) {
			if (*nsizes == MAX_SIZES)
				ret = -E2BIG;
			else
				sizes[(*nsizes)++] = v;
		}
	}
	free(copy);
	if (!ret && !*nsizes)
		ret = -EINVAL;
	return ret;
}

bool bench_marks;

volatile sig_atomic_t bench_stop;

static void bench_stop_handler(int sig)
{
	bench_stop = sig;
}

/*
 * SA_RESTART: nothing here needs a blocked call to return. libvcube takes
 * up a send, receive or wait a signal cut where it stopped (msg.c), so the
 * ranks go on to the end of the repetition and agree there; meanwhile a
 * write to stdout, or rank 0's wait for vcube-sim, goes on as well
 * rather than failing with EINTR.
 */
int bench_stop_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = bench_stop_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		return -errno;
	return 0;
}

int bench_comm_open(struct vcube_comm **c, struct vcube_net_desc *net)
{
	int ret;

	memset(net, 0, sizeof(*net));
	if (bench_mpi)
		return bench_mpi->open(c, net) ? 1 : 0;
	ret = vcube_comm_open(c);
	if (!ret && bench_marks)
		vcube_comm_mark_steps(*c, true);
	if (ret) {
		if (!getenv("VCUBE_RANK"))
			fprintf(stderr, "vcube-bench: not started by vcube-run (vcube-run -n N vcube-bench ...)\n");
		else
			fprintf(stderr, "vcube-bench: cannot bind to my node: %s\n",
				strerror(-ret));
		return 1;
	}
	if (vcube_comm_rank(*c) == 0 && vcube_net_describe(NULL, net))
		fprintf(stderr, "vcube-bench: cannot read the network from sysfs\n");
	return 0;
}


int bench_comm_close(struct vcube_comm *c, int status, bool agreed)
{
	if (bench_mpi)
		return bench_mpi->close(c, status, agreed);
	vcube_comm_close(c);
	return status;
}

bool bench_native(const struct bench_point *pt, unsigned int kind)
{
	const char *name = bench_mpi ? bench_mpi->native_name(kind) : NULL;

	return name && !strcmp(pt->algo, name);
}
