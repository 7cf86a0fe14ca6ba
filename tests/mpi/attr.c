// SPDX-License-Identifier: MIT
/*
 * Attributes and names: MPI_COMM_WORLD's predefined attributes, a user
 * keyval's set, get, replace and delete with the delete callback called
 * each time a value goes, MPI_Comm_dup copying what the copy callback
 * keeps (MPI_COMM_DUP_FN, a callback that drops, MPI-1's MPI_Attr_*),
 * MPI_Comm_free deleting the rest the last set first, a freed keyval
 * living on in its attributes, the same on datatypes, object names, and
 * MPI_Finalize deleting MPI_COMM_SELF's attributes. The errors: a freed
 * or unknown keyval, a delete of an attribute not set. The same source
 * passes under Open MPI (tests/host/mpi_ompi.sh). A callback's error goes to
 * the communicator's handler and leaves its attribute.
 */
#include <string.h>
#include <unistd.h>

#include "check.h"

/* MPI-1's MPI_Attr_* and MPI_Keyval_*, deprecated but still MPI's */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int deleted[8], ndeleted;

static int del_note(MPI_Comm c, int key, void *val, void *extra)
{
	(void)c, (void)key, (void)extra;
	if (ndeleted < 8)
		deleted[ndeleted++] = *(int *)val;
	return MPI_SUCCESS;
}

static int type_del_note(MPI_Datatype t, int key, void *val, void *extra)
{
	(void)t, (void)key, (void)extra;
	if (ndeleted < 8)
		deleted[ndeleted++] = *(int *)val;
	return MPI_SUCCESS;
}

/* keeps a value only if it is even, counting its calls in extra */
static int copy_even(MPI_Comm c, int key, void *extra, void *in, void *out,
		     int *flag)
{
	(void)c, (void)key;
	(*(int *)extra)++;
	*flag = *(int *)in % 2 == 0;
	if (*flag)
		*(void **)out = in;
	return MPI_SUCCESS;
}

static void predefined(int size)
{
	int *v, flag;

	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag);
	CHECK(flag && *v >= 32767, "MPI_TAG_UB: flag %d, %d", flag, flag ? *v : 0);
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v, &flag);
	/* Open MPI's is its slots, which may be fewer than the ranks */
	CHECK(!flag || *v > 0, "MPI_UNIVERSE_SIZE %d", *v);
	(void)size;
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v, &flag);
	CHECK(!flag || *v == 0 || *v == 1, "MPI_WTIME_IS_GLOBAL %d", *v);
	MPI_Attr_get(MPI_COMM_WORLD, MPI_HOST, &v, &flag);
	CHECK(flag, "MPI_HOST not set");
}

static void comm_attrs(void)
{
	static int a = 2, b = 3, c = 4, d = 6;
	int key, key1, extra = 0, flag, *v;
	MPI_Comm dup;

	MPI_Comm_create_keyval(copy_even, del_note, &key, &extra);
	MPI_Keyval_create(MPI_DUP_FN, del_note, &key1, NULL);
	MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag);
	CHECK(!flag, "an attribute never set is found");
	MPI_Comm_set_attr(MPI_COMM_WORLD, key, &a);
	MPI_Comm_set_attr(MPI_COMM_WORLD, key, &b);	/* a is deleted */
	CHECK(ndeleted == 1 && deleted[0] == a, "a replaced value: %d deletes", ndeleted);
	MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag);
	CHECK(flag && v == &b, "the value set last is got");
	MPI_Attr_put(MPI_COMM_WORLD, key1, &c);
	/* b is odd: the copy drops it; MPI_DUP_FN keeps c */
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	CHECK(extra == 1, "the copy callback ran %d times", extra);
	MPI_Comm_get_attr(dup, key, &v, &flag);
	CHECK(!flag, "an attribute the copy dropped is on the duplicate");
	MPI_Attr_get(dup, key1, &v, &flag);
	CHECK(flag && v == &c, "MPI_DUP_FN's copy: flag %d", flag);
	MPI_Comm_set_attr(dup, key, &d);
	/* freed keyvals live on in the attributes set with them */
	MPI_Comm_free_keyval(&key1);
	CHECK(key1 == MPI_KEYVAL_INVALID, "a freed keyval is not MPI_KEYVAL_INVALID");
	ndeleted = 0;
	MPI_Comm_free(&dup);	/* d, then c: the last set first */
	CHECK(ndeleted == 2 && deleted[0] == d && deleted[1] == c,
	      "MPI_Comm_free deleted %d attributes (%d, %d)", ndeleted, deleted[0], deleted[1]);
	ndeleted = 0;
	MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
	CHECK(ndeleted == 1 && deleted[0] == b, "MPI_Comm_delete_attr: %d deletes", ndeleted);
	MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag);
	CHECK(!flag, "a deleted attribute is found");
	MPI_Comm_free_keyval(&key);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
				     &key, NULL) == MPI_SUCCESS, "a keyval with no callbacks");
	CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, key) != MPI_SUCCESS,
	      "deleting an attribute never set succeeds");
	MPI_Comm_free_keyval(&key);
	CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &a) != MPI_SUCCESS,
	      "setting a freed keyval succeeds");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static int del_fails(MPI_Comm c, int key, void *val, void *extra)
{
	(void)c, (void)key, (void)val, (void)extra;
	return MPI_ERR_OTHER;
}

/*
 * A callback's error goes to the communicator's handler (MPI_ERRORS_RETURN
 * here, MPI_COMM_WORLD's still fatal), and its attribute stays.
 */
static void callback_errors(void)
{
	static int a = 1, b = 2;
	int key, flag, *v;
	MPI_Comm dup;

	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_fails, &key, NULL);
	MPI_Comm_set_attr(dup, key, &a);
	CHECK(MPI_Comm_set_attr(dup, key, &b) != MPI_SUCCESS,
	      "a replace whose delete callback fails succeeds");
	CHECK(MPI_Comm_delete_attr(dup, key) != MPI_SUCCESS,
	      "a delete whose callback fails succeeds");
	MPI_Comm_get_attr(dup, key, &v, &flag);
	CHECK(flag && v == &a, "the attribute a failed delete left: flag %d", flag);
	CHECK(MPI_Comm_free(&dup) != MPI_SUCCESS, "a free whose callback fails succeeds");
	MPI_Comm_free_keyval(&key);
}

static void type_attrs(void)
{
	static int a = 10;
	MPI_Datatype t, t2;
	int key, flag, *v;

	MPI_Type_contiguous(2, MPI_INT, &t);
	MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_del_note, &key, NULL);
	MPI_Type_set_attr(t, key, &a);
	MPI_Type_dup(t, &t2);
	MPI_Type_get_attr(t2, key, &v, &flag);
	CHECK(flag && v == &a, "MPI_Type_dup kept the attribute: flag %d", flag);
	ndeleted = 0;
	MPI_Type_free(&t2);
	MPI_Type_delete_attr(t, key);
	CHECK(ndeleted == 2 && deleted[0] == a && deleted[1] == a,
	      "the type's attributes deleted %d times", ndeleted);
	MPI_Type_free(&t);
	MPI_Type_free_keyval(&key);
}

static void names(void)
{
	char name[MPI_MAX_OBJECT_NAME];
	MPI_Datatype t;
	MPI_Comm dup;
	int len;

	MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
	CHECK(!strcmp(name, "MPI_COMM_WORLD") && len == 14, "world's name '%s'", name);
	MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
	CHECK(!strcmp(name, "MPI_COMM_SELF"), "self's name '%s'", name);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_set_name(dup, "halo");
	MPI_Comm_get_name(dup, name, &len);
	CHECK(!strcmp(name, "halo") && len == 4, "a set name: '%s'", name);
	MPI_Comm_free(&dup);
	MPI_Type_get_name(MPI_DOUBLE, name, &len);
	CHECK(!strcmp(name, "MPI_DOUBLE"), "MPI_DOUBLE's name '%s'", name);
	MPI_Type_vector(2, 1, 3, MPI_INT, &t);
	MPI_Type_get_name(t, name, &len);
	CHECK(len == 0 && !name[0], "a new type's name '%s'", name);
	MPI_Type_set_name(t, "column");
	MPI_Type_get_name(t, name, &len);
	CHECK(!strcmp(name, "column"), "a type's set name '%s'", name);
	MPI_Type_free(&t);
}

/*
 * After MPI_Finalize: it deleted MPI_COMM_SELF's attribute first (MPI_
 * COMM_WORLD's key1 attribute may follow: MPI leaves that open).
 */
static void finalized(void)
{
	if (ndeleted < 1 || deleted[0] != 99) {
		fprintf(stderr, "FAIL: MPI_Finalize deleted %d attributes\n", ndeleted);
		_exit(1);
	}
}

int main(int argc, char **argv)
{
	static int last = 99;
	int size, key;

	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	predefined(size);
	comm_attrs();
	callback_errors();
	type_attrs();
	names();
	/* deleted at MPI_Finalize, which checks_done() calls */
	MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_note, &key, NULL);
	MPI_Comm_set_attr(MPI_COMM_SELF, key, &last);
	ndeleted = 0;
	atexit(finalized);
	return checks_done("attr");
}
