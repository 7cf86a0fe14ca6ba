// SPDX-License-Identifier: GPL-2.0
/*
 * Wall-clock cost of a message: a two-process ping-pong through vcube
 * (under vcube-run -n 2) or through a pair of pipes (the baseline), with
 * 8-byte messages. Prints "pingpong <vcube|pipe> <messages> <ns/message>".
 *
 *   vcube-run -n 2 pingpong vcube ROUNDS
 *   pingpong pipe ROUNDS
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vcube.h"

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run_vcube(unsigned long rounds)
{
	struct vcube_node *node;
	unsigned int me, np;
	uint64_t buf = 0;
	unsigned long i;
	double t0;
	int ret;

	ret = vcube_env_rank(&me, &np);
	if (ret || np != 2) {
		fprintf(stderr, "pingpong vcube: run with vcube-run -n 2\n");
		return 2;
	}
	ret = vcube_node_open(me, &node);
	if (ret) {
		fprintf(stderr, "pingpong: %s\n", strerror(-ret));
		return 1;
	}
	t0 = wall();
	for (i = 0; i < rounds && !ret; i++) {
		if (me == 0) {
			ret = vcube_node_send(node, 1, 0, &buf, sizeof(buf), 0,
					      NULL);
			if (!ret)
				ret = vcube_node_recv(node, 1, 0, &buf,
						      sizeof(buf), NULL);
		} else {
			ret = vcube_node_recv(node, 0, 0, &buf, sizeof(buf),
					      NULL);
			buf++;
			if (!ret)
				ret = vcube_node_send(node, 0, 0, &buf,
						      sizeof(buf), 0, NULL);
		}
	}
	if (ret) {
		fprintf(stderr, "pingpong: %s\n", strerror(-ret));
		return 1;
	}
	if (me == 0) {
		if (buf != rounds) {
			fprintf(stderr, "pingpong: counter %llu, want %lu\n",
				(unsigned long long)buf, rounds);
			return 1;
		}
		printf("pingpong vcube %lu %.0f\n", 2 * rounds,
		       (wall() - t0) * 1e9 / (2 * rounds));
	}
	vcube_node_close(node);
	return 0;
}

static int run_pipe(unsigned long rounds)
{
	int ab[2], ba[2], status;
	uint64_t buf = 0;
	unsigned long i;
	double t0;
	pid_t pid;

	if (pipe(ab) || pipe(ba))
		return 1;
	pid = fork();
	if (!pid) {
		for (i = 0; i < rounds; i++) {
			if (read(ab[0], &buf, sizeof(buf)) != sizeof(buf))
				_exit(1);
			buf++;
			if (write(ba[1], &buf, sizeof(buf)) != sizeof(buf))
				_exit(1);
		}
		_exit(0);
	}
	t0 = wall();
	for (i = 0; i < rounds; i++) {
		if (write(ab[1], &buf, sizeof(buf)) != sizeof(buf) ||
		    read(ba[0], &buf, sizeof(buf)) != sizeof(buf))
			return 1;
	}
	printf("pingpong pipe %lu %.0f\n", 2 * rounds,
	       (wall() - t0) * 1e9 / (2 * rounds));
	waitpid(pid, &status, 0);
	return buf == rounds ? 0 : 1;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 2 ? strtoul(argv[2], NULL, 0) : 10000;

	if (argc < 2 || !strcmp(argv[1], "--help")) {
		printf("usage: vcube-run -n 2 pingpong vcube [ROUNDS] | pingpong pipe [ROUNDS]\n");
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "vcube"))
		return run_vcube(rounds);
	if (!strcmp(argv[1], "pipe"))
		return run_pipe(rounds);
	return 2;
}
