/* SPDX-License-Identifier: MIT */
/*
 * The command-line habits every vcube tool shares (docs/tools.md): -V and
 * --version print one line; a bad option is getopt's one line under the
 * tool's own name, then where to look, and exit 2.
 */
#ifndef VCUBE_TOOLS_CLI_H
#define VCUBE_TOOLS_CLI_H

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

#endif /* VCUBE_TOOLS_CLI_H */
