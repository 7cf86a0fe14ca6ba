// SPDX-License-Identifier: MIT
/*
 * Info objects and the calls that take them: keys set, replaced, read
 * (whole and cut short), counted, listed in order, deleted, duplicated;
 * MPI_Comm_dup_with_info, _set_info and _get_info; MPI_Comm_split_type
 * (under vcube-mpi each rank alone: the modelled nodes share no memory)
 * and MPI_UNDEFINED's MPI_COMM_NULL. The same source passes under Open
 * MPI (tests/host/mpi_ompi.sh).
 */
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
	char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
	int rank, n, flag, len, size;
	MPI_Info info, dup, used;
	MPI_Comm c, shared, none;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Info_create(&info);
	MPI_Info_set(info, "alpha", "1");
	MPI_Info_set(info, "beta", "two");
	MPI_Info_set(info, "gamma", "three 3");
	MPI_Info_set(info, "beta", "second");	/* replaced, in its place */
	MPI_Info_get_nkeys(info, &n);
	CHECK(n == 3, "nkeys %d", n);
	MPI_Info_get_nthkey(info, 1, key);
	CHECK(!strcmp(key, "beta"), "key 1: %s", key);
	MPI_Info_get(info, "beta", MPI_MAX_INFO_VAL, val, &flag);
	CHECK(flag && !strcmp(val, "second"), "beta: %d %s", flag, val);
	MPI_Info_get(info, "gamma", 5, val, &flag);
	CHECK(flag && !strcmp(val, "three"), "gamma cut to 5: %s", val);
	MPI_Info_get_valuelen(info, "gamma", &len, &flag);
	CHECK(flag && len == 7, "gamma's length %d", len);
	MPI_Info_get(info, "delta", MPI_MAX_INFO_VAL, val, &flag);
	CHECK(!flag, "delta found");
	MPI_Info_dup(info, &dup);
	MPI_Info_delete(info, "alpha");
	MPI_Info_get_nkeys(info, &n);
	CHECK(n == 2, "nkeys after delete %d", n);
	MPI_Info_get_nkeys(dup, &n);
	CHECK(n == 3, "the dup's nkeys %d", n);
	MPI_Info_get_nthkey(dup, 0, key);
	CHECK(!strcmp(key, "alpha"), "the dup's key 0: %s", key);
	/* communicators take info */
	MPI_Comm_dup_with_info(MPI_COMM_WORLD, dup, &c);
	MPI_Comm_set_info(c, info);
	MPI_Comm_get_info(c, &used);
	CHECK(used != MPI_INFO_NULL, "get_info gave MPI_INFO_NULL");
	MPI_Info_free(&used);
	MPI_Comm_size(c, &n);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(n == size, "dup_with_info's size %d", n);
	MPI_Comm_split_type(c, MPI_COMM_TYPE_SHARED, rank, info, &shared);
	CHECK(shared != MPI_COMM_NULL, "split_type gave MPI_COMM_NULL");
	MPI_Comm_size(shared, &n);
#ifdef VCUBE_MPI
	CHECK(n == 1, "a node shares memory with %d ranks", n);
#endif
	CHECK(n >= 1 && n <= size, "split_type's size %d", n);
	MPI_Comm_split_type(c, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none);
	CHECK(none == MPI_COMM_NULL, "MPI_UNDEFINED gave a communicator");
	MPI_Comm_free(&shared);
	MPI_Comm_free(&c);
	MPI_Info_free(&info);
	MPI_Info_free(&dup);
	CHECK(info == MPI_INFO_NULL, "freed info not MPI_INFO_NULL");
	return checks_done("info");
}
