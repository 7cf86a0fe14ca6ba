// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: info objects (MPI_Info), the hints given to communicators,
 * and MPI_Comm_split_type.
 *
 * An info is an ordered list of (key, value) strings, keys up to
 * MPI_MAX_INFO_KEY and values up to MPI_MAX_INFO_VAL bytes. vcube-mpi
 * takes no hint: a communicator's info is empty whatever was set
 * (MPI_Comm_get_info answers so, as MPI allows for hints a library
 * ignores). MPI_INFO_ENV is empty, as MPI allows.
 */
#include <stdlib.h>
#include <string.h>

#include "vmpi.h"

struct vmpi_info {
	struct entry {
		char *key, *val;
	} *e;
	int n, cap;
	bool builtin;
};

struct vmpi_info vmpi_info_env = { .builtin = true };

static int info_check(MPI_Info info, const char *call)
{
	if (!info)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
				  "MPI_INFO_NULL");
	return 0;
}

static int key_check(const char *key, const char *call)
{
	size_t n = key ? strlen(key) : 0;

	if (!n || n > MPI_MAX_INFO_KEY)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
				  "a key of %zu bytes: 1 .. %d", n,
				  MPI_MAX_INFO_KEY);
	return 0;
}

static int find(MPI_Info info, const char *key)
{
	int i;

	for (i = 0; i < info->n; i++)
		if (!strcmp(info->e[i].key, key))
			return i;
	return -1;
}

int MPI_Info_create(MPI_Info *info)
{
	NEED_INIT("MPI_Info_create");
	if (!info)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_create",
				  "no handle");
	*info = calloc(1, sizeof(**info));
	if (!*info)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM,
				  "MPI_Info_create", "out of memory");
	return MPI_SUCCESS;
}

int MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
	const char *call = "MPI_Info_set";
	struct entry *e;
	char *k, *v;
	int i, ret;

	NEED_INIT(call);
	ret = info_check(info, call);
	if (!ret)
		ret = key_check(key, call);
	if (ret)
		return ret;
	if (info->builtin)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
				  "MPI_INFO_ENV is not the program's to set");
	if (!value || strlen(value) > MPI_MAX_INFO_VAL)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
				  "no value, or longer than %d bytes",
				  MPI_MAX_INFO_VAL);
	v = strdup(value);
	if (!v)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call,
				  "out of memory");
	i = find(info, key);
	if (i >= 0) {
		free(info->e[i].val);
		info->e[i].val = v;
		return MPI_SUCCESS;
	}
	if (info->n == info->cap) {
		int cap = info->cap ? 2 * info->cap : 8;

		e = realloc(info->e, (size_t)cap * sizeof(*e));
		if (!e) {
			free(v);
			return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call,
					  "out of memory");
		}
		info->e = e;
		info->cap = cap;
	}
	k = strdup(key);
	if (!k) {
		free(v);
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call,
				  "out of memory");
	}
	info->e[info->n++] = (struct entry){ k, v };
	return MPI_SUCCESS;
}

int MPI_Info_delete(MPI_Info info, const char *key)
{
	int i, ret;

	NEED_INIT("MPI_Info_delete");
	ret = info_check(info, "MPI_Info_delete");
	if (!ret)
		ret = key_check(key, "MPI_Info_delete");
	if (ret)
		return ret;
	i = find(info, key);
	if (i < 0)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_delete",
				  "no key %s", key);
	free(info->e[i].key);
	free(info->e[i].val);
	memmove(&info->e[i], &info->e[i + 1],
		(size_t)(info->n - i - 1) * sizeof(*info->e));
	info->n--;
	return MPI_SUCCESS;
}

int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
		 int *flag)
{
	int i, ret;

	NEED_INIT("MPI_Info_get");
	ret = info_check(info, "MPI_Info_get");
	if (!ret)
		ret = key_check(key, "MPI_Info_get");
	if (!ret && (valuelen < 0 || !flag || (valuelen && !value)))
		ret = vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_get",
				 "length %d, or no value or flag", valuelen);
	if (ret)
		return ret;
	i = find(info, key);
	*flag = i >= 0;
	if (i >= 0 && valuelen) {
		/* at most valuelen bytes and the NUL, as MPI says */
		strncpy(value, info->e[i].val, (size_t)valuelen);
		value[valuelen] = '\0';
	}
	return MPI_SUCCESS;
}

int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
			  int *flag)
{
	int i, ret;

	NEED_INIT("MPI_Info_get_valuelen");
	ret = info_check(info, "MPI_Info_get_valuelen");
	if (!ret)
		ret = key_check(key, "MPI_Info_get_valuelen");
	if (ret)
		return ret;
	i = find(info, key);
	*flag = i >= 0;
	if (i >= 0)
		*valuelen = (int)strlen(info->e[i].val);
	return MPI_SUCCESS;
}

int MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
	int ret;

	NEED_INIT("MPI_Info_get_nkeys");
	ret = info_check(info, "MPI_Info_get_nkeys");
	if (ret)
		return ret;
	*nkeys = info->n;
	return MPI_SUCCESS;
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
	int ret;

	NEED_INIT("MPI_Info_get_nthkey");
	ret = info_check(info, "MPI_Info_get_nthkey");
	if (ret)
		return ret;
	if (n < 0 || n >= info->n || !key)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Info_get_nthkey", "key %d of %d", n,
				  info->n);
	strcpy(key, info->e[n].key);
	return MPI_SUCCESS;
}

int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
	int i, ret;

	NEED_INIT("MPI_Info_dup");
	ret = info_check(info, "MPI_Info_dup");
	if (!ret)
		ret = MPI_Info_create(newinfo);
	for (i = 0; !ret && i < info->n; i++)
		ret = MPI_Info_set(*newinfo, info->e[i].key, info->e[i].val);
	return ret;
}

int MPI_Info_free(MPI_Info *info)
{
	int i;

	NEED_INIT("MPI_Info_free");
	if (!info || !*info || (*info)->builtin)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Info_free",
				  "not an info of the program's");
	for (i = 0; i < (*info)->n; i++) {
		free((*info)->e[i].key);
		free((*info)->e[i].val);
	}
	free((*info)->e);
	free(*info);
	*info = MPI_INFO_NULL;
	return MPI_SUCCESS;
}

/* ---- communicators' hints: none taken -------------------------------------- */

int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
	int ret = vmpi_enter(comm, "MPI_Comm_set_info");

	if (!ret && !info)
		ret = vmpi_error(comm, MPI_ERR_ARG, "MPI_Comm_set_info",
				 "MPI_INFO_NULL");
	return ret;
}

int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
	int ret = vmpi_enter(comm, "MPI_Comm_get_info");

	return ret ? ret : MPI_Info_create(info_used);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	(void)info;		/* no hint taken */
	return MPI_Comm_dup(comm, newcomm);
}

/*
 * MPI_COMM_TYPE_SHARED: the processes that share memory, on the modelled
 * machine each node alone (its nodes share none).
 */
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
			MPI_Comm *newcomm)
{
	int ret = vmpi_intra(comm, "MPI_Comm_split_type");

	(void)info;
	if (ret)
		return ret;
	if (split_type != MPI_UNDEFINED && split_type != MPI_COMM_TYPE_SHARED)
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Comm_split_type",
				  "split type %d", split_type);
	return MPI_Comm_split(comm, split_type == MPI_UNDEFINED ? MPI_UNDEFINED :
			      comm->rank, key, newcomm);
}
