/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the VM test programs: "ok - ..." / "not ok - ..." lines, and the
 * exit status of a child they forked.
 */
#ifndef VCUBE_TESTS_VM_TAP_H
#define VCUBE_TESTS_VM_TAP_H

#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>

/* 1 once any check failed: the program's exit status */
static int failed;

/* Evaluates @cond exactly once: conditions here have side effects. */
#define T(cond, ...)							\
	do {								\
		int t_ok = !!(cond);					\
									\
		printf("%s - ", t_ok ? "ok" : "not ok");		\
		printf(__VA_ARGS__);					\
		putchar('\n');						\
		fflush(stdout);						\
		if (!t_ok)						\
			failed = 1;					\
	} while (0)

/* @pid's exit status once it has exited, or -1 if it did not exit. */
static inline int child_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#endif /* VCUBE_TESTS_VM_TAP_H */
