// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-bench --predict: each point's time on vcube's model, as vcube-sim
 * (the engine on the host, no kernel) gives it for the same algorithm,
 * ranks and block size, every node from time 0, on a profile named or
 * given as a file (vcube-bench --transport mpi --costs writes one), or on
 * a network named in the module's words ("topology=torus dims=4,4,4
 * profile=ap1000", what vcubectl net add takes): vcube-sim takes them
 * after its options, and checks the network has as many nodes as ranks.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vcube-bench/bench.h"

/*
 * The vcube-sim of this vcube-bench: beside it (bin/), or, from
 * vcube-bench-mpi in libexec/vcube/, in ../../bin; else on the PATH.
 */
static const char *sim_path(void)
{
	static const char *const rel[] = { "vcube-sim", "../../bin/vcube-sim" };
	static char path[PATH_MAX];
	unsigned int i;
	char *slash;
	ssize_t n;

	if (path[0])
		return path;
	n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	slash = n > 0 ? (path[n] = '\0', strrchr(path, '/')) : NULL;
	for (i = 0; slash && i < sizeof(rel) / sizeof(rel[0]); i++) {
		strcpy(slash + 1, rel[i]);
		if (!access(path, X_OK))
			return path;
	}
	strcpy(path, "vcube-sim");
	return path;
}

/* Most words a --predict network may have (vcube-sim takes 18 kinds). */
#define PREDICT_WORDS	32

/*
 * vcube-sim's arguments: the options, then --profile @profile or, if it
 * has a '=', its words split at blanks (into @copy, which holds them).
 * -E2BIG past PREDICT_WORDS words.
 */
static int predict_argv(const char **argv, char *copy, size_t size,
			const char *profile)
{
	char *w, *save = NULL;
	int n = 0;

	while (argv[n])
		n++;
	if (!strchr(profile, '=')) {
		argv[n++] = "--profile";
		argv[n++] = profile;
		argv[n] = NULL;
		return 0;
	}
	snprintf(copy, size, "%s", profile);
	for (w = strtok_r(copy, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (n == PREDICT_WORDS + 16)
			return -E2BIG;
		argv[n++] = w;
	}
	argv[n] = NULL;
	return 0;
}

int bench_predict(const char *profile, unsigned int kind, const char *algo,
		  unsigned int p, uint64_t len, double *ns)
{
	char procs[16], bytes[24], out[512], words[1024];
	const char *argv[PREDICT_WORDS + 18] = {
		sim_path(), "--procs", procs, "--kind",
		vcube_algo_kind_name(kind), "--algo", algo, "--len", bytes,
		"--ns", "-q", NULL,
	};
	int fd[2], status;
	unsigned long long t;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	snprintf(procs, sizeof(procs), "%u", p);
	snprintf(bytes, sizeof(bytes), "%" PRIu64, len);
	if (strlen(profile) >= sizeof(words) ||
	    predict_argv(argv, words, sizeof(words), profile)) {
		fprintf(stderr, "vcube-bench: --predict: too many words in '%.40s...'\n",
			profile);
		return -E2BIG;
	}
	if (pipe(fd))
		return -errno;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "vcube-bench: --predict: cannot run %s: %s\n",
			argv[0], strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	while (got < sizeof(out) - 1 &&
	       (n = read(fd[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(fd[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	/* the Ctrl-C that stops the run reached vcube-sim as well: not its fault */
	if (WIFSIGNALED(status) && bench_stop)
		return -EINTR;
	/* "PROFILE ALGO SHAPE LEN NS": the last word */
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !strrchr(out, ' ') ||
	    sscanf(strrchr(out, ' '), " %llu", &t) != 1) {
		fprintf(stderr, "vcube-bench: --predict %s: vcube-sim gave no time for %s at %u ranks, %" PRIu64 " bytes\n",
			profile, algo, p, len);
		return -EIO;
	}
	*ns = (double)t;
	return 0;
}
