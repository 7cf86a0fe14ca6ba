// SPDX-License-Identifier: MIT
/*
 * Derived datatypes in point-to-point messages: a matrix's column
 * (vector), blocks at offsets (indexed, hindexed, indexed_block), a C
 * struct (struct, resized, MPI_Get_address), a subarray, their extents,
 * counts of them and of their elements, MPI_Pack and MPI_Unpack, a
 * nonblocking receive and MPI_Sendrecv_replace of a column, and how each
 * kind of type was made (MPI_Type_get_envelope, _contents). Ranks 0 and 1
 * talk; the others only finish. The same source passes under Open MPI
 * (tests/host/mpi_ompi.sh).
 */
#include <complex.h>
#include <string.h>

#include "check.h"

#define R 6
#define C 8

struct rec {
	int a;
	double b;
	char c[3];
};

static double m[R][C];
static int rank, size;
static MPI_Datatype colt, idx, st, rst, sa, hv, ib, dup;

static void column(void)
{
	double col[R];
	int i;
	int j;
	int n;
	MPI_Aint lb;
	MPI_Aint ext;
	MPI_Status s;

	/* a column of a 6 x 8 matrix */
	MPI_Type_vector(R, 1, C, MPI_DOUBLE, &colt);
	MPI_Type_commit(&colt);
	MPI_Type_get_extent(colt, &lb, &ext);
	CHECK(lb == 0 && ext == (MPI_Aint)(((R - 1) * C + 1) * sizeof(double)),
	      "the column's extent: %ld %ld", (long)lb, (long)ext);
	MPI_Type_size(colt, &n);
	CHECK(n == (int)(R * sizeof(double)), "the column's size: %d", n);
	for (i = 0; i < R; i++)
		for (j = 0; j < C; j++)
			m[i][j] = rank * 1000 + i * 10 + j;
	if (rank == 0) {
		MPI_Send(&m[0][3], 1, colt, 1, 1, MPI_COMM_WORLD);
		MPI_Send(&m[0][5], 1, colt, 1, 2, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(&m[0][6], 1, colt, 0, 1, MPI_COMM_WORLD, &s);
		MPI_Get_count(&s, colt, &n);
		MPI_Get_elements(&s, colt, &j);
		CHECK(n == 1 && j == R, "a column received: count %d, elements %d", n, j);
		for (i = 0; i < R; i++)
			CHECK(m[i][6] == i * 10 + 3 && m[i][5] == 1000 + i * 10 + 5,
			      "row %d: %g, %g", i, m[i][6], m[i][5]);
		MPI_Recv(col, R, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, &s);
		for (i = 0; i < R; i++)
			CHECK(col[i] == i * 10 + 5, "a column as %d doubles: %g", R, col[i]);
	}
}

static void indexed(void)
{
	int i;
	int v[12];
	int bl[3] = { 2, 1, 3 };
	int disp[3] = { 0, 5, 9 };
	MPI_Aint lb;
	MPI_Aint ext;
	MPI_Status s;

	/* blocks of 2, 1, 3 ints at 0, 5, 9: two of them, 12 ints apart */
	MPI_Type_indexed(3, bl, disp, MPI_INT, &idx);
	MPI_Type_commit(&idx);
	MPI_Type_get_extent(idx, &lb, &ext);
	CHECK(ext == 12 * (MPI_Aint)sizeof(int), "the indexed type's extent %ld",
	      (long)ext);
	if (rank == 0) {
		int big[24];

		for (i = 0; i < 24; i++)
			big[i] = i;
		MPI_Send(big, 2, idx, 1, 3, MPI_COMM_WORLD);
	} else if (rank == 1) {
		static const int want[12] = { 0, 1, 5, 9, 10, 11, 12, 13, 17, 21, 22, 23 };

		MPI_Recv(v, 12, MPI_INT, 0, 3, MPI_COMM_WORLD, &s);
		CHECK(!memcmp(v, want, sizeof(want)), "two indexed elements, packed: %d %d %d ...",
		      v[0], v[2], v[6]);
	}
}

static void three_ways(void)
{
	int i;
	int v[12];
	int w[12];
	MPI_Status s;

	/* hvector, indexed_block, dup: the same bytes three ways */
	MPI_Type_create_hvector(3, 2, 4 * sizeof(int), MPI_INT, &hv);
	MPI_Type_create_indexed_block(3, 2, (int[]){ 0, 4, 8 }, MPI_INT, &ib);
	MPI_Type_dup(hv, &dup);
	MPI_Type_commit(&hv);
	MPI_Type_commit(&ib);
	MPI_Type_commit(&dup);
	if (rank == 0) {
		for (i = 0; i < 12; i++)
			v[i] = 100 + i;
		MPI_Send(v, 1, hv, 1, 4, MPI_COMM_WORLD);
		MPI_Send(v, 1, ib, 1, 5, MPI_COMM_WORLD);
		MPI_Send(v, 1, dup, 1, 6, MPI_COMM_WORLD);
	} else if (rank == 1) {
		static const int want[6] = { 100, 101, 104, 105, 108, 109 };

		for (i = 4; i <= 6; i++) {
			MPI_Recv(w, 6, MPI_INT, 0, i, MPI_COMM_WORLD, &s);
			CHECK(!memcmp(w, want, sizeof(want)), "tag %d: %d %d %d", i, w[0],
			      w[2], w[4]);
		}
	}
}

static void structs(void)
{
	int i;
	int n;
	struct rec rs[3] = { { 0 } };
	struct rec rr[3];
	MPI_Datatype types[3] = { MPI_INT, MPI_DOUBLE, MPI_CHAR };
	MPI_Aint lb;
	MPI_Aint ext;
	MPI_Aint base;
	MPI_Aint d3[3];
	MPI_Status s;
	int blens[3] = { 1, 1, 3 };

	/* an array of C structs, by their members' addresses */
	MPI_Get_address(&rs[0], &base);
	MPI_Get_address(&rs[0].a, &d3[0]);
	MPI_Get_address(&rs[0].b, &d3[1]);
	MPI_Get_address(&rs[0].c, &d3[2]);
	for (i = 0; i < 3; i++)
		d3[i] -= base;
	MPI_Type_create_struct(3, blens, d3, types, &st);
	MPI_Type_create_resized(st, 0, sizeof(struct rec), &rst);
	MPI_Type_commit(&rst);
	MPI_Type_get_extent(rst, &lb, &ext);
	MPI_Type_size(rst, &n);
	CHECK(ext == (MPI_Aint)sizeof(struct rec) && n == 15,
	      "the struct: extent %ld, size %d", (long)ext, n);
	if (rank == 0) {
		for (i = 0; i < 3; i++) {
			rs[i].a = 7 * i;
			rs[i].b = 0.5 * i;
			memcpy(rs[i].c, "xyz", 3);
			rs[i].c[0] = (char)('a' + i);
		}
		MPI_Send(rs, 3, rst, 1, 7, MPI_COMM_WORLD);
	} else if (rank == 1) {
		memset(rr, 0, sizeof(rr));
		MPI_Recv(rr, 3, rst, 0, 7, MPI_COMM_WORLD, &s);
		for (i = 0; i < 3; i++)
			CHECK(rr[i].a == 7 * i && rr[i].b == 0.5 * i &&
			      rr[i].c[0] == 'a' + i && rr[i].c[1] == 'y' && rr[i].c[2] == 'z',
			      "struct %d: %d %g %c", i, rr[i].a, rr[i].b, rr[i].c[0]);
	}
}

static void subarray(void)
{
	int i;
	int j;
	int w[12];
	int sizes[2] = { 4, 5 };
	int sub[2] = { 2, 3 };
	int starts[2] = { 1, 1 };
	int arr[4][5];
	MPI_Aint lb;
	MPI_Aint ext;
	MPI_Status s;

	/* the 2 x 3 block at (1, 1) of a 4 x 5 array */
	MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &sa);
	MPI_Type_commit(&sa);
	MPI_Type_get_extent(sa, &lb, &ext);
	CHECK(lb == 0 && ext == 20 * (MPI_Aint)sizeof(int), "the subarray's extent %ld",
	      (long)ext);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 5; j++)
			arr[i][j] = 10 * i + j;
	if (rank == 0) {
		MPI_Send(arr, 1, sa, 1, 8, MPI_COMM_WORLD);
	} else if (rank == 1) {
		static const int want[6] = { 11, 12, 13, 21, 22, 23 };

		MPI_Recv(w, 6, MPI_INT, 0, 8, MPI_COMM_WORLD, &s);
		CHECK(!memcmp(w, want, sizeof(want)), "the subarray: %d %d %d %d", w[0],
		      w[2], w[3], w[5]);
	}
}

static void packed_by_hand(void)
{
	int i;
	int j;
	int n;
	int pos;
	int packed[64];
	MPI_Status s;

	/* packed by hand: an int, then a column; unpacked the same way */
	if (rank == 0) {
		pos = 0;
		n = 42;
		MPI_Pack(&n, 1, MPI_INT, packed, sizeof(packed), &pos, MPI_COMM_WORLD);
		MPI_Pack(&m[0][1], 1, colt, packed, sizeof(packed), &pos, MPI_COMM_WORLD);
		MPI_Pack_size(1, colt, MPI_COMM_WORLD, &i);
		CHECK(pos == (int)sizeof(int) + i, "packed %d bytes", pos);
		MPI_Send(packed, pos, MPI_PACKED, 1, 9, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(packed, sizeof(packed), MPI_PACKED, 0, 9, MPI_COMM_WORLD, &s);
		MPI_Get_count(&s, MPI_PACKED, &j);
		pos = 0;
		MPI_Unpack(packed, j, &pos, &n, 1, MPI_INT, MPI_COMM_WORLD);
		MPI_Unpack(packed, j, &pos, &m[0][7], 1, colt, MPI_COMM_WORLD);
		CHECK(n == 42 && pos == j, "unpacked: %d, at %d of %d", n, pos, j);
		for (i = 0; i < R; i++)
			CHECK(m[i][7] == i * 10 + 1, "unpacked row %d: %g", i, m[i][7]);
	}
}

static void nonblocking(void)
{
	int i;
	int j;
	MPI_Request rq;
	MPI_Status s;

	/* nonblocking into a column; a column replaced both ways */
	if (rank < 2) {
		for (i = 0; i < R; i++)
			for (j = 0; j < C; j++)
				m[i][j] = rank * 1000 + i * 10 + j;
		MPI_Irecv(&m[0][0], 1, colt, 1 - rank, 10, MPI_COMM_WORLD, &rq);
		MPI_Send(&m[0][2], 1, colt, 1 - rank, 10, MPI_COMM_WORLD);
		MPI_Wait(&rq, &s);
		MPI_Sendrecv_replace(&m[0][4], 1, colt, 1 - rank, 11, 1 - rank, 11,
				     MPI_COMM_WORLD, &s);
		for (i = 0; i < R; i++)
			CHECK(m[i][0] == (1 - rank) * 1000 + i * 10 + 2 &&
			      m[i][4] == (1 - rank) * 1000 + i * 10 + 4 &&
			      m[i][1] == rank * 1000 + i * 10 + 1,
			      "row %d: %g %g %g", i, m[i][0], m[i][4], m[i][1]);
	}
}

/* @t's envelope is @comb with @ni, @na, @nt of integers, addresses, types. */
static void envelope_is(MPI_Datatype t, int comb, int ni, int na, int nt)
{
	int i, a, n, c;

	MPI_Type_get_envelope(t, &i, &a, &n, &c);
	CHECK(c == comb && i == ni && a == na && n == nt,
	      "envelope: combiner %d (not %d), %d %d %d (not %d %d %d)", c, comb,
	      i, a, n, ni, na, nt);
}

/*
 * @t's contents, asked with the envelope's counts as programs do (Open MPI
 * 4.1 crashes when asked with more room than the type needs).
 */
static void contents(MPI_Datatype t, int *ints, MPI_Aint *aints,
		     MPI_Datatype *types)
{
	int i, a, n, c;

	MPI_Type_get_envelope(t, &i, &a, &n, &c);
	MPI_Type_get_contents(t, i, a, n, ints, aints, types);
}

/* How each type was made, as MPI_Type_get_envelope and _contents say. */
static void envelopes(void)
{
	int ints[16], bl[3] = { 2, 1, 3 }, dp[3] = { 0, 4, 8 };
	int sz[2] = { 4, 5 }, sub[2] = { 2, 3 }, st0[2] = { 1, 1 };
	MPI_Aint aints[4], ad[2] = { 0, 16 };
	MPI_Datatype types[4], v, x, ts[2] = { MPI_INT, MPI_DOUBLE };

	envelope_is(MPI_INT, MPI_COMBINER_NAMED, 0, 0, 0);
	MPI_Type_vector(3, 2, 5, MPI_INT, &v);
	envelope_is(v, MPI_COMBINER_VECTOR, 3, 0, 1);
	contents(v, ints, aints, types);
	CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 5 && types[0] == MPI_INT,
	      "a vector's contents: %d %d %d", ints[0], ints[1], ints[2]);
	MPI_Type_indexed(3, bl, dp, v, &x);
	envelope_is(x, MPI_COMBINER_INDEXED, 7, 0, 1);
	contents(x, ints, aints, types);
	CHECK(ints[0] == 3 && ints[1] == 2 && ints[3] == 3 && ints[5] == 4,
	      "an indexed type's contents: %d %d %d %d", ints[0], ints[1], ints[3],
	      ints[5]);
	/* a derived type comes back as a type like it (MPI: a new object) */
	envelope_is(types[0], MPI_COMBINER_VECTOR, 3, 0, 1);
	MPI_Type_free(&types[0]);	/* a derived type returned: ours to free */
	MPI_Type_free(&x);
	MPI_Type_create_struct(2, bl, ad, ts, &x);
	envelope_is(x, MPI_COMBINER_STRUCT, 3, 2, 2);
	contents(x, ints, aints, types);
	CHECK(aints[1] == 16 && types[1] == MPI_DOUBLE && ints[2] == 1,
	      "a struct's contents: %ld", (long)aints[1]);
	MPI_Type_free(&x);
	MPI_Type_create_subarray(2, sz, sub, st0, MPI_ORDER_C, MPI_INT, &x);
	envelope_is(x, MPI_COMBINER_SUBARRAY, 8, 0, 1);
	contents(x, ints, aints, types);
	CHECK(ints[0] == 2 && ints[2] == 5 && ints[4] == 3 && ints[6] == 1 &&
	      ints[7] == MPI_ORDER_C, "a subarray's contents");
	MPI_Type_free(&x);
	MPI_Type_create_resized(v, -4, 64, &x);
	envelope_is(x, MPI_COMBINER_RESIZED, 0, 2, 1);
	contents(x, ints, aints, types);
	CHECK(aints[0] == -4 && aints[1] == 64, "a resized type's contents");
	MPI_Type_free(&types[0]);
	MPI_Type_free(&x);
	MPI_Type_dup(v, &x);
	envelope_is(x, MPI_COMBINER_DUP, 0, 0, 1);
	MPI_Type_free(&x);
	MPI_Type_create_hvector(2, 1, 24, MPI_DOUBLE, &x);
	envelope_is(x, MPI_COMBINER_HVECTOR, 2, 1, 1);
	MPI_Type_free(&x);
	MPI_Type_contiguous(4, MPI_INT, &x);
	envelope_is(x, MPI_COMBINER_CONTIGUOUS, 1, 0, 1);
	MPI_Type_free(&x);
	MPI_Type_create_indexed_block(3, 2, dp, MPI_INT, &x);
	envelope_is(x, MPI_COMBINER_INDEXED_BLOCK, 5, 0, 1);
	MPI_Type_free(&x);
	MPI_Type_create_hindexed_block(2, 3, ad, MPI_INT, &x);
	envelope_is(x, MPI_COMBINER_HINDEXED_BLOCK, 2, 2, 1);
	contents(x, ints, aints, types);
	CHECK(ints[0] == 2 && ints[1] == 3 && aints[1] == 16,
	      "a hindexed_block's contents: %d %d %ld", ints[0], ints[1], (long)aints[1]);
	MPI_Type_free(&x);
	MPI_Type_free(&v);
}

/* MPI_SUM and MPI_PROD of C's complex numbers, all ranks. */
static void complex_sums(void)
{
	double _Complex z = rank + 1.0 * I, s, p, want_p = 1;
	float _Complex f = 1.0f * I, fs;
	int r;

	MPI_Allreduce(&z, &s, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
	CHECK(creal(s) == size * (size - 1) / 2 && cimag(s) == size,
	      "a complex sum: %g%+gi", creal(s), cimag(s));
	MPI_Allreduce(&z, &p, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD);
	for (r = 0; r < size; r++)
		want_p *= r + 1.0 * I;
	want_p -= p;	/* exact: products of small Gaussian integers */
	CHECK(creal(want_p) == 0 && cimag(want_p) == 0, "a complex product: %g%+gi",
	      creal(p), cimag(p));
	MPI_Allreduce(&f, &fs, 1, MPI_C_FLOAT_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
	CHECK(crealf(fs) == 0 && cimagf(fs) == size, "a float complex sum");
}

static void types_freed(void)
{
	MPI_Type_free(&colt);
	MPI_Type_free(&idx);
	MPI_Type_free(&hv);
	MPI_Type_free(&ib);
	MPI_Type_free(&dup);
	MPI_Type_free(&st);
	MPI_Type_free(&rst);
	MPI_Type_free(&sa);
}

/*
 * MPI_Type_create_darray: a 7 x 5 array of ints on a 2 x 2 grid, rows in
 * blocks and columns cyclic by 2, in C and Fortran order, each of the
 * four processes' parts packed and compared with the indices worked out
 * here; the four parts hold every element once.
 */
static void darray(void)
{
	int g[2] = { 7, 5 }, dist[2] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC };
	int darg[2] = { MPI_DISTRIBUTE_DFLT_DARG, 2 }, ps[2] = { 2, 2 };
	int a[35], out[35], seen[2][35], p, o, i, j, k, n, sz, pos;
	MPI_Aint lb, ext;
	MPI_Datatype t;

	for (i = 0; i < 35; i++)
		a[i] = i;
	memset(seen, 0, sizeof(seen));
	for (o = 0; o < 2; o++) {
		int order = o ? MPI_ORDER_FORTRAN : MPI_ORDER_C;

		for (p = 0; p < 4; p++) {
			int pr = p / 2, pc = p % 2, want[35];

			MPI_Type_create_darray(4, p, 2, g, dist, darg, ps, order, MPI_INT, &t);
			MPI_Type_commit(&t);
			MPI_Type_get_extent(t, &lb, &ext);
			CHECK(lb == 0 && ext == 35 * (MPI_Aint)sizeof(int), "darray extent %ld",
			      (long)ext);
			/* rows pr*4 .. pr*4+3; columns in pairs from 2*pc, every 4 */
			n = 0;
			if (!o) {
				for (i = pr * 4; i < 7 && i < pr * 4 + 4; i++)
					for (j = 0; j < 5; j++)
						if ((j / 2) % 2 == pc)
							want[n++] = i * 5 + j;
			} else {	/* Fortran: the first index fastest */
				for (j = 0; j < 5; j++)
					for (i = pr * 4; i < 7 && i < pr * 4 + 4; i++)
						if ((j / 2) % 2 == pc)
							want[n++] = j * 7 + i;
			}
			MPI_Type_size(t, &sz);
			CHECK(sz == n * (int)sizeof(int), "darray %d, %d: %d bytes for %d", o, p,
			      sz, n);
			pos = 0;
			MPI_Pack(a, 1, t, out, sizeof(out), &pos, MPI_COMM_WORLD);
			for (k = 0; k < n; k++) {
				CHECK(out[k] == want[k], "darray %d, %d: element %d: %d, not %d",
				      o, p, k, out[k], want[k]);
				seen[o][out[k]]++;
			}
			MPI_Type_free(&t);
		}
		for (i = 0; i < 35; i++)
			CHECK(seen[o][i] == 1, "darray %d: element %d held %d times", o, i,
			      seen[o][i]);
	}
}

/* external32: a vector of ints, big-endian, and back. */
static void external32(void)
{
	int v[6] = { 0x01020304, -1, 0x05060708, -2, 0x0a0b0c0d, -3 }, w[6] = { 0 }, k;
	unsigned char buf[64];
	MPI_Aint size, pos = 0;
	MPI_Datatype t;

	MPI_Type_vector(3, 1, 2, MPI_INT, &t);
	MPI_Type_commit(&t);
	MPI_Pack_external_size("external32", 1, t, &size);
	CHECK(size == 12, "external32 size %ld", (long)size);
	MPI_Pack_external("external32", v, 1, t, buf, sizeof(buf), &pos);
	CHECK(pos == 12 && buf[0] == 1 && buf[3] == 4 && buf[4] == 5 && buf[11] == 0x0d,
	      "external32 bytes %02x %02x %02x", buf[0], buf[3], buf[4]);
	pos = 0;
	MPI_Unpack_external("external32", buf, 12, &pos, w, 1, t);
	for (k = 0; k < 6; k++)
		CHECK(w[k] == (k % 2 ? 0 : v[k]), "external32 back %d: %d", k, w[k]);
	MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK(size >= 2, "2 ranks at least");

	column();
	indexed();
	three_ways();
	structs();
	subarray();
	packed_by_hand();
	nonblocking();
	envelopes();
	complex_sums();
	darray();
	external32();
	types_freed();
	return checks_done("dtype");
}
