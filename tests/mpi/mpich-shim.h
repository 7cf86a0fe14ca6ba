/* SPDX-License-Identifier: MIT */
/*
 * Put before every source of MPICH's test suite (cc -include), for vcube-mpi
 * and Open MPI alike (scripts/mpi-conformance.sh): its datatype pools
 * (test/mpi/dtpools) call MPI-1's MPI_Type_hvector and MPI_Type_hindexed,
 * removed in MPI-3.0, which neither has (Open MPI 4.1 makes them a build
 * error). Their MPI-2 names take the same arguments.
 */
#ifndef VCUBE_MPICH_SHIM_H
#define VCUBE_MPICH_SHIM_H
#include <mpi.h>
#undef MPI_Type_hvector
#undef MPI_Type_hindexed
#define MPI_Type_hvector MPI_Type_create_hvector
#define MPI_Type_hindexed MPI_Type_create_hindexed
#endif
