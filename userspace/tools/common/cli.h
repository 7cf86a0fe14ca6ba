/* SPDX-License-Identifier: MIT */
/*
 * The command-line habits every vcube tool shares (docs/tools.md): -V and
 * --version print one line; a bad option is getopt's one line under the
 * tool's own name, then where to look, and exit 2.
 */
#ifndef VCUBE_TOOLS_CLI_H
#define VCUBE_TOOLS_CLI_H

#include <stdbool.h>

/* Exit statuses: the same meaning in every tool. */
#define VCUBE_EXIT_OK		0
#define VCUBE_EXIT_FAIL		1
#define VCUBE_EXIT_USAGE	2

/*
 * Name the program @tool in getopt's messages (argv[0] as the user typed
 * it may be a long path).
 */
void vcube_tool_name(char **argv, const char *tool);
/* "TOOL (vcube) VERSION" on stdout; 0. */
int vcube_tool_version(const char *tool);
/* After getopt's own line about a bad option: where to look; 2. */
int vcube_tool_try_help(const char *tool);

/*
 * Say under @who that the network asked for is not there: VCUBE_NET's by
 * its name, else that no vcube network is loaded.
 */
void vcube_tool_no_net(const char *who);

struct vcube_net_desc;
/*
 * The loaded network into @net (vcube_net_describe()): 0, or 1 with one
 * line said, "TOOL: no vcube network is loaded (insmod vcube.ko ...)" or
 * the error reading it.
 */
int vcube_tool_net(const char *tool, struct vcube_net_desc *net);

/*
 * Progress on stderr (docs/tools.md): off when quiet; on a terminal one live
 * line, redrawn; otherwise (a log, a pipe) one line per step, "TOOL: [k/n]
 * what", so that a captured run shows how far it got. Never on stdout.
 */
struct vcube_tool_progress {
	const char *tool;
	unsigned int total;	/* steps; 0 when unknown */
	int mode;		/* VCUBE_PROGRESS_* */
	int width;		/* of the live line last drawn */
	double last;		/* when a step was last shown, s */
};

enum { VCUBE_PROGRESS_OFF, VCUBE_PROGRESS_TTY, VCUBE_PROGRESS_LINES };

void vcube_tool_progress_init(struct vcube_tool_progress *p, const char *tool,
			      unsigned int total, bool quiet);
/*
 * Step @done of p->total (0-based: the one starting now) is @fmt. With
 * @every_s > 0 it is shown only if that many seconds (a tenth of it on a
 * terminal) passed since the last one shown: for work without steps.
 */
void vcube_tool_progress_step(struct vcube_tool_progress *p, unsigned int done,
			      double every_s, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Clear the live line, if any. */
void vcube_tool_progress_end(struct vcube_tool_progress *p);

#endif /* VCUBE_TOOLS_CLI_H */
