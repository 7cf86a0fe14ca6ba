// SPDX-License-Identifier: MIT
/*
 * Operators of the program's own (MPI_Op_create): a commutative sum
 * beside MPI_SUM in MPI_Allreduce, MPI_Reduce and MPI_Scan, and a
 * non-commutative one, the product of 2x2 integer matrices, whose result
 * MPI defines in rank order (M_0 M_1 ... M_p-1): MPI_Allreduce,
 * MPI_Reduce, MPI_Scan, MPI_Exscan and MPI_Reduce_local (inout = in op
 * inout); MPI_Op_commutative and MPI_Op_free. The same source passes
 * under Open MPI (tests/host/mpi_ompi.sh).
 */
#include <string.h>

#include "check.h"

typedef struct { long long a, b, c, d; } mat;	/* [[a b] [c d]] */

static mat mul(mat x, mat y)
{
	mat r = { x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d,
		  x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d };
	return r;
}

static int eq(mat x, mat y)
{
	return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
}

/* inout[i] = in[i] * inout[i], in that order */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
	mat *x = in, *y = inout;
	int i;

	(void)type;
	for (i = 0; i < *len; i++)
		y[i] = mul(x[i], y[i]);
}

static void isum(void *in, void *inout, int *len, MPI_Datatype *type)
{
	int *x = in, *y = inout, i;

	(void)type;
	for (i = 0; i < *len; i++)
		y[i] += x[i];
}

static mat of(int r)
{
	mat m = { r + 1, 1, 1, 0 };
	return m;
}

int main(int argc, char **argv)
{
	int rank, size, i, c, v[3], s[3], t[3];
	mat m, got, want = { 1, 0, 0, 1 }, pre = { 1, 0, 0, 1 }, tmp;
	MPI_Datatype mt;
	MPI_Op sum, prod;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Op_create(isum, 1, &sum);
	MPI_Op_create(matmul, 0, &prod);
	MPI_Op_commutative(sum, &c);
	CHECK(c == 1, "a commutative operator says %d", c);
	MPI_Op_commutative(prod, &c);
	CHECK(c == 0, "a non-commutative operator says %d", c);
	MPI_Op_commutative(MPI_SUM, &c);
	CHECK(c == 1, "MPI_SUM says %d", c);
	for (i = 0; i < 3; i++)
		v[i] = rank * 3 + i;
	MPI_Allreduce(v, s, 3, MPI_INT, sum, MPI_COMM_WORLD);
	MPI_Allreduce(v, t, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	CHECK(!memcmp(s, t, sizeof(s)), "a user sum: %d %d %d", s[0], s[1], s[2]);
	MPI_Scan(v, s, 3, MPI_INT, sum, MPI_COMM_WORLD);
	MPI_Scan(v, t, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	CHECK(!memcmp(s, t, sizeof(s)), "a user sum's scan");
	/* the matrices as a type of 4 long longs */
	MPI_Type_contiguous(4, MPI_LONG_LONG, &mt);
	MPI_Type_commit(&mt);
	for (i = 0; i < size; i++) {
		want = mul(want, of(i));
		if (i == rank - 1)
			pre = want;	/* the product of ranks before */
	}
	if (rank == 0)
		pre = (mat){ 1, 0, 0, 1 };
	m = of(rank);
	MPI_Allreduce(&m, &got, 1, mt, prod, MPI_COMM_WORLD);
	CHECK(eq(got, want), "the product in rank order: [%lld %lld %lld %lld]",
	      got.a, got.b, got.c, got.d);
	memset(&got, 0, sizeof(got));
	MPI_Reduce(&m, &got, 1, mt, prod, size - 1, MPI_COMM_WORLD);
	CHECK(rank != size - 1 || eq(got, want), "reduce's product at the root");
	MPI_Scan(&m, &got, 1, mt, prod, MPI_COMM_WORLD);
	CHECK(eq(got, mul(pre, m)), "the scan's prefix product");
	MPI_Exscan(&m, &got, 1, mt, prod, MPI_COMM_WORLD);
	CHECK(rank == 0 || eq(got, pre), "the exclusive scan's prefix product");
	tmp = of(1);
	got = of(2);
	MPI_Reduce_local(&tmp, &got, 1, mt, prod);
	CHECK(eq(got, mul(of(1), of(2))), "reduce_local: inout = in op inout");
	MPI_Type_free(&mt);
	MPI_Op_free(&sum);
	MPI_Op_free(&prod);
	CHECK(sum == MPI_OP_NULL && prod == MPI_OP_NULL, "a freed operator is not MPI_OP_NULL");
	return checks_done("userop");
}
