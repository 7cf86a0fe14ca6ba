// SPDX-License-Identifier: GPL-2.0
/*
 * vcube-run: start N processes on vcube nodes of a network (the default
 * one, or --net NAME's), like mpirun: rank r on node r, or on the r-th
 * node of --nodes LIST or of a --rankfile (vcube-run/place.c).
 *
 * Every process is bound to its node (the device is opened in the child
 * before exec) and only when all are bound are they released together, so
 * all start at virtual time 0 and a run's virtual times do not depend on
 * how fast the host forks. Each gets VCUBE_RANK, VCUBE_SIZE and VCUBE_FD
 * (the bound descriptor, which libvcube's vcube_node_open() picks up),
 * and VCUBE_NODES when the ranks are not on nodes 0..N-1 (libvcube then
 * turns ranks into nodes and back); "{rank}" and "{size}" in its
 * arguments are replaced as well. The children report binding, and a
 * program that could not be run, through pipes, so a failure every rank
 * meets is said once for the job (vcube-run/report.c); --tag-output
 * relays their output a whole line at a time (vcube-run/tag.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cli.h"
#include "vcube-run/run.h"
#include "vcube.h"

struct run_opts {
	unsigned long n;
	const char *params;
	const char *nodes;
	const char *rankfile;
	bool tag;
};

static pid_t *children;
static unsigned int nchildren;
static int wake[2] = { -1, -1 };	/* SIGCHLD's, for --tag-output */
static volatile sig_atomic_t forwarded;	/* the last signal sent to all */

/* The first rank to fail, if a signal killed it. */
static struct {
	unsigned int rank;
	pid_t pid;
	int sig;
} killed;

static void forward(int sig)
{
	unsigned int i;

	forwarded = sig;

	for (i = 0; i < nchildren; i++)
		if (children[i] > 0)
			kill(children[i], sig);
}

static void child_exited(int sig)
{
	int e = errno;

	(void)sig;
	/* (a full pipe has a wake-up pending already) */
	if (write(wake[1], "c", 1) < 0)
		errno = e;
	errno = e;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: vcube-run [-n N] [--nodes LIST | --rankfile FILE] [--net NAME]\n"
		"                 [--params 'k=v ...'] [--tag-output] [--] PROGRAM [ARGS...]\n\n"
		"Run N copies of PROGRAM, copy i bound to node i (/dev/vcube<i>, or\n"
		"/dev/vcube/NAME/<i> on network NAME), or to the i-th node of --nodes\n"
		"or of the rankfile, all starting together at virtual time 0. Each\n"
		"gets VCUBE_RANK, VCUBE_SIZE and VCUBE_FD in its environment (and\n"
		"VCUBE_NODES when the nodes are not 0..N-1, VCUBE_RUN_PID, this\n"
		"process: a SIGTERM to it ends them all); {rank} and {size} in ARGS\n"
		"are replaced. Ranks stay 0..N-1 for the program: libvcube turns them\n"
		"into nodes. Signals are forwarded; the exit status is that of the\n"
		"first process to fail (128 + signal if it was killed), else 0; 126\n"
		"when a node could not be bound, said in one line for all the ranks\n"
		"that failed alike.\n\n"
		"  -n, -np, --np N    number of processes (at most the network's nodes;\n"
		"                     -np as mpirun spells it); without it, as many as\n"
		"                     --nodes or the rankfile names\n"
		"  --nodes LIST       rank i on the i-th node of LIST: 8-15, 0,4,8-11\n"
		"  --rankfile FILE    Open MPI's rankfile: 'rank R=HOST slot=NODE' a\n"
		"                     line, HOST localhost or this machine's name, '#'\n"
		"                     comments; each rank 0..N-1 once\n"
		"  --net NAME         the network NAME (vcubectl net add); the default:\n"
		"                     VCUBE_NET, else the module parameters' network.\n"
		"                     The programs find it in VCUBE_NET\n"
		"  --params 'k=v ...' refuse to run unless the network has these values\n"
		"                     (its sysfs facts and shape; vcubectl net show)\n"
		"  --tag-output       each line of a rank's output as one line, after\n"
		"                     [1,RANK]<stdout>: or [1,RANK]<stderr>: (mpirun's)\n"
		"  -h, --help         this text\n"
		"  -V, --version      the version\n");
}

/*
 * @key's value on the network the job runs on, into @val: a fact of its
 * sysfs directory, or a word of its shape (dim=, rows=, cols=, dims=,
 * nodes=, groups=, routers=, global=, routing=);
 * the default network's limits the module's parameters alone show.
 * 0, or -ENOENT when the network shows no such fact.
 */
static int net_fact(const char *root, const char *key, char *val, size_t len)
{
	char path[PATH_MAX], shape[256], *w, *save;
	size_t klen = strlen(key);
	FILE *f;
	int found = 0;

	if (strchr(key, '/') || !*key ||
	    snprintf(path, sizeof(path), "%s/%s", root, key) >= (int)sizeof(path))
		return -ENOENT;
	f = fopen(path, "r");
	if (!f && !vcube_env_net() &&
	    snprintf(path, sizeof(path), "/sys/module/vcube/parameters/%s",
		     key) < (int)sizeof(path))
		f = fopen(path, "r");
	if (f) {
		found = fgets(val, (int)len, f) != NULL;
		fclose(f);
		val[strcspn(val, "\n")] = '\0';
		return found ? 0 : -ENOENT;
	}
	if (snprintf(path, sizeof(path), "%s/shape", root) >= (int)sizeof(path))
		return -ENOENT;
	f = fopen(path, "r");
	if (!f)
		return -ENOENT;
	if (fgets(shape, sizeof(shape), f)) {
		for (w = strtok_r(shape, " \n", &save); w && !found;
		     w = strtok_r(NULL, " \n", &save)) {
			if (!strncmp(w, key, klen) && w[klen] == '=') {
				snprintf(val, len, "%s", w + klen + 1);
				found = 1;
			}
		}
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

/* Each k=v must match what the network the job runs on has for k. */
static int check_params(const char *params)
{
	char *copy = strdup(params), *tok, *save, root[PATH_MAX], val[256];
	const char *name = vcube_env_net() ? vcube_env_net() : "default";
	int bad = 0;

	if (!copy)
		return -ENOMEM;
	if (vcube_net_sysfs_root(vcube_env_net(), root, sizeof(root))) {
		free(copy);
		return -EINVAL;
	}
	for (tok = strtok_r(copy, " ,", &save); tok;
	     tok = strtok_r(NULL, " ,", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok) {
			fprintf(stderr, "vcube-run: --params: '%s' is not k=v\n", tok);
			bad = 1;
			continue;
		}
		*eq = '\0';
		if (net_fact(root, tok, val, sizeof(val))) {
			fprintf(stderr, "vcube-run: network %s shows no '%s' (%s)\n",
				name, tok, root);
			bad = 1;
		} else if (strcmp(val, eq + 1)) {
			fprintf(stderr, "vcube-run: network %s has %s=%s, not %s\n",
				name, tok, val, eq + 1);
			bad = 1;
		}
	}
	free(copy);
	return bad ? -EINVAL : 0;
}

static char *subst(const char *arg, unsigned int rank, unsigned int size)
{
	char *out = malloc(strlen(arg) * 4 + 32), *o = out;
	const char *p = arg;

	if (!out)
		return NULL;
	while (*p) {
		if (!strncmp(p, "{rank}", 6)) {
			o += sprintf(o, "%u", rank);
			p += 6;
		} else if (!strncmp(p, "{size}", 6)) {
			o += sprintf(o, "%u", size);
			p += 6;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

/* Say @e for @rank through @fd: atomic, one record a write. */
static void child_report(int fd, unsigned int rank, int e)
{
	struct run_report rep = { .rank = rank, .err = e };

	if (write(fd, &rep, sizeof(rep)) != sizeof(rep))
		_exit(126);
}

/* The fds rank @rank's child reports through and waits on. */
struct run_pipes {
	int ready;	/* bound (err 0) or not, once */
	int go;		/* released when it reads EOF */
	int exec;	/* close-on-exec: why the program could not run */
};

static void child(unsigned int rank, const struct run_place *pl,
		  const struct run_pipes *pp, struct run_tag *tag, char **argv)
{
	char path[64], buf[32];
	char **args;
	int fd, i, argc;

	/* parse() checked the name */
	vcube_node_path(vcube_env_net(), pl->node[rank], path, sizeof(path));
	fd = open(path, O_RDWR);
	child_report(pp->ready, rank, fd < 0 ? errno : 0);
	if (fd < 0)
		_exit(126);
	close(pp->ready);
	/* Released when the parent closes its end: read() sees EOF. */
	while (read(pp->go, buf, 1) > 0)
		;
	close(pp->go);
	snprintf(buf, sizeof(buf), "%u", rank);
	setenv("VCUBE_RANK", buf, 1);
	snprintf(buf, sizeof(buf), "%u", pl->n);
	setenv("VCUBE_SIZE", buf, 1);
	snprintf(buf, sizeof(buf), "%d", fd);
	setenv("VCUBE_FD", buf, 1);
	/* who to ask to end the job (MPI_Abort in vcube-mpi) */
	snprintf(buf, sizeof(buf), "%d", (int)getppid());
	setenv("VCUBE_RUN_PID", buf, 1);
	if (tag)
		run_tag_child(tag, rank);
	for (argc = 0; argv[argc]; argc++)
		;
	args = calloc(argc + 1, sizeof(*args));
	for (i = 0; args && i < argc; i++)
		args[i] = subst(argv[i], rank, pl->n);
	if (args)
		execvp(args[0], args);
	child_report(pp->exec, rank, errno);
	_exit(127);
}

/* The count, from -n's @arg, into *@n: 0, or 2 with the error said. */
static int parse_count(const char *arg, unsigned long *n)
{
	char *end;

	errno = 0;
	*n = strtoul(arg, &end, 10);
	if (errno || *end || !*n || *n > RUN_MAX_RANKS) {
		fprintf(stderr, "vcube-run: -n: '%s' is not a count of 1..%u\n",
			arg, RUN_MAX_RANKS);
		return 2;
	}
	return 0;
}

/* mpirun's single-dash -np, before the program: the same as --np. */
static void parse_np(int argc, char **argv)
{
	static const char *const valued[] = {
		"--np", "-n", "--params", "--net", "--nodes", "--rankfile",
	};
	size_t k;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-np"))
			argv[i] = "--np";
		for (k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
			if (!strcmp(argv[i], valued[k]))
				break;
		if (k < sizeof(valued) / sizeof(valued[0]))
			i++;		/* its value */
		else if (argv[i][0] != '-')
			break;		/* the program */
	}
}

/* The command line into @o: 0, 1 (exit 0), 2. */
static int parse(int argc, char **argv, struct run_opts *o)
{
	static const struct option opts[] = {
		{ "np", required_argument, NULL, 'n' },
		{ "params", required_argument, NULL, 'p' },
		{ "net", required_argument, NULL, 'N' },
		{ "nodes", required_argument, NULL, 'L' },
		{ "rankfile", required_argument, NULL, 'R' },
		{ "tag-output", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	char path[64];
	int c;

	parse_np(argc, argv);
	vcube_tool_name(argv, "vcube-run");
	while ((c = getopt_long(argc, argv, "+n:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_count(optarg, &o->n))
				return 2;
			break;
		case 'p':
			o->params = optarg;
			break;
		case 'N':
			if (vcube_node_path(optarg, 0, path, sizeof(path))) {
				fprintf(stderr, "vcube-run: --net: '%s' is not a network name\n",
					optarg);
				return 2;
			}
			/* the children's libvcube follows it too */
			setenv("VCUBE_NET", optarg, 1);
			break;
		case 'L':
			o->nodes = optarg;
			break;
		case 'R':
			o->rankfile = optarg;
			break;
		case 'T':
			o->tag = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case 'V':
			vcube_tool_version("vcube-run");
			return 1;
		default:
			return vcube_tool_try_help("vcube-run");
		}
	}
	if ((!o->n && !o->nodes && !o->rankfile) || optind >= argc) {
		fprintf(stderr, "vcube-run: %s\n",
			!o->n && !o->nodes && !o->rankfile ?
			"-n N is missing (or --nodes, --rankfile)" :
			"no program to run");
		return vcube_tool_try_help("vcube-run");
	}
	return 0;
}

/* The network's name, as the messages say it. */
static const char *net_name(void)
{
	return vcube_env_net() ? vcube_env_net() : "default";
}

/*
 * The loaded network takes the ranks of @pl and --params @params: 0; 1
 * (said) when there is none; 2 (said) when it does not fit.
 */
static int check_network(const struct run_place *pl, const char *params)
{
	struct vcube_net_desc net;

	if (vcube_tool_net("vcube-run", &net))
		return 1;
	if (!pl->given && pl->n > net.nodes) {
		fprintf(stderr, "vcube-run: -n %u, but the network has %u nodes\n",
			pl->n, net.nodes);
		return 2;
	}
	if (run_place_fits(pl, net.nodes, net_name()))
		return 2;
	return params && check_params(params) ? 2 : 0;
}

/*
 * Fork a child for each rank of @pl: each binds its node and says so on
 * @pp->ready. The number forked.
 */
static unsigned int fork_all(const struct run_place *pl, int *ready, int *go,
			     int exec, struct run_tag *tag, char **argv)
{
	struct run_pipes pp = { .ready = ready[1], .go = go[0], .exec = exec };
	unsigned int i;
	pid_t pid;

	for (i = 0; i < pl->n; i++) {
		pid = fork();
		if (pid < 0) {
			perror("vcube-run: fork");
			forward(SIGKILL);
			break;
		}
		if (!pid) {
			close(ready[0]);
			close(go[1]);
			child(i, pl, &pp, tag, argv);
		}
		children[i] = pid;
		nchildren = i + 1;
	}
	return nchildren;
}

/*
 * Start the ranks of @pl, each bound to its node before any runs, and
 * release them together: 0; -1 if not all could be bound, with why in
 * @err (a rank's errno; -1: it died before saying), all of them killed;
 * 1 (said) if none could be started.
 */
static int start(const struct run_place *pl, int exec, struct run_tag *tag,
		 char **argv, int *err)
{
	unsigned int i, heard = 0, bound = 0, started;
	struct run_report rep;
	int ready[2], go[2];
	ssize_t r;

	if (pipe(ready) || pipe(go)) {
		perror("vcube-run: pipe");
		return 1;
	}
	for (i = 0; i < pl->n; i++)
		err[i] = -1;
	started = fork_all(pl, ready, go, exec, tag, argv);
	close(ready[1]);
	close(go[0]);
	while (heard < started) {
		r = read(ready[0], &rep, sizeof(rep));
		if (r < 0 && errno == EINTR)
			continue;
		if (r != sizeof(rep))
			break;
		heard++;
		if (rep.rank < pl->n) {
			err[rep.rank] = rep.err;
			bound += !rep.err;
		}
	}
	close(ready[0]);
	if (bound < pl->n)
		forward(SIGKILL);
	close(go[1]);		/* release them together */
	return bound < pl->n ? -1 : 0;
}

/* A child ended with @status: the first failure's status into *@first. */
static void reaped(pid_t pid, int status, int *first)
{
	unsigned int i, rank = 0;

	for (i = 0; i < nchildren; i++)
		if (children[i] == pid)
			children[i] = 0, rank = i;
	if (*first)
		return;
	if (WIFEXITED(status) && WEXITSTATUS(status)) {
		*first = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		*first = 128 + WTERMSIG(status);
		killed.rank = rank;
		killed.pid = pid;
		killed.sig = WTERMSIG(status);
	}
}

/*
 * A rank killed by a signal says nothing itself, so mpirun's way: one line
 * naming it. Not for a signal vcube-run passed on (the user sent it), nor
 * SIGPIPE (a reader that went, which a shell does not report either).
 */
static void report_killed(const struct run_place *pl)
{
	if (!killed.sig || killed.sig == forwarded || killed.sig == SIGPIPE)
		return;
	fprintf(stderr, "vcube-run: rank %u (node %u, pid %d) was killed by signal %d (%s)\n",
		killed.rank, pl->node[killed.rank], (int)killed.pid,
		killed.sig, strsignal(killed.sig));
}

/*
 * Wait for every child (relaying their output with @tag): the first
 * failure's status (128 + a signal).
 */
static int reap(struct run_tag *tag)
{
	unsigned int running = nchildren;
	int status, first = 0;
	char b[64];
	pid_t pid;

	while (running) {
		if (tag) {
			run_tag_pump(tag, wake[0]);
			while (read(wake[0], b, sizeof(b)) > 0)
				;	/* a child ended, or more: look */
		}
		pid = waitpid(-1, &status, tag ? WNOHANG : 0);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break;
		if (!pid)
			continue;
		reaped(pid, status, &first);
		running--;
		while (tag && running && (pid = waitpid(-1, &status, WNOHANG)) > 0) {
			reaped(pid, status, &first);
			running--;
		}
	}
	if (tag)
		run_tag_drain(tag);
	return first;
}

/* The ranks whose program could not be run, once each way: @exec's end. */
static void exec_failures(const struct run_place *pl, int exec, int *err,
			  const char *prog)
{
	struct run_report rep;
	unsigned int i, bad = 0;

	for (i = 0; i < pl->n; i++)
		err[i] = 0;
	while (read(exec, &rep, sizeof(rep)) == sizeof(rep)) {
		if (rep.rank < pl->n && rep.err > 0) {
			err[rep.rank] = rep.err;
			bad++;
		}
	}
	if (bad)
		run_report_exec(pl, err, prog);
}

static void signals(bool tag)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	if (!tag)
		return;
	sa.sa_handler = child_exited;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

/* Start the job of @pl and wait for it: the exit status. */
static int run(const struct run_place *pl, bool tagged, char **argv)
{
	struct run_tag *tag = NULL;
	int exec[2] = { -1, -1 }, *err, ret = 1, i;

	err = calloc(pl->n, sizeof(*err));
	children = calloc(pl->n, sizeof(*children));
	if (!err || !children || pipe2(exec, O_CLOEXEC) ||
	    (tagged && pipe2(wake, O_CLOEXEC | O_NONBLOCK))) {
		fprintf(stderr, "vcube-run: cannot start the ranks: %s\n",
			strerror(errno));
		goto out;
	}
	if (tagged && run_tag_open(&tag, pl->n))
		goto out;	/* (said) */
	signals(tagged);
	ret = start(pl, exec[1], tag, argv, err);
	close(exec[1]);
	exec[1] = -1;
	if (tag)
		run_tag_parent(tag);
	/* a reader of ours that went: its ranks get SIGPIPE, not vcube-run */
	signal(SIGPIPE, SIG_IGN);
	if (ret < 0) {
		reap(NULL);
		run_report_bind(pl, err, net_name());
		ret = 126;
	} else if (!ret) {
		ret = reap(tag);
		exec_failures(pl, exec[0], err, argv[0]);
		report_killed(pl);
	}
out:
	run_tag_free(tag);
	for (i = 0; i < 2; i++) {
		if (exec[i] >= 0)
			close(exec[i]);
		if (wake[i] >= 0)
			close(wake[i]);
	}
	free(err);
	free(children);
	return ret;
}

int main(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct run_place pl;
	int ret;

	ret = parse(argc, argv, &o);
	if (ret)
		return ret == 1 ? 0 : 2;
	ret = run_place_make(&pl, o.nodes, o.rankfile, o.n);
	ret = ret ?: check_network(&pl, o.params);
	if (!ret && run_place_env(&pl)) {
		fprintf(stderr, "vcube-run: VCUBE_NODES: %s\n", strerror(errno));
		ret = 1;
	}
	if (!ret)
		ret = run(&pl, o.tag, argv + optind);
	run_place_free(&pl);
	return ret;
}
