// SPDX-License-Identifier: MIT
/*
 * The command-line habits every vcube tool shares (cli.h).
 */
#include <stdio.h>

#include "common/cli.h"

#ifndef VCUBE_VERSION
#error "VCUBE_VERSION comes from the Makefile"
#endif

void vcube_tool_name(char **argv, const char *tool)
{
	argv[0] = (char *)tool;
}

int vcube_tool_version(const char *tool)
{
	printf("%s (vcube) %s\n", tool, VCUBE_VERSION);
	return VCUBE_EXIT_OK;
}

int vcube_tool_try_help(const char *tool)
{
	fprintf(stderr, "try '%s --help'\n", tool);
	return VCUBE_EXIT_USAGE;
}
