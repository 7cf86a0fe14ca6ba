// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: attributes and their keys (MPI_Comm_*_attr, MPI_Type_*_attr,
 * the keyvals, and MPI-1's MPI_Attr_* and MPI_Keyval_*), the predefined
 * attributes of MPI_COMM_WORLD, and object names.
 *
 * A keyval is an index into one table, from VMPI_KEY0 up so that no
 * predefined key (MPI_TAG_UB ...) is one; a freed keyval stays in the
 * table, marked, until the last attribute set with it is deleted. An
 * object's attributes are a list in the order they were set: MPI_Comm_dup
 * and MPI_Type_dup copy them through their keys' copy callbacks, and
 * freeing the object deletes them through the delete callbacks, the last
 * set first (what MPI requires of MPI_COMM_SELF at MPI_Finalize).
 */
#include <stdlib.h>
#include <string.h>

#include "vmpi.h"

#define VMPI_KEY0	64		/* above the predefined keys */

struct vmpi_keyval {
	int kind;			/* VMPI_ATTR_COMM or _TYPE */
	bool freed;
	unsigned int uses;		/* attributes set with it */
	void *copy, *del;		/* the kind's callbacks, or NULL */
	void *extra;
};

struct vmpi_attr {
	struct vmpi_attr *next;
	int key;
	void *val;
};

static struct vmpi_keyval *keys;
static int nkeys, keys_cap;

/* The predefined attributes' values (pointers to them are the values). */
static int tag_ub = VMPI_TAG_UB, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE,
	   wtime_global = 1, universe, appnum, lastused = MPI_ERR_LASTCODE;

int MPI_COMM_DUP_FN(MPI_Comm c, int key, void *extra, void *in, void *out,
		    int *flag)
{
	(void)c, (void)key, (void)extra;
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

int MPI_TYPE_DUP_FN(MPI_Datatype t, int key, void *extra, void *in, void *out,
		    int *flag)
{
	(void)t, (void)key, (void)extra;
	*(void **)out = in;
	*flag = 1;
	return MPI_SUCCESS;
}

int MPI_DUP_FN(MPI_Comm c, int key, void *extra, void *in, void *out,
	       int *flag)
{
	return MPI_COMM_DUP_FN(c, key, extra, in, out, flag);
}

static struct vmpi_keyval *key_get(int kind, int key)
{
	if (key < VMPI_KEY0 || key - VMPI_KEY0 >= nkeys)
		return NULL;
	if (keys[key - VMPI_KEY0].kind != kind)
		return NULL;
	return &keys[key - VMPI_KEY0];
}

static int key_create(int kind, void *copy, void *del, int *key, void *extra,
		      const char *call)
{
	struct vmpi_keyval *k;

	NEED_INIT(call);
	if (!key)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "no keyval");
	if (nkeys == keys_cap) {
		int cap = keys_cap ? 2 * keys_cap : 16;

		k = realloc(keys, (size_t)cap * sizeof(*k));
		if (!k)
			return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call,
					  "out of memory");
		keys = k;
		keys_cap = cap;
	}
	k = &keys[nkeys];
	*k = (struct vmpi_keyval){ .kind = kind, .copy = copy, .del = del,
				   .extra = extra };
	*key = VMPI_KEY0 + nkeys++;
	return MPI_SUCCESS;
}

static int key_free(int kind, int *key, const char *call)
{
	struct vmpi_keyval *k;

	NEED_INIT(call);
	k = key ? key_get(kind, *key) : NULL;
	if (!k || k->freed)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_KEYVAL, call,
				  "not a keyval of this kind");
	k->freed = true;	/* its attributes keep it until deleted */
	*key = MPI_KEYVAL_INVALID;
	return MPI_SUCCESS;
}

/* The predefined attribute @key of MPI_COMM_WORLD, or NULL. */
static int *predefined(int key)
{
	universe = (int)vmpi.nnodes;
	switch (key) {
	case MPI_TAG_UB:
		return &tag_ub;
	case MPI_HOST:
		return &host;
	case MPI_IO:
		return &io;
	case MPI_WTIME_IS_GLOBAL:
		return &wtime_global;
	case MPI_UNIVERSE_SIZE:
		return &universe;
	case MPI_APPNUM:
		return &appnum;
	case MPI_LASTUSEDCODE:
		return &lastused;
	}
	return NULL;
}

void vmpi_attr_lastused(int code)
{
	lastused = code;
}

/* Whose handler an attribute call's error goes to: its communicator's. */
static MPI_Comm errc(int kind, void *obj)
{
	return kind == VMPI_ATTR_COMM && obj ? obj : MPI_COMM_WORLD;
}

static struct vmpi_attr **attr_find(struct vmpi_attr **list, int key)
{
	while (*list && (*list)->key != key)
		list = &(*list)->next;
	return list;
}

/* Call @a's delete callback for @obj (a communicator or a type). */
static int attr_del_cb(int kind, void *obj, struct vmpi_attr *a)
{
	struct vmpi_keyval *k = key_get(kind, a->key);
	int ret = MPI_SUCCESS;

	if (k->del && kind == VMPI_ATTR_COMM)
		ret = ((MPI_Comm_delete_attr_function *)k->del)(obj, a->key,
								 a->val, k->extra);
	else if (k->del)
		ret = ((MPI_Type_delete_attr_function *)k->del)(obj, a->key,
								 a->val, k->extra);
	return ret;
}

static void attr_drop(struct vmpi_attr **at)
{
	struct vmpi_attr *a = *at;

	*at = a->next;
	keys[a->key - VMPI_KEY0].uses--;
	free(a);
}

int vmpi_attr_set(int kind, void *obj, struct vmpi_attr **list, int key,
		  void *val, const char *call)
{
	struct vmpi_keyval *k = key_get(kind, key);
	struct vmpi_attr **at, *a;
	int ret;

	if (!k || k->freed)
		return vmpi_error(errc(kind, obj), MPI_ERR_KEYVAL, call,
				  "keyval %d: not one to set", key);
	at = attr_find(list, key);
	if (*at) {
		/* MPI: the old value is deleted first */
		ret = attr_del_cb(kind, obj, *at);
		if (ret)
			return vmpi_error(errc(kind, obj), ret, call,
					  "the delete callback failed");
		(*at)->val = val;
		return MPI_SUCCESS;
	}
	a = calloc(1, sizeof(*a));
	if (!a)
		return vmpi_error(errc(kind, obj), MPI_ERR_NO_MEM, call,
				  "out of memory");
	a->key = key;
	a->val = val;
	*at = a;
	k->uses++;
	return MPI_SUCCESS;
}

int vmpi_attr_get(int kind, void *obj, struct vmpi_attr *list, int key,
		  void *val, int *flag, const char *call)
{
	struct vmpi_attr **at;
	int *p;

	if (!val || !flag)
		return vmpi_error(errc(kind, obj), MPI_ERR_ARG, call,
				  "no value or flag");
	p = kind == VMPI_ATTR_COMM ? predefined(key) : NULL;
	if (p) {
		*(void **)val = p;
		*flag = 1;
		return MPI_SUCCESS;
	}
	if (!key_get(kind, key))
		return vmpi_error(errc(kind, obj), MPI_ERR_KEYVAL, call,
				  "keyval %d: not one of this kind", key);
	at = attr_find(&list, key);
	*flag = *at != NULL;
	if (*at)
		*(void **)val = (*at)->val;
	return MPI_SUCCESS;
}

int vmpi_attr_delete(int kind, void *obj, struct vmpi_attr **list, int key,
		     const char *call)
{
	struct vmpi_attr **at;
	int ret;

	if (!key_get(kind, key))
		return vmpi_error(errc(kind, obj), MPI_ERR_KEYVAL, call,
				  "keyval %d: not one to delete", key);
	at = attr_find(list, key);
	if (!*at)
		return vmpi_error(errc(kind, obj), MPI_ERR_KEYVAL, call,
				  "keyval %d: no such attribute", key);
	ret = attr_del_cb(kind, obj, *at);
	if (ret)
		return vmpi_error(errc(kind, obj), ret, call,
				  "the delete callback failed");
	attr_drop(at);
	return MPI_SUCCESS;
}

/*
 * Every attribute of @old that its copy callback keeps, onto the list @to
 * (empty) of its duplicate: 0 or the first callback's error.
 */
int vmpi_attr_copy(int kind, void *old, struct vmpi_attr *from,
		   struct vmpi_attr **to)
{
	struct vmpi_attr *a, *c;
	int ret, flag;
	void *val;

	for (a = from; a; a = a->next) {
		struct vmpi_keyval *k = key_get(kind, a->key);

		flag = 0;
		val = NULL;
		ret = MPI_SUCCESS;
		if (k->copy && kind == VMPI_ATTR_COMM)
			ret = ((MPI_Comm_copy_attr_function *)k->copy)(
				old, a->key, k->extra, a->val, &val, &flag);
		else if (k->copy)
			ret = ((MPI_Type_copy_attr_function *)k->copy)(
				old, a->key, k->extra, a->val, &val, &flag);
		if (ret)
			return ret;
		if (!flag)
			continue;
		c = calloc(1, sizeof(*c));
		if (!c)
			return MPI_ERR_NO_MEM;
		c->key = a->key;
		c->val = val;
		*to = c;
		to = &c->next;
		k->uses++;
	}
	return MPI_SUCCESS;
}

/* Delete every attribute of @obj, the last set first: 0 or an error. */
int vmpi_attr_clear(int kind, void *obj, struct vmpi_attr **list)
{
	int ret;

	while (*list) {
		struct vmpi_attr **last = list;

		while ((*last)->next)
			last = &(*last)->next;
		ret = attr_del_cb(kind, obj, *last);
		if (ret)
			return ret;
		attr_drop(last);
	}
	return MPI_SUCCESS;
}

/* ---- communicators' ------------------------------------------------------- */

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy,
			   MPI_Comm_delete_attr_function *del, int *key,
			   void *extra)
{
	return key_create(VMPI_ATTR_COMM, (void *)copy, (void *)del, key, extra,
			  "MPI_Comm_create_keyval");
}

int MPI_Comm_free_keyval(int *key)
{
	return key_free(VMPI_ATTR_COMM, key, "MPI_Comm_free_keyval");
}

int MPI_Comm_set_attr(MPI_Comm comm, int key, void *val)
{
	int ret = vmpi_enter(comm, "MPI_Comm_set_attr");

	return ret ? ret : vmpi_attr_set(VMPI_ATTR_COMM, comm, &comm->attrs,
					 key, val, "MPI_Comm_set_attr");
}

int MPI_Comm_get_attr(MPI_Comm comm, int key, void *val, int *flag)
{
	int ret = vmpi_enter(comm, "MPI_Comm_get_attr");

	return ret ? ret : vmpi_attr_get(VMPI_ATTR_COMM, comm, comm->attrs, key,
					 val, flag, "MPI_Comm_get_attr");
}

int MPI_Comm_delete_attr(MPI_Comm comm, int key)
{
	int ret = vmpi_enter(comm, "MPI_Comm_delete_attr");

	return ret ? ret : vmpi_attr_delete(VMPI_ATTR_COMM, comm, &comm->attrs,
					    key, "MPI_Comm_delete_attr");
}

/* MPI-1's names for the same */
int MPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del,
		      int *key, void *extra)
{
	return key_create(VMPI_ATTR_COMM, (void *)copy, (void *)del, key, extra,
			  "MPI_Keyval_create");
}

int MPI_Keyval_free(int *key)
{
	return key_free(VMPI_ATTR_COMM, key, "MPI_Keyval_free");
}

int MPI_Attr_put(MPI_Comm comm, int key, void *val)
{
	return MPI_Comm_set_attr(comm, key, val);
}

int MPI_Attr_get(MPI_Comm comm, int key, void *val, int *flag)
{
	return MPI_Comm_get_attr(comm, key, val, flag);
}

int MPI_Attr_delete(MPI_Comm comm, int key)
{
	return MPI_Comm_delete_attr(comm, key);
}

/* ---- datatypes' ------------------------------------------------------------ */

int MPI_Type_create_keyval(MPI_Type_copy_attr_function *copy,
			   MPI_Type_delete_attr_function *del, int *key,
			   void *extra)
{
	return key_create(VMPI_ATTR_TYPE, (void *)copy, (void *)del, key, extra,
			  "MPI_Type_create_keyval");
}

int MPI_Type_free_keyval(int *key)
{
	return key_free(VMPI_ATTR_TYPE, key, "MPI_Type_free_keyval");
}

static int type_enter(MPI_Datatype type, const char *call)
{
	NEED_INIT(call);
	return type ? 0 : vmpi_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
				     "not a datatype");
}

int MPI_Type_set_attr(MPI_Datatype type, int key, void *val)
{
	int ret = type_enter(type, "MPI_Type_set_attr");

	return ret ? ret : vmpi_attr_set(VMPI_ATTR_TYPE, type, &type->attrs,
					 key, val, "MPI_Type_set_attr");
}

int MPI_Type_get_attr(MPI_Datatype type, int key, void *val, int *flag)
{
	int ret = type_enter(type, "MPI_Type_get_attr");

	return ret ? ret : vmpi_attr_get(VMPI_ATTR_TYPE, type, type->attrs, key,
					 val, flag, "MPI_Type_get_attr");
}

int MPI_Type_delete_attr(MPI_Datatype type, int key)
{
	int ret = type_enter(type, "MPI_Type_delete_attr");

	return ret ? ret : vmpi_attr_delete(VMPI_ATTR_TYPE, type, &type->attrs,
					    key, "MPI_Type_delete_attr");
}

/* ---- names ----------------------------------------------------------------- */

static int name_set(char *dst, const char *name, const char *call)
{
	if (!name)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "no name");
	snprintf(dst, MPI_MAX_OBJECT_NAME, "%s", name);
	return MPI_SUCCESS;
}

static int name_get(const char *src, char *name, int *len, const char *call)
{
	if (!name || !len)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
				  "no buffer or length");
	snprintf(name, MPI_MAX_OBJECT_NAME, "%s", src);
	*len = (int)strlen(name);
	return MPI_SUCCESS;
}

int MPI_Comm_set_name(MPI_Comm comm, const char *name)
{
	int ret = vmpi_enter(comm, "MPI_Comm_set_name");

	return ret ? ret : name_set(comm->name, name, "MPI_Comm_set_name");
}

int MPI_Comm_get_name(MPI_Comm comm, char *name, int *len)
{
	int ret = vmpi_enter(comm, "MPI_Comm_get_name");

	return ret ? ret : name_get(comm->name, name, len, "MPI_Comm_get_name");
}

int MPI_Type_set_name(MPI_Datatype type, const char *name)
{
	int ret = type_enter(type, "MPI_Type_set_name");

	return ret ? ret : name_set(type->uname, name, "MPI_Type_set_name");
}

int MPI_Type_get_name(MPI_Datatype type, char *name, int *len)
{
	int ret = type_enter(type, "MPI_Type_get_name");

	if (ret)
		return ret;
	/* a predefined type's own name, a derived one's only if set */
	return name_get(type->builtin && !type->uname[0] ? type->name :
			type->uname, name, len, "MPI_Type_get_name");
}
