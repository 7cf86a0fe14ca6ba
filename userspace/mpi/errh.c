// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: error handlers of the program's and error classes and codes
 * it adds. A handler is a small integer after the two predefined ones
 * (MPI_ERRORS_ARE_FATAL 1, MPI_ERRORS_RETURN 2), counted: its handle,
 * each communicator it is set on (and each that inherits it), each
 * MPI_Comm_get_errhandler; freed when the count is 0. Added codes follow
 * MPI_ERR_LASTCODE, each with its class (an added class is its own) and
 * its string; MPI_LASTUSEDCODE follows them (attr.c).
 */
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

#include "vmpi.h"

#define FIRST_USER	3

static struct handler {
	MPI_Comm_errhandler_function *fn;
	unsigned int refs;
} *eh;
static int neh;

static struct added {
	int cls;
	char *str;
} *codes;
static int ncodes;

int vmpi_last_code(void)
{
	return MPI_ERR_LASTCODE + ncodes;
}

static struct handler *user(MPI_Errhandler h)
{
	if (h < FIRST_USER || h >= FIRST_USER + neh || !eh[h - FIRST_USER].refs)
		return NULL;
	return &eh[h - FIRST_USER];
}

bool vmpi_errh_valid(MPI_Errhandler h)
{
	return h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || user(h);
}

void vmpi_errh_get(MPI_Errhandler h)
{
	struct handler *u = user(h);

	if (u)
		u->refs++;
}

void vmpi_errh_put(MPI_Errhandler h)
{
	struct handler *u = user(h);

	if (u)
		u->refs--;
}

bool vmpi_errh_call(MPI_Comm comm, MPI_Errhandler h, int *code)
{
	struct handler *u = user(h);
	MPI_Comm c = comm;

	if (!u)
		return false;
	u->fn(&c, code);
	return true;
}

int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn,
			       MPI_Errhandler *errhandler)
{
	struct handler *n;
	int i;

	NEED_INIT("MPI_Comm_create_errhandler");
	if (!fn || !errhandler)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Comm_create_errhandler",
				  "no function or handle");
	for (i = 0; i < neh && eh[i].refs; i++)
		;
	if (i == neh) {
		if (neh == 4096)
			return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM,
					  "MPI_Comm_create_errhandler",
					  "4096 handlers live: no more");
		n = realloc(eh, (size_t)(neh + 1) * sizeof(*eh));
		if (!n)
			return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM,
					  "MPI_Comm_create_errhandler",
					  "out of memory");
		eh = n;
		neh++;
	}
	eh[i] = (struct handler){ .fn = fn, .refs = 1 };
	*errhandler = FIRST_USER + i;
	return MPI_SUCCESS;
}

int MPI_Errhandler_free(MPI_Errhandler *errhandler)
{
	NEED_INIT("MPI_Errhandler_free");
	if (!errhandler || !vmpi_errh_valid(*errhandler))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Errhandler_free", "not a handler");
	vmpi_errh_put(*errhandler);
	*errhandler = MPI_ERRHANDLER_NULL;
	return MPI_SUCCESS;
}

int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
	int ret = vmpi_enter(comm, "MPI_Comm_call_errhandler");

	if (ret)
		return ret;
	vmpi_error(comm, errorcode, "MPI_Comm_call_errhandler",
		   "the program's call");
	return MPI_SUCCESS;
}

/* A new code of class @cls (-1: a class of its own) in *@code. */
static int add(const char *call, int cls, int *code)
{
	struct added *n;

	NEED_INIT(call);
	if (!code)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "no code");
	if (ncodes == 4096)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call,
				  "4096 codes added: no more");
	n = realloc(codes, (size_t)(ncodes + 1) * sizeof(*codes));
	if (!n)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call,
				  "out of memory");
	codes = n;
	*code = MPI_ERR_LASTCODE + 1 + ncodes;
	codes[ncodes++] = (struct added){ .cls = cls < 0 ? *code : cls };
	vmpi_attr_lastused(vmpi_last_code());
	return MPI_SUCCESS;
}

int MPI_Add_error_class(int *errorclass)
{
	return add("MPI_Add_error_class", -1, errorclass);
}

/* Is @cls an error class: a predefined one, or one added as a class? */
static bool is_class(int cls)
{
	if (cls >= 0 && cls <= MPI_ERR_LASTCODE)
		return true;
	cls -= MPI_ERR_LASTCODE + 1;
	return cls >= 0 && cls < ncodes &&
	       codes[cls].cls == cls + MPI_ERR_LASTCODE + 1;
}

int MPI_Add_error_code(int errorclass, int *errorcode)
{
	if (!is_class(errorclass) || errorclass == MPI_SUCCESS)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Add_error_code", "class %d", errorclass);
	return add("MPI_Add_error_code", errorclass, errorcode);
}

int MPI_Add_error_string(int errorcode, const char *string)
{
	int k = errorcode - MPI_ERR_LASTCODE - 1;
	char *s;

	NEED_INIT("MPI_Add_error_string");
	if (k < 0 || k >= ncodes || !string)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Add_error_string",
				  "code %d: not one the program added", errorcode);
	s = strndup(string, MPI_MAX_ERROR_STRING - 1);
	if (!s)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM,
				  "MPI_Add_error_string", "out of memory");
	free(codes[k].str);
	codes[k].str = s;
	return MPI_SUCCESS;
}

int vmpi_code_class(int code)
{
	int k = code - MPI_ERR_LASTCODE - 1;

	if (code >= 0 && code <= MPI_ERR_LASTCODE)
		return code;
	return k >= 0 && k < ncodes ? codes[k].cls : -1;
}

const char *vmpi_code_string(int code)
{
	int k = code - MPI_ERR_LASTCODE - 1;

	if (k < 0 || k >= ncodes)
		return NULL;
	return codes[k].str ? codes[k].str : "";
}
