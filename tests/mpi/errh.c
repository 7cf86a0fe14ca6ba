// SPDX-License-Identifier: MIT
/*
 * Error handlers and error codes of the program's: a handler set on a
 * duplicate of MPI_COMM_WORLD is called with the code of a send to a rank
 * that is not there (class MPI_ERR_RANK) and the call returns it; the
 * handle freed while the communicator holds it, the handler still called;
 * MPI_Comm_get_errhandler hands it back; an added class, two codes of it
 * with their strings, MPI_Comm_call_errhandler with one, and
 * MPI_LASTUSEDCODE past them. The same source passes under Open MPI
 * (tests/host/mpi_ompi.sh).
 */
#include <string.h>

#include "check.h"

static int calls, last_code;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
	calls++;
	last_code = *code;
	last_comm = *comm;
}

int main(int argc, char **argv)
{
	int rank, size, v = 1, ret, cls, code1, code2, got, len, flag, *last;
	char s[MPI_MAX_ERROR_STRING];
	MPI_Errhandler eh, back;
	MPI_Comm dup;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_create_errhandler(handler, &eh);
	MPI_Comm_set_errhandler(dup, eh);
	MPI_Errhandler_free(&eh);
	CHECK(eh == MPI_ERRHANDLER_NULL, "a freed handle is not MPI_ERRHANDLER_NULL");
	/* a send to rank size: the handler, then the call returns the code */
	ret = MPI_Send(&v, 1, MPI_INT, size, 0, dup);
	CHECK(calls == 1 && ret == last_code && last_comm == dup,
	      "handler called %d times, code %d returned %d", calls, last_code, ret);
	MPI_Error_class(ret, &cls);
	CHECK(cls == MPI_ERR_RANK, "class %d, not MPI_ERR_RANK", cls);
	MPI_Comm_get_errhandler(dup, &back);
	CHECK(back != MPI_ERRHANDLER_NULL && back != MPI_ERRORS_ARE_FATAL &&
	      back != MPI_ERRORS_RETURN, "get_errhandler gave a predefined one");
	MPI_Errhandler_free(&back);
	/* added classes and codes, the same at every rank */
	MPI_Add_error_class(&cls);
	MPI_Add_error_code(cls, &code1);
	MPI_Add_error_code(cls, &code2);
	CHECK(code1 != code2 && code1 != cls, "codes %d %d of class %d", code1, code2, cls);
	MPI_Add_error_string(code1, "the first of the program's");
	MPI_Add_error_string(code2, "the second");
	MPI_Error_string(code2, s, &len);
	CHECK(!strcmp(s, "the second") && len == (int)strlen(s), "string of code2: %s", s);
	MPI_Error_class(code1, &got);
	CHECK(got == cls, "class of code1: %d for %d", got, cls);
	MPI_Comm_call_errhandler(dup, code1);
	CHECK(calls == 2 && last_code == code1, "call_errhandler: %d calls, code %d", calls,
	      last_code);
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
	CHECK(flag && *last >= code2, "MPI_LASTUSEDCODE %d, below %d", flag ? *last : -1, code2);
	MPI_Comm_free(&dup);
	return checks_done("errh");
}
