// SPDX-License-Identifier: MIT
/*
 * vcube-mpi: predefined datatypes, contiguous derived types, and the
 * predefined reduction operators over them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "vmpi.h"

struct vmpi_pf { float v; int i; };
struct vmpi_pd { double v; int i; };
struct vmpi_pl { long v; int i; };
struct vmpi_p2 { int v; int i; };
struct vmpi_ps { short v; int i; };
struct vmpi_pld { long double v; int i; };

#define T(b, ty, nm) { .size = sizeof(ty), .base = b, .n = 1, .name = nm, \
			 .builtin = true, .committed = true }
struct vmpi_type vmpi_char = T(VB_CHAR, char, "MPI_CHAR");
struct vmpi_type vmpi_signed_char = T(VB_SCHAR, signed char, "MPI_SIGNED_CHAR");
struct vmpi_type vmpi_unsigned_char = T(VB_UCHAR, unsigned char, "MPI_UNSIGNED_CHAR");
struct vmpi_type vmpi_byte = T(VB_BYTE, unsigned char, "MPI_BYTE");
struct vmpi_type vmpi_short = T(VB_SHORT, short, "MPI_SHORT");
struct vmpi_type vmpi_unsigned_short = T(VB_USHORT, unsigned short, "MPI_UNSIGNED_SHORT");
struct vmpi_type vmpi_int = T(VB_INT, int, "MPI_INT");
struct vmpi_type vmpi_unsigned = T(VB_UINT, unsigned int, "MPI_UNSIGNED");
struct vmpi_type vmpi_long = T(VB_LONG, long, "MPI_LONG");
struct vmpi_type vmpi_unsigned_long = T(VB_ULONG, unsigned long, "MPI_UNSIGNED_LONG");
struct vmpi_type vmpi_long_long_int = T(VB_LLONG, long long, "MPI_LONG_LONG");
struct vmpi_type vmpi_unsigned_long_long = T(VB_ULLONG, unsigned long long, "MPI_UNSIGNED_LONG_LONG");
struct vmpi_type vmpi_float = T(VB_FLOAT, float, "MPI_FLOAT");
struct vmpi_type vmpi_double = T(VB_DOUBLE, double, "MPI_DOUBLE");
struct vmpi_type vmpi_long_double = T(VB_LDOUBLE, long double, "MPI_LONG_DOUBLE");
struct vmpi_type vmpi_c_bool = T(VB_BOOL, _Bool, "MPI_C_BOOL");
struct vmpi_type vmpi_int8_t = T(VB_I8, int8_t, "MPI_INT8_T");
struct vmpi_type vmpi_int16_t = T(VB_I16, int16_t, "MPI_INT16_T");
struct vmpi_type vmpi_int32_t = T(VB_I32, int32_t, "MPI_INT32_T");
struct vmpi_type vmpi_int64_t = T(VB_I64, int64_t, "MPI_INT64_T");
struct vmpi_type vmpi_uint8_t = T(VB_U8, uint8_t, "MPI_UINT8_T");
struct vmpi_type vmpi_uint16_t = T(VB_U16, uint16_t, "MPI_UINT16_T");
struct vmpi_type vmpi_uint32_t = T(VB_U32, uint32_t, "MPI_UINT32_T");
struct vmpi_type vmpi_uint64_t = T(VB_U64, uint64_t, "MPI_UINT64_T");
struct vmpi_type vmpi_wchar = T(VB_WCHAR, wchar_t, "MPI_WCHAR");
struct vmpi_type vmpi_float_int = T(VB_FLOAT_INT, struct vmpi_pf, "MPI_FLOAT_INT");
struct vmpi_type vmpi_double_int = T(VB_DOUBLE_INT, struct vmpi_pd, "MPI_DOUBLE_INT");
struct vmpi_type vmpi_long_int = T(VB_LONG_INT, struct vmpi_pl, "MPI_LONG_INT");
struct vmpi_type vmpi_2int = T(VB_2INT, struct vmpi_p2, "MPI_2INT");
struct vmpi_type vmpi_short_int = T(VB_SHORT_INT, struct vmpi_ps, "MPI_SHORT_INT");
struct vmpi_type vmpi_long_double_int = T(VB_LDOUBLE_INT, struct vmpi_pld, "MPI_LONG_DOUBLE_INT");
struct vmpi_type vmpi_packed = T(VB_PACKED, unsigned char, "MPI_PACKED");
struct vmpi_type vmpi_aint = T(VB_AINT, MPI_Aint, "MPI_AINT");
struct vmpi_type vmpi_c_float_complex = T(VB_CFLOAT, float _Complex, "MPI_C_FLOAT_COMPLEX");
struct vmpi_type vmpi_c_double_complex = T(VB_CDOUBLE, double _Complex, "MPI_C_DOUBLE_COMPLEX");
struct vmpi_type vmpi_c_long_double_complex = T(VB_CLDOUBLE, long double _Complex,
						"MPI_C_LONG_DOUBLE_COMPLEX");
struct vmpi_type vmpi_offset = T(VB_I64, long long, "MPI_OFFSET");
struct vmpi_type vmpi_count = T(VB_I64, long long, "MPI_COUNT");
struct vmpi_type vmpi_cxx_bool = T(VB_BOOL, _Bool, "MPI_CXX_BOOL");
struct vmpi_type vmpi_cxx_float_complex = T(VB_CFLOAT, float _Complex,
					    "MPI_CXX_FLOAT_COMPLEX");
struct vmpi_type vmpi_cxx_double_complex = T(VB_CDOUBLE, double _Complex,
					     "MPI_CXX_DOUBLE_COMPLEX");
struct vmpi_type vmpi_cxx_long_double_complex = T(VB_CLDOUBLE, long double _Complex,
						  "MPI_CXX_LONG_DOUBLE_COMPLEX");
#undef T

/*
 * A predefined type of @typeclass and @size bytes: C's, the widest
 * integer before the narrower (MPI_INT before MPI_INT32_T, as they are
 * the same).
 */
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *type)
{
	static const MPI_Datatype real[] = { &vmpi_float, &vmpi_double,
					     &vmpi_long_double };
	static const MPI_Datatype integer[] = { &vmpi_signed_char, &vmpi_short,
						&vmpi_int, &vmpi_long_long_int };
	static const MPI_Datatype complex[] = { &vmpi_c_float_complex,
						&vmpi_c_double_complex,
						&vmpi_c_long_double_complex };
	const MPI_Datatype *t = NULL;
	size_t i, n = 0;

	NEED_INIT("MPI_Type_match_size");
	if (typeclass == MPI_TYPECLASS_REAL) {
		t = real;
		n = 3;
	} else if (typeclass == MPI_TYPECLASS_INTEGER) {
		t = integer;
		n = 4;
	} else if (typeclass == MPI_TYPECLASS_COMPLEX) {
		t = complex;
		n = 3;
	}
	for (i = 0; i < n; i++)
		if (t[i]->size == (size_t)size) {
			*type = t[i];
			return MPI_SUCCESS;
		}
	return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_match_size",
			  "no type of class %d has %d bytes", typeclass, size);
}

#define O(c, nm) { .code = c, .name = nm, .builtin = true }
struct vmpi_op vmpi_op_max = O(VO_MAX, "MPI_MAX");
struct vmpi_op vmpi_op_min = O(VO_MIN, "MPI_MIN");
struct vmpi_op vmpi_op_sum = O(VO_SUM, "MPI_SUM");
struct vmpi_op vmpi_op_prod = O(VO_PROD, "MPI_PROD");
struct vmpi_op vmpi_op_land = O(VO_LAND, "MPI_LAND");
struct vmpi_op vmpi_op_band = O(VO_BAND, "MPI_BAND");
struct vmpi_op vmpi_op_lor = O(VO_LOR, "MPI_LOR");
struct vmpi_op vmpi_op_bor = O(VO_BOR, "MPI_BOR");
struct vmpi_op vmpi_op_lxor = O(VO_LXOR, "MPI_LXOR");
struct vmpi_op vmpi_op_bxor = O(VO_BXOR, "MPI_BXOR");
struct vmpi_op vmpi_op_maxloc = O(VO_MAXLOC, "MPI_MAXLOC");
struct vmpi_op vmpi_op_minloc = O(VO_MINLOC, "MPI_MINLOC");
#undef O

static bool is_builtin_type(MPI_Datatype t)
{
	return t->builtin;
}

int vmpi_type_check(MPI_Datatype type)
{
	if (!type)
		return MPI_ERR_TYPE;
	if (is_builtin_type(type))
		return 0;
	return type->committed ? 0 : MPI_ERR_TYPE;
}

ptrdiff_t vmpi_type_extent(MPI_Datatype t)
{
	return t->derived ? t->extent : (ptrdiff_t)t->size;
}

bool vmpi_type_contig(MPI_Datatype t)
{
	if (!t->derived || !t->size)
		return true;
	return t->nruns == 1 && t->runs[0].off == 0 && t->lb == 0 &&
	       t->extent == (ptrdiff_t)t->size;
}

void vmpi_pack(MPI_Datatype t, int count, const void *buf, void *out)
{
	const char *b = buf;
	char *o = out;
	size_t r;
	int i;

	if (vmpi_type_contig(t)) {
		memcpy(o, b, (size_t)count * t->size);
		return;
	}
	for (i = 0; i < count; i++, b += t->extent)
		for (r = 0; r < t->nruns; r++) {
			memcpy(o, b + t->runs[r].off, t->runs[r].len);
			o += t->runs[r].len;
		}
}

void vmpi_unpack(MPI_Datatype t, int count, const void *in, size_t bytes,
		 void *buf)
{
	const char *p = in;
	char *b = buf;
	size_t r, n;
	int i;

	if (vmpi_type_contig(t)) {
		memcpy(b, p, bytes);
		return;
	}
	for (i = 0; i < count && bytes; i++, b += t->extent)
		for (r = 0; r < t->nruns && bytes; r++) {
			n = t->runs[r].len < bytes ? t->runs[r].len : bytes;
			memcpy(b + t->runs[r].off, p, n);
			p += n;
			bytes -= n;
		}
}

void vmpi_type_get(MPI_Datatype t)
{
	if (t->derived)
		t->refs++;
}

static void env_free(MPI_Datatype t)
{
	int i;

	for (i = 0; i < t->nt; i++)
		vmpi_type_put(t->types[i]);
	free(t->ints);
	free(t->aints);
	free(t->types);
	t->ints = NULL;
	t->aints = NULL;
	t->types = NULL;
	t->ni = t->na = t->nt = 0;
}

void vmpi_type_put(MPI_Datatype t)
{
	if (!t->derived || --t->refs)
		return;
	env_free(t);
	free(t->runs);
	free(t);
}

/*
 * @t was made by @comb from @ni integers (@i1's @n1, then @i2's), @na
 * addresses and @nt types, copied (the derived types held): 0 or
 * MPI_ERR_NO_MEM. What an inner constructor set is replaced.
 */
static int env_set(MPI_Datatype t, int comb, const int *i1, int n1,
		   const int *i2, int n2, const MPI_Aint *a, int na,
		   const MPI_Datatype *ty, int nt)
{
	int i;

	env_free(t);
	t->combiner = comb;
	t->ints = malloc(((size_t)n1 + (size_t)n2 + 1) * sizeof(int));
	t->aints = malloc(((size_t)na + 1) * sizeof(MPI_Aint));
	t->types = malloc(((size_t)nt + 1) * sizeof(MPI_Datatype));
	if (!t->ints || !t->aints || !t->types) {
		env_free(t);
		return MPI_ERR_NO_MEM;
	}
	if (n1)
		memcpy(t->ints, i1, (size_t)n1 * sizeof(int));
	if (n2)
		memcpy(t->ints + n1, i2, (size_t)n2 * sizeof(int));
	if (na)
		memcpy(t->aints, a, (size_t)na * sizeof(MPI_Aint));
	for (i = 0; i < nt; i++) {
		t->types[i] = ty[i];
		vmpi_type_get(ty[i]);
	}
	t->ni = n1 + n2;
	t->na = na;
	t->nt = nt;
	return 0;
}

/* @n more integers of @t's constructor: 0 or MPI_ERR_NO_MEM. */
static int env_add(MPI_Datatype t, const int *v, int n)
{
	int *ints = realloc(t->ints, ((size_t)t->ni + (size_t)n + 1) *
				     sizeof(int));

	if (!ints)
		return MPI_ERR_NO_MEM;
	if (n)
		memcpy(ints + t->ni, v, (size_t)n * sizeof(int));
	t->ints = ints;
	t->ni += n;
	return 0;
}

/* env_set()'s end of a constructor: its error, the type let go. */
static int env_done(const char *call, MPI_Datatype *out, int ret)
{
	if (!ret)
		return MPI_SUCCESS;
	vmpi_type_put(*out);
	*out = MPI_DATATYPE_NULL;
	return vmpi_error(MPI_COMM_WORLD, ret, call, "out of memory");
}

int MPI_Type_get_envelope(MPI_Datatype type, int *ni, int *na, int *nt,
			  int *combiner)
{
	NEED_INIT("MPI_Type_get_envelope");
	if (!type || !ni || !na || !nt || !combiner)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Type_get_envelope", "no type or result");
	*combiner = type->derived ? type->combiner : MPI_COMBINER_NAMED;
	*ni = type->derived ? type->ni : 0;
	*na = type->derived ? type->na : 0;
	*nt = type->derived ? type->nt : 0;
	return MPI_SUCCESS;
}

/* The derived types returned are the same objects, held once more. */
int MPI_Type_get_contents(MPI_Datatype type, int max_i, int max_a, int max_t,
			  int ints[], MPI_Aint aints[], MPI_Datatype types[])
{
	int i;

	NEED_INIT("MPI_Type_get_contents");
	if (!type || !type->derived)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_TYPE,
				  "MPI_Type_get_contents",
				  "not a derived type (MPI_COMBINER_NAMED)");
	if (max_i < type->ni || max_a < type->na || max_t < type->nt ||
	    (type->ni && !ints) || (type->na && !aints) ||
	    (type->nt && !types))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Type_get_contents",
				  "room for %d, %d, %d; it has %d, %d, %d",
				  max_i, max_a, max_t, type->ni, type->na,
				  type->nt);
	if (type->ni)
		memcpy(ints, type->ints, (size_t)type->ni * sizeof(int));
	if (type->na)
		memcpy(aints, type->aints, (size_t)type->na * sizeof(MPI_Aint));
	for (i = 0; i < type->nt; i++) {
		types[i] = type->types[i];
		vmpi_type_get(types[i]);
	}
	return MPI_SUCCESS;
}

/*
 * A type being made: entries of (displacement, count of old, old type),
 * whose runs, bounds and size make the new type (MPI's type map: the
 * entries' maps, each old type's count times at its extent).
 */
struct tb {
	struct vmpi_type *t;
	size_t cap;
	bool any;
	ptrdiff_t lb, ub;
	enum vmpi_base base;
	bool mixed;
	int err;
};

static void tb_run(struct tb *b, ptrdiff_t off, size_t len)
{
	struct vmpi_type *t = b->t;
	struct vmpi_run *r;

	if (!len || b->err)
		return;
	if (t->nruns && t->runs[t->nruns - 1].off +
			(ptrdiff_t)t->runs[t->nruns - 1].len == off) {
		t->runs[t->nruns - 1].len += len;
	} else {
		if (t->nruns == b->cap) {
			b->cap = b->cap ? 2 * b->cap : 8;
			r = realloc(t->runs, b->cap * sizeof(*r));
			if (!r) {
				b->err = MPI_ERR_NO_MEM;
				return;
			}
			t->runs = r;
		}
		t->runs[t->nruns].off = off;
		t->runs[t->nruns++].len = len;
	}
	t->size += len;
}

static void tb_add(struct tb *b, ptrdiff_t disp, long count, MPI_Datatype old)
{
	ptrdiff_t ext = vmpi_type_extent(old), lo, hi, olb = 0;
	size_t r;
	long j;

	if (count <= 0)
		return;
	if (old->derived)
		olb = old->lb;
	for (j = 0; j < count; j++) {
		if (old->derived)
			for (r = 0; r < old->nruns; r++)
				tb_run(b, disp + j * ext + old->runs[r].off,
				       old->runs[r].len);
		else
			tb_run(b, disp + j * ext, old->size);
	}
	lo = disp + olb + (ext < 0 ? (count - 1) * ext : 0);
	hi = disp + olb + ext + (ext > 0 ? (count - 1) * ext : 0);
	if (!b->any || lo < b->lb)
		b->lb = lo;
	if (!b->any || hi > b->ub)
		b->ub = hi;
	if (b->any && old->base != b->base)
		b->mixed = true;
	b->base = old->base;
	b->t->n += old->n * (size_t)count;
	b->any = true;
}

static int tb_start(struct tb *b)
{
	memset(b, 0, sizeof(*b));
	b->t = calloc(1, sizeof(*b->t));
	return b->t ? 0 : MPI_ERR_NO_MEM;
}

/* The type made, or its error (the type freed). */
static int tb_done(struct tb *b, const char *name, MPI_Datatype *out)
{
	struct vmpi_type *t = b->t;
	size_t r;

	if (b->err) {
		free(t->runs);
		free(t);
		return b->err;
	}
	t->derived = true;
	t->refs = 1;
	t->name = name;
	t->base = b->mixed ? VB_PACKED : b->base;
	t->lb = b->any ? b->lb : 0;
	t->extent = b->any ? b->ub - b->lb : 0;
	t->true_lb = t->nruns ? t->runs[0].off : 0;
	t->true_extent = 0;
	for (r = 0; r < t->nruns; r++) {
		if (t->runs[r].off < t->true_lb)
			t->true_lb = t->runs[r].off;
	}
	for (r = 0; r < t->nruns; r++)
		if (t->runs[r].off + (ptrdiff_t)t->runs[r].len - t->true_lb >
		    t->true_extent)
			t->true_extent = t->runs[r].off +
					 (ptrdiff_t)t->runs[r].len - t->true_lb;
	*out = t;
	return 0;
}

static int type_args(const char *call, int count, MPI_Datatype old,
		     MPI_Datatype *newtype)
{
	NEED_INIT(call);
	if (count < 0)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_COUNT, call, "count %d",
				  count);
	if (!newtype || !old)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
				  "no type or no type to return");
	return 0;
}

static int made(const char *call, int ret)
{
	return ret ? vmpi_error(MPI_COMM_WORLD, ret, call, "out of memory") : 0;
}

int MPI_Type_size(MPI_Datatype type, int *size)
{
	if (!type || !size)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_size",
				  "no type or no result");
	*size = (int)type->size;
	return MPI_SUCCESS;
}

int MPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype)
{
	struct tb b;
	int ret = type_args("MPI_Type_contiguous", count, old, newtype);

	if (ret)
		return ret;
	if (old->size && (size_t)count > SIZE_MAX / 2 / old->size)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_COUNT,
				  "MPI_Type_contiguous", "%d elements of %zu bytes",
				  count, old->size);
	ret = tb_start(&b);
	if (!ret) {
		tb_add(&b, 0, count, old);
		ret = tb_done(&b, "contiguous", newtype);
	}
	if (ret)
		return made("MPI_Type_contiguous", ret);
	return env_done("MPI_Type_contiguous", newtype,
			env_set(*newtype, MPI_COMBINER_CONTIGUOUS, &count, 1,
				NULL, 0, NULL, 0, &old, 1));
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
			    MPI_Datatype old, MPI_Datatype *newtype)
{
	struct tb b;
	int ret = type_args("MPI_Type_create_hvector", count, old, newtype), i;

	if (ret)
		return ret;
	if (blocklength < 0)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Type_create_hvector", "blocklength %d",
				  blocklength);
	ret = tb_start(&b);
	for (i = 0; !ret && i < count; i++)
		tb_add(&b, i * stride, blocklength, old);
	if (!ret)
		ret = tb_done(&b, "hvector", newtype);
	if (ret)
		return made("MPI_Type_create_hvector", ret);
	return env_done("MPI_Type_create_hvector", newtype,
			env_set(*newtype, MPI_COMBINER_HVECTOR,
				(int[]){ count, blocklength }, 2, NULL, 0,
				&stride, 1, &old, 1));
}

int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype old,
		    MPI_Datatype *newtype)
{
	int ret = type_args("MPI_Type_vector", count, old, newtype);

	if (ret)
		return ret;
	ret = MPI_Type_create_hvector(count, blocklength,
				      (MPI_Aint)stride * vmpi_type_extent(old),
				      old, newtype);
	if (ret)
		return ret;
	(*newtype)->name = "vector";
	return env_done("MPI_Type_vector", newtype,
			env_set(*newtype, MPI_COMBINER_VECTOR,
				(int[]){ count, blocklength, stride }, 3, NULL,
				0, NULL, 0, &old, 1));
}

int MPI_Type_create_hindexed(int count, const int blocklengths[],
			     const MPI_Aint displs[], MPI_Datatype old,
			     MPI_Datatype *newtype)
{
	struct tb b;
	int ret = type_args("MPI_Type_create_hindexed", count, old, newtype), i;

	if (ret)
		return ret;
	if (count && (!blocklengths || !displs))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Type_create_hindexed",
				  "no block lengths or displacements");
	for (i = 0; i < count; i++)
		if (blocklengths[i] < 0)
			return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
					  "MPI_Type_create_hindexed",
					  "blocklengths[%d] = %d", i,
					  blocklengths[i]);
	ret = tb_start(&b);
	for (i = 0; !ret && i < count; i++)
		tb_add(&b, displs[i], blocklengths[i], old);
	if (!ret)
		ret = tb_done(&b, "hindexed", newtype);
	if (ret)
		return made("MPI_Type_create_hindexed", ret);
	return env_done("MPI_Type_create_hindexed", newtype,
			env_set(*newtype, MPI_COMBINER_HINDEXED, &count, 1,
				blocklengths, count, displs, count, &old, 1));
}

/* @count block lengths, each @len (NULL: no memory). */
static int *lengths(int count, int len)
{
	int *bl = malloc(((size_t)count + 1) * sizeof(*bl)), i;

	for (i = 0; bl && i < count; i++)
		bl[i] = len;
	return bl;
}

int MPI_Type_create_hindexed_block(int count, int blocklength,
				   const MPI_Aint displs[], MPI_Datatype old,
				   MPI_Datatype *newtype)
{
	int *bl, ret = type_args("MPI_Type_create_hindexed_block", count, old,
				 newtype);

	if (ret)
		return ret;
	bl = lengths(count, blocklength);
	if (!bl)
		return made("MPI_Type_create_hindexed_block", MPI_ERR_NO_MEM);
	ret = MPI_Type_create_hindexed(count, bl, displs, old, newtype);
	free(bl);
	if (ret)
		return ret;
	(*newtype)->name = "hindexed_block";
	return env_done("MPI_Type_create_hindexed_block", newtype,
			env_set(*newtype, MPI_COMBINER_HINDEXED_BLOCK,
				(int[]){ count, blocklength }, 2, NULL, 0,
				displs, count, &old, 1));
}

/* displs[] in elements of @old, as bytes for hindexed (NULL: no memory). */
static MPI_Aint *displs_bytes(int count, const int displs[], MPI_Datatype old)
{
	MPI_Aint *d = malloc(((size_t)count + 1) * sizeof(*d));
	int i;

	for (i = 0; d && i < count; i++)
		d[i] = (MPI_Aint)displs[i] * vmpi_type_extent(old);
	return d;
}

int MPI_Type_indexed(int count, const int blocklengths[], const int displs[],
		     MPI_Datatype old, MPI_Datatype *newtype)
{
	MPI_Aint *d;
	int ret = type_args("MPI_Type_indexed", count, old, newtype);

	if (ret)
		return ret;
	if (count && !displs)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_indexed",
				  "no displacements");
	d = displs_bytes(count, displs, old);
	if (!d)
		return made("MPI_Type_indexed", MPI_ERR_NO_MEM);
	ret = MPI_Type_create_hindexed(count, blocklengths, d, old, newtype);
	free(d);
	if (ret)
		return ret;
	(*newtype)->name = "indexed";
	ret = env_set(*newtype, MPI_COMBINER_INDEXED, &count, 1, blocklengths,
		      count, NULL, 0, &old, 1);
	if (!ret)	/* then the displacements */
		ret = env_add(*newtype, displs, count);
	return env_done("MPI_Type_indexed", newtype, ret);
}

int MPI_Type_create_indexed_block(int count, int blocklength,
				  const int displs[], MPI_Datatype old,
				  MPI_Datatype *newtype)
{
	int *bl, ret = type_args("MPI_Type_create_indexed_block", count, old,
				 newtype);

	if (ret)
		return ret;
	bl = lengths(count, blocklength);
	if (!bl)
		return made("MPI_Type_create_indexed_block", MPI_ERR_NO_MEM);
	ret = MPI_Type_indexed(count, bl, displs, old, newtype);
	free(bl);
	if (ret)
		return ret;
	(*newtype)->name = "indexed_block";
	return env_done("MPI_Type_create_indexed_block", newtype,
			env_set(*newtype, MPI_COMBINER_INDEXED_BLOCK,
				(int[]){ count, blocklength }, 2, displs, count,
				NULL, 0, &old, 1));
}

int MPI_Type_create_struct(int count, const int blocklengths[],
			   const MPI_Aint displs[], const MPI_Datatype types[],
			   MPI_Datatype *newtype)
{
	struct tb b;
	int ret, i;

	NEED_INIT("MPI_Type_create_struct");
	if (count < 0 || !newtype || (count && (!blocklengths || !displs || !types)))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Type_create_struct", "count %d, or no arrays",
				  count);
	for (i = 0; i < count; i++)
		if (blocklengths[i] < 0 || !types[i])
			return vmpi_error(MPI_COMM_WORLD, MPI_ERR_TYPE,
					  "MPI_Type_create_struct",
					  "entry %d: blocklength %d, or no type",
					  i, blocklengths[i]);
	ret = tb_start(&b);
	for (i = 0; !ret && i < count; i++)
		tb_add(&b, displs[i], blocklengths[i], types[i]);
	if (!ret)
		ret = tb_done(&b, "struct", newtype);
	if (ret)
		return made("MPI_Type_create_struct", ret);
	return env_done("MPI_Type_create_struct", newtype,
			env_set(*newtype, MPI_COMBINER_STRUCT, &count, 1,
				blocklengths, count, displs, count, types,
				count));
}

int MPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent,
			    MPI_Datatype *newtype)
{
	int ret = MPI_Type_contiguous(1, old, newtype);

	if (ret)
		return ret;
	(*newtype)->lb = lb;
	(*newtype)->extent = extent;
	(*newtype)->name = "resized";
	return env_done("MPI_Type_create_resized", newtype,
			env_set(*newtype, MPI_COMBINER_RESIZED, NULL, 0, NULL,
				0, (MPI_Aint[]){ lb, extent }, 2, &old, 1));
}

int MPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype)
{
	int ret = MPI_Type_contiguous(1, old, newtype);

	if (ret)
		return ret;
	if (old->derived) {
		(*newtype)->lb = old->lb;
		(*newtype)->extent = old->extent;
	}
	(*newtype)->committed = vmpi_type_check(old) == 0;
	ret = env_set(*newtype, MPI_COMBINER_DUP, NULL, 0, NULL, 0, NULL, 0,
		      &old, 1);
	if (!ret)
		ret = vmpi_attr_copy(VMPI_ATTR_TYPE, old, old->attrs,
				     &(*newtype)->attrs);
	if (ret) {
		vmpi_attr_clear(VMPI_ATTR_TYPE, *newtype, &(*newtype)->attrs);
		vmpi_type_put(*newtype);
		*newtype = MPI_DATATYPE_NULL;
		return vmpi_error(MPI_COMM_WORLD, ret, "MPI_Type_dup",
				  "an attribute's copy callback failed");
	}
	return MPI_SUCCESS;
}

/*
 * A C-order subarray: the subsizes[] block at starts[] of a sizes[] array
 * of @old, its extent the whole array's.
 */
int MPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
			     const int starts[], int order, MPI_Datatype old,
			     MPI_Datatype *newtype)
{
	struct tb b;
	long long total = 1, rows = 1, k, off, stride;
	ptrdiff_t ext;
	int ret = type_args("MPI_Type_create_subarray", 1, old, newtype), i;

	if (ret)
		return ret;
	if (ndims <= 0 || !sizes || !subsizes || !starts ||
	    (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Type_create_subarray", "ndims %d, order %d",
				  ndims, order);
	for (i = 0; i < ndims; i++) {
		if (sizes[i] <= 0 || subsizes[i] <= 0 || starts[i] < 0 ||
		    starts[i] + subsizes[i] > sizes[i])
			return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
					  "MPI_Type_create_subarray",
					  "dimension %d: %d of %d from %d", i,
					  subsizes[i], sizes[i], starts[i]);
		total *= sizes[i];
	}
	ext = vmpi_type_extent(old);
	ret = tb_start(&b);
	/* each row of the last (C) or first (Fortran) dimension, in order */
	for (i = 0; i < ndims - 1; i++)
		rows *= subsizes[order == MPI_ORDER_C ? i : ndims - 1 - i];
	for (k = 0; !ret && k < rows; k++) {
		long long rem = k;
		int d, dd, inner = order == MPI_ORDER_C ? ndims - 1 : 0;

		off = starts[inner];
		stride = sizes[inner];
		for (d = ndims - 2; d >= 0; d--) {
			dd = order == MPI_ORDER_C ? d : ndims - 1 - d;
			off += (starts[dd] + rem % subsizes[dd]) * stride;
			rem /= subsizes[dd];
			stride *= sizes[dd];
		}
		tb_add(&b, (ptrdiff_t)(off * ext), subsizes[inner], old);
	}
	if (!ret) {
		b.lb = 0;		/* the whole array's bounds */
		b.ub = (ptrdiff_t)(total * ext);
		b.any = true;
		ret = tb_done(&b, "subarray", newtype);
	}
	if (ret)
		return made("MPI_Type_create_subarray", ret);
	ret = env_set(*newtype, MPI_COMBINER_SUBARRAY, &ndims, 1, sizes, ndims,
		      NULL, 0, &old, 1);
	/* then subsizes, starts and the order */
	if (!ret)
		ret = env_add(*newtype, subsizes, ndims);
	if (!ret)
		ret = env_add(*newtype, starts, ndims);
	if (!ret)
		ret = env_add(*newtype, &order, 1);
	return env_done("MPI_Type_create_subarray", newtype, ret);
}

/*
 * One dimension of a distributed array at process coordinate @c of @np:
 * its local indices as runs (@start[], @len[], at most @max), 0 .. their
 * count, or -1 for arguments MPI calls erroneous.
 */
static int darray_runs(int g, int how, int darg, int np, int c, int *start,
		       int *len, int max)
{
	int b, s, n = 0;

	if (how == MPI_DISTRIBUTE_NONE) {
		if (np != 1)
			return -1;
		start[0] = 0;
		len[0] = g;
		return 1;
	}
	if (how == MPI_DISTRIBUTE_BLOCK) {
		b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + np - 1) / np : darg;
		if (b <= 0 || (long long)b * np < g)
			return -1;
		s = c * b;
		if (s < g) {
			start[0] = s;
			len[0] = g - s < b ? g - s : b;
			n = 1;
		}
		return n;
	}
	if (how != MPI_DISTRIBUTE_CYCLIC)
		return -1;
	b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
	if (b <= 0)
		return -1;
	for (s = c * b; s < g && n < max; s += np * b, n++) {
		start[n] = s;
		len[n] = g - s < b ? g - s : b;
	}
	return n;
}

/* The local elements: each outer combination, the inner runs in order. */
static void darray_add(struct tb *b, int nd, const int *dim, const int *g,
		       int *const *start, int *const *len, const int *nr,
		       ptrdiff_t ext, MPI_Datatype old)
{
	int pos[VMPI_MAX_DIMS] = { 0 }, sub[VMPI_MAX_DIMS] = { 0 }, d, r;
	int inner = dim[nd - 1];
	long long off, stride;

	for (;;) {
		off = 0;
		stride = 1;
		for (d = nd - 1; d >= 0; d--) {	/* dim[nd - 1] fastest */
			if (d < nd - 1)
				off += (long long)(start[dim[d]][pos[d]] +
						   sub[d]) * stride;
			stride *= g[dim[d]];
		}
		for (r = 0; r < nr[inner]; r++)
			tb_add(b, (ptrdiff_t)((off + start[inner][r]) * ext),
			       len[inner][r], old);
		for (d = nd - 2; d >= 0; d--) {	/* the next combination */
			if (++sub[d] < len[dim[d]][pos[d]])
				break;
			sub[d] = 0;
			if (++pos[d] < nr[dim[d]])
				break;
			pos[d] = 0;
		}
		if (d < 0)
			return;
	}
}

/*
 * The part of a distributed array that process @rank of @size holds, on a
 * row-major grid of @psizes processes: MPI's type map, each dimension's
 * local indices in order, the extent the whole array's.
 */
int MPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[],
			   const int distribs[], const int dargs[],
			   const int psizes[], int order, MPI_Datatype old,
			   MPI_Datatype *newtype)
{
	const char *call = "MPI_Type_create_darray";
	int *start[VMPI_MAX_DIMS] = { 0 }, *len[VMPI_MAX_DIMS] = { 0 };
	int nr[VMPI_MAX_DIMS], dim[VMPI_MAX_DIMS], i, c, rem = rank, ret;
	long long np = 1, total = 1;
	struct tb b;

	ret = type_args(call, 1, old, newtype);
	if (ret)
		return ret;
	if (ndims <= 0 || ndims > VMPI_MAX_DIMS || !gsizes || !distribs ||
	    !dargs || !psizes || rank < 0 || rank >= size ||
	    (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
				  "ndims %d, rank %d of %d, order %d", ndims,
				  rank, size, order);
	for (i = 0; i < ndims; i++) {
		if (gsizes[i] <= 0 || psizes[i] <= 0)
			return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
					  "dimension %d: %d on %d processes", i,
					  gsizes[i], psizes[i]);
		np *= psizes[i];
		total *= gsizes[i];
		dim[i] = order == MPI_ORDER_C ? i : ndims - 1 - i;
	}
	if (np != size)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
				  "a grid of %lld processes for %d", np, size);
	ret = tb_start(&b);
	for (i = ndims - 1; i >= 0 && !ret; i--) {	/* row-major grid */
		c = rem % psizes[i];
		rem /= psizes[i];
		start[i] = malloc(2 * ((size_t)gsizes[i] + 1) * sizeof(int));
		if (!start[i]) {
			ret = MPI_ERR_NO_MEM;
			break;
		}
		len[i] = start[i] + gsizes[i] + 1;
		nr[i] = darray_runs(gsizes[i], distribs[i], dargs[i], psizes[i],
				    c, start[i], len[i], gsizes[i] + 1);
		if (nr[i] < 0)
			ret = MPI_ERR_ARG;
	}
	for (i = 0; !ret && i < ndims && nr[dim[i]]; i++)
		;
	if (!ret && i == ndims)
		darray_add(&b, ndims, dim, gsizes, start, len, nr,
			   vmpi_type_extent(old), old);
	for (i = 0; i < ndims; i++)
		free(start[i]);
	if (ret == MPI_ERR_ARG) {
		free(b.t);
		return vmpi_error(MPI_COMM_WORLD, ret, call,
				  "a distribution, or its argument, MPI calls erroneous");
	}
	if (!ret) {
		b.lb = 0;		/* the whole array's bounds */
		b.ub = (ptrdiff_t)(total * vmpi_type_extent(old));
		b.any = true;
		ret = tb_done(&b, "darray", newtype);
	}
	if (ret)
		return made(call, ret);
	ret = env_set(*newtype, MPI_COMBINER_DARRAY, &size, 1, &rank, 1, NULL,
		      0, &old, 1);
	if (!ret)
		ret = env_add(*newtype, &ndims, 1);
	for (i = 0; i < 4 && !ret; i++)	/* gsizes, distribs, dargs, psizes */
		ret = env_add(*newtype, (const int *[]){ gsizes, distribs,
							 dargs, psizes }[i],
			      ndims);
	if (!ret)
		ret = env_add(*newtype, &order, 1);
	return env_done(call, newtype, ret);
}

int MPI_Type_get_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent)
{
	if (!type || !lb || !extent)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Type_get_extent", "no type or no result");
	*lb = type->derived ? type->lb : 0;
	*extent = vmpi_type_extent(type);
	return MPI_SUCCESS;
}

int MPI_Type_get_true_extent(MPI_Datatype type, MPI_Aint *lb, MPI_Aint *extent)
{
	if (!type || !lb || !extent)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Type_get_true_extent",
				  "no type or no result");
	*lb = type->derived ? type->true_lb : 0;
	*extent = type->derived ? type->true_extent : (MPI_Aint)type->size;
	return MPI_SUCCESS;
}

int MPI_Get_address(const void *location, MPI_Aint *address)
{
	if (!address)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_address",
				  "no result");
	*address = (MPI_Aint)(const char *)location;
	return MPI_SUCCESS;
}

int MPI_Type_commit(MPI_Datatype *type)
{
	if (!type || !*type)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_TYPE,
				  "MPI_Type_commit", "no type");
	(*type)->committed = true;
	return MPI_SUCCESS;
}

int MPI_Type_free(MPI_Datatype *type)
{
	int ret;

	if (!type || !*type || is_builtin_type(*type))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_free",
				  "not a derived type");
	ret = vmpi_attr_clear(VMPI_ATTR_TYPE, *type, &(*type)->attrs);
	if (ret)
		return vmpi_error(MPI_COMM_WORLD, ret, "MPI_Type_free",
				  "an attribute's delete callback failed");
	vmpi_type_put(*type);	/* a pending request may still hold it */
	*type = MPI_DATATYPE_NULL;
	return MPI_SUCCESS;
}

int MPI_Get_count(const MPI_Status *st, MPI_Datatype type, int *count)
{
	if (!st || !count || vmpi_type_check(type))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_count",
				  "no status, type or result");
	if (!type->size)
		*count = 0;
	else if (st->vmpi_bytes % type->size)
		*count = MPI_UNDEFINED;
	else
		*count = (int)(st->vmpi_bytes / type->size);
	return MPI_SUCCESS;
}

/* The basic elements received: whole or not, of @type's n a piece. */
int MPI_Get_elements(const MPI_Status *st, MPI_Datatype type, int *count)
{
	size_t es;

	if (!st || !count || vmpi_type_check(type))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_elements",
				  "no status, type or result");
	es = type->n ? type->size / type->n : 0;
	if (!es || type->base == VB_PACKED)
		return MPI_Get_count(st, type, count);
	*count = st->vmpi_bytes % es ? MPI_UNDEFINED : (int)(st->vmpi_bytes / es);
	return MPI_SUCCESS;
}

int MPI_Get_elements_x(const MPI_Status *st, MPI_Datatype type,
		       MPI_Count *count)
{
	size_t es;

	if (!st || !count || vmpi_type_check(type))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Get_elements_x",
				  "no status, type or result");
	es = type->n ? type->size / type->n : 0;
	if (!es || type->base == VB_PACKED)
		es = type->size;
	if (!es)
		*count = 0;
	else
		*count = st->vmpi_bytes % es ? MPI_UNDEFINED :
			 (MPI_Count)(st->vmpi_bytes / es);
	return MPI_SUCCESS;
}

/* A status as if @count elements of @type had come (a generalised one's). */
int MPI_Status_set_elements_x(MPI_Status *st, MPI_Datatype type,
			      MPI_Count count)
{
	size_t es;

	if (!st || count < 0 || vmpi_type_check(type))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Status_set_elements",
				  "count %lld, or no status or type",
				  (long long)count);
	es = type->n ? type->size / type->n : type->size;
	st->vmpi_bytes = (size_t)count * es;
	return MPI_SUCCESS;
}

int MPI_Status_set_elements(MPI_Status *st, MPI_Datatype type, int count)
{
	return MPI_Status_set_elements_x(st, type, count);
}

int MPI_Type_size_x(MPI_Datatype type, MPI_Count *size)
{
	if (!type || !size)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_size_x",
				  "no type or no result");
	*size = (MPI_Count)type->size;
	return MPI_SUCCESS;
}

int MPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent)
{
	MPI_Aint l = 0, e = 0;
	int ret = MPI_Type_get_extent(type, &l, &e);

	if (!ret) {
		*lb = l;
		*extent = e;
	}
	return ret;
}

int MPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *lb,
			       MPI_Count *extent)
{
	MPI_Aint l = 0, e = 0;
	int ret = MPI_Type_get_true_extent(type, &l, &e);

	if (!ret) {
		*lb = l;
		*extent = e;
	}
	return ret;
}

int MPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size)
{
	(void)comm;
	if (incount < 0 || !size || vmpi_type_check(type))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Pack_size",
				  "count %d, or no type or result", incount);
	*size = (int)((size_t)incount * type->size);
	return MPI_SUCCESS;
}

int MPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf,
	     int outsize, int *position, MPI_Comm comm)
{
	size_t n;

	if (incount < 0 || !position || *position < 0 || vmpi_type_check(type))
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Pack",
				  "count %d, or no type or position", incount);
	n = (size_t)incount * type->size;
	if ((size_t)*position + n > (size_t)outsize)
		return vmpi_error(comm, MPI_ERR_TRUNCATE, "MPI_Pack",
				  "%zu bytes at %d of a %d-byte buffer", n,
				  *position, outsize);
	vmpi_pack(type, incount, inbuf, (char *)outbuf + *position);
	if (n)
		vcube_node_copy(vmpi.node, n, NULL);
	*position += (int)n;
	return MPI_SUCCESS;
}

int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
	       int outcount, MPI_Datatype type, MPI_Comm comm)
{
	size_t n;

	if (outcount < 0 || !position || *position < 0 || vmpi_type_check(type))
		return vmpi_error(comm, MPI_ERR_ARG, "MPI_Unpack",
				  "count %d, or no type or position", outcount);
	n = (size_t)outcount * type->size;
	if ((size_t)*position + n > (size_t)insize)
		return vmpi_error(comm, MPI_ERR_TRUNCATE, "MPI_Unpack",
				  "%zu bytes at %d of %d", n, *position, insize);
	vmpi_unpack(type, outcount, (const char *)inbuf + *position, n, outbuf);
	if (n)
		vcube_node_copy(vmpi.node, n, NULL);
	*position += (int)n;
	return MPI_SUCCESS;
}

/*
 * external32, MPI's portable representation: each element big-endian, in
 * the representation's sizes. Types whose elements keep their size there
 * (not long, unsigned long, long double, wchar_t, the pairs of mixed
 * types, nor a struct of mixed ones: MPI_ERR_UNSUPPORTED_OPERATION) are
 * packed as MPI_Pack packs them, each element's bytes turned round.
 */
static int ext32_size(const char *call, const char *datarep,
		      MPI_Datatype type, size_t *es)
{
	if (!datarep || strcmp(datarep, "external32"))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
				  "data representation %s: external32 only",
				  datarep ? datarep : "(none)");
	if (vmpi_type_check(type))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
				  "not a committed datatype");
	switch (type->base) {
	case VB_LONG: case VB_ULONG: case VB_LDOUBLE: case VB_WCHAR:
	case VB_FLOAT_INT: case VB_DOUBLE_INT: case VB_LONG_INT:
	case VB_SHORT_INT: case VB_LDOUBLE_INT: case VB_CLDOUBLE:
	case VB_PACKED: case VB_AINT:
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION,
				  call, "%s in external32", type->name);
	case VB_CFLOAT: case VB_CDOUBLE: case VB_2INT:
		*es = type->size / type->n / 2;	/* each half on its own */
		return 0;
	default:
		*es = type->n ? type->size / type->n : 1;
		return 0;
	}
}

static void ext32_turn(unsigned char *p, size_t n, size_t es)
{
	size_t i, j;
	unsigned char t;

	for (i = 0; es > 1 && i + es <= n; i += es)
		for (j = 0; j < es / 2; j++) {
			t = p[i + j];
			p[i + j] = p[i + es - 1 - j];
			p[i + es - 1 - j] = t;
		}
}

int MPI_Pack_external_size(const char *datarep, int incount,
			   MPI_Datatype type, MPI_Aint *size)
{
	size_t es;
	int ret = ext32_size("MPI_Pack_external_size", datarep, type, &es);

	if (ret)
		return ret;
	if (incount < 0 || !size)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Pack_external_size", "count %d", incount);
	*size = (MPI_Aint)((size_t)incount * type->size);
	return MPI_SUCCESS;
}

int MPI_Pack_external(const char *datarep, const void *inbuf, int incount,
		      MPI_Datatype type, void *outbuf, MPI_Aint outsize,
		      MPI_Aint *position)
{
	const char *call = "MPI_Pack_external";
	size_t es, n;
	int ret = ext32_size(call, datarep, type, &es);

	if (ret)
		return ret;
	if (incount < 0 || !position || *position < 0)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
				  "count %d, or no position", incount);
	n = (size_t)incount * type->size;
	if ((size_t)*position + n > (size_t)outsize)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_TRUNCATE, call,
				  "%zu bytes at %ld of a %ld-byte buffer", n,
				  (long)*position, (long)outsize);
	vmpi_pack(type, incount, inbuf, (char *)outbuf + *position);
	if (n)
		vcube_node_copy(vmpi.node, n, NULL);
	ext32_turn((unsigned char *)outbuf + *position, n, es);
	*position += (MPI_Aint)n;
	return MPI_SUCCESS;
}

int MPI_Unpack_external(const char *datarep, const void *inbuf,
			MPI_Aint insize, MPI_Aint *position, void *outbuf,
			int outcount, MPI_Datatype type)
{
	const char *call = "MPI_Unpack_external";
	unsigned char *tmp;
	size_t es, n;
	int ret = ext32_size(call, datarep, type, &es);

	if (ret)
		return ret;
	if (outcount < 0 || !position || *position < 0)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
				  "count %d, or no position", outcount);
	n = (size_t)outcount * type->size;
	if ((size_t)*position + n > (size_t)insize)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_TRUNCATE, call,
				  "%zu bytes at %ld of %ld", n, (long)*position,
				  (long)insize);
	tmp = malloc(n + 1);
	if (!tmp)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call,
				  "out of memory");
	memcpy(tmp, (const char *)inbuf + *position, n);
	ext32_turn(tmp, n, es);
	vmpi_unpack(type, outcount, tmp, n, outbuf);
	free(tmp);
	if (n)
		vcube_node_copy(vmpi.node, n, NULL);
	*position += (MPI_Aint)n;
	return MPI_SUCCESS;
}

/* ---- reductions ---------------------------------------------------------- */

enum vmpi_class { C_INT, C_FLOAT, C_COMPLEX, C_BYTE, C_PAIR, C_NONE };

static enum vmpi_class base_class(enum vmpi_base b)
{
	switch (b) {
	case VB_FLOAT: case VB_DOUBLE: case VB_LDOUBLE:
		return C_FLOAT;
	case VB_CFLOAT: case VB_CDOUBLE: case VB_CLDOUBLE:
		return C_COMPLEX;
	case VB_BYTE:
		return C_BYTE;
	case VB_FLOAT_INT: case VB_DOUBLE_INT: case VB_LONG_INT: case VB_2INT:
	case VB_SHORT_INT: case VB_LDOUBLE_INT:
		return C_PAIR;
	case VB_PACKED:
		return C_NONE;
	default:
		return C_INT;
	}
}

int vmpi_op_check(MPI_Op op, MPI_Datatype type)
{
	enum vmpi_class c;

	if (!op)
		return MPI_ERR_OP;
	if (vmpi_type_check(type))
		return MPI_ERR_TYPE;
	if (op->code == VO_USER)	/* the program's: any type */
		return op->fn && type->size ? 0 : MPI_ERR_OP;
	if (!op->builtin)
		return MPI_ERR_OP;
	if (!type->builtin)	/* MPI: predefined operators, predefined types */
		return MPI_ERR_OP;
	c = base_class(type->base);
	if (type->base == VB_BOOL)	/* C's _Bool: logical operators only */
		return op->code == VO_LAND || op->code == VO_LOR ||
		       op->code == VO_LXOR ? 0 : MPI_ERR_OP;
	switch (op->code) {
	case VO_MAX: case VO_MIN:
		return c == C_INT || c == C_FLOAT ? 0 : MPI_ERR_OP;
	case VO_SUM: case VO_PROD:
		return c == C_INT || c == C_FLOAT || c == C_COMPLEX ? 0 :
		       MPI_ERR_OP;
	case VO_LAND: case VO_LOR: case VO_LXOR:
		return c == C_INT ? 0 : MPI_ERR_OP;
	case VO_BAND: case VO_BOR: case VO_BXOR:
		return c == C_INT || c == C_BYTE ? 0 : MPI_ERR_OP;
	case VO_MAXLOC: case VO_MINLOC:
		return c == C_PAIR ? 0 : MPI_ERR_OP;
	default:
		return MPI_ERR_OP;
	}
}

#define ARITH(ty)							\
	do {								\
		ty *a = acc;						\
		const ty *b = v;					\
		for (i = 0; i < n; i++) {				\
			switch (op) {					\
			case VO_MAX: if (b[i] > a[i]) a[i] = b[i]; break; \
			case VO_MIN: if (b[i] < a[i]) a[i] = b[i]; break; \
			case VO_SUM: a[i] = a[i] + b[i]; break;		\
			case VO_PROD: a[i] = a[i] * b[i]; break;	\
			default: break;					\
			}						\
		}							\
	} while (0)

#define LOGIC(ty)							\
	do {								\
		ty *a = acc;						\
		const ty *b = v;					\
		for (i = 0; i < n; i++) {				\
			switch (op) {					\
			case VO_LAND: a[i] = a[i] && b[i]; break;	\
			case VO_LOR: a[i] = a[i] || b[i]; break;	\
			case VO_LXOR: a[i] = !a[i] != !b[i]; break;	\
			case VO_BAND: a[i] = a[i] & b[i]; break;	\
			case VO_BOR: a[i] = a[i] | b[i]; break;		\
			case VO_BXOR: a[i] = a[i] ^ b[i]; break;	\
			default: break;					\
			}						\
		}							\
	} while (0)

#define INTEGER(ty)							\
	do {								\
		if (op <= VO_PROD)					\
			ARITH(ty);					\
		else							\
			LOGIC(ty);					\
	} while (0)

/* MPI's MAXLOC/MINLOC: the extreme value, and on a tie the lower index. */
#define PAIR(ty)							\
	do {								\
		ty *a = acc;						\
		const ty *b = v;					\
		for (i = 0; i < n; i++) {				\
			bool take = op == VO_MAXLOC ? b[i].v > a[i].v :	\
							b[i].v < a[i].v; \
			if (take || (b[i].v == a[i].v && b[i].i < a[i].i)) \
				a[i] = b[i];				\
		}							\
	} while (0)

/* MPI_SUM and MPI_PROD of complex numbers (the only ones MPI defines). */
#define COMPLEX(ty)							\
	do {								\
		ty *a = acc;						\
		const ty *b = v;					\
		for (i = 0; i < n; i++)					\
			a[i] = op == VO_SUM ? a[i] + b[i] : a[i] * b[i]; \
	} while (0)

/* The plan executor's fold: @ctx is the call's struct vmpi_fold_args. */
void vmpi_fold(void *ctx, void *acc, const void *v, size_t len)
{
	const struct vmpi_type *t = ((void **)ctx)[0];
	const struct vmpi_op *o = ((void **)ctx)[1];
	enum vmpi_opcode op = o->code;
	size_t i, n, es = t->n ? t->size / t->n : 0;

	if (op == VO_USER) {	/* acc = v op acc, commutative (coll.c) */
		vmpi_combine((MPI_Datatype)t, (MPI_Op)o, v, acc, len);
		return;
	}
	if (!es)
		return;
	n = len / es;
	switch (t->base) {
	case VB_CHAR: INTEGER(char); break;
	case VB_SCHAR: INTEGER(signed char); break;
	case VB_UCHAR: case VB_BYTE: INTEGER(unsigned char); break;
	case VB_SHORT: INTEGER(short); break;
	case VB_USHORT: INTEGER(unsigned short); break;
	case VB_INT: INTEGER(int); break;
	case VB_UINT: INTEGER(unsigned int); break;
	case VB_LONG: INTEGER(long); break;
	case VB_ULONG: INTEGER(unsigned long); break;
	case VB_LLONG: INTEGER(long long); break;
	case VB_ULLONG: INTEGER(unsigned long long); break;
	case VB_BOOL: LOGIC(_Bool); break;
	case VB_I8: INTEGER(int8_t); break;
	case VB_I16: INTEGER(int16_t); break;
	case VB_I32: INTEGER(int32_t); break;
	case VB_I64: INTEGER(int64_t); break;
	case VB_U8: INTEGER(uint8_t); break;
	case VB_U16: INTEGER(uint16_t); break;
	case VB_U32: INTEGER(uint32_t); break;
	case VB_U64: INTEGER(uint64_t); break;
	case VB_WCHAR: INTEGER(wchar_t); break;
	case VB_AINT: INTEGER(MPI_Aint); break;
	case VB_FLOAT: ARITH(float); break;
	case VB_DOUBLE: ARITH(double); break;
	case VB_LDOUBLE: ARITH(long double); break;
	case VB_FLOAT_INT: PAIR(struct vmpi_pf); break;
	case VB_DOUBLE_INT: PAIR(struct vmpi_pd); break;
	case VB_LONG_INT: PAIR(struct vmpi_pl); break;
	case VB_2INT: PAIR(struct vmpi_p2); break;
	case VB_SHORT_INT: PAIR(struct vmpi_ps); break;
	case VB_LDOUBLE_INT: PAIR(struct vmpi_pld); break;
	case VB_CFLOAT: COMPLEX(float _Complex); break;
	case VB_CDOUBLE: COMPLEX(double _Complex); break;
	case VB_CLDOUBLE: COMPLEX(long double _Complex); break;
	default:
		break;
	}
}

int vmpi_native(MPI_Op op, MPI_Datatype type, unsigned int *vop,
		unsigned int *vtype)
{
	switch (type->base) {
	case VB_INT: case VB_I32:
		*vtype = VCUBE_TYPE_S32;
		break;
	case VB_DOUBLE:
		*vtype = VCUBE_TYPE_DOUBLE;
		break;
	case VB_U64: case VB_ULONG: case VB_ULLONG:
		*vtype = VCUBE_TYPE_U64;
		break;
	default:
		return -1;
	}
	switch (op->code) {
	case VO_SUM: *vop = VCUBE_OP_SUM; break;
	case VO_MAX: *vop = VCUBE_OP_MAX; break;
	case VO_MIN: *vop = VCUBE_OP_MIN; break;
	case VO_BAND: *vop = VCUBE_OP_BAND; break;
	case VO_BOR: *vop = VCUBE_OP_BOR; break;
	case VO_BXOR: *vop = VCUBE_OP_BXOR; break;
	default:
		return -1;
	}
	return vcube_op_check(*vop, *vtype) ? -1 : 0;
}

/*
 * Does every order of the operands give the same bits? Not a sum or
 * product of floating point: a plan that groups them differently at each
 * rank would leave the ranks with different results.
 */
void vmpi_combine(MPI_Datatype type, MPI_Op op, const void *in, void *inout,
		  size_t len)
{
	void *ctx[2] = { type, op };
	MPI_Datatype dt = type;
	int cnt = type->size ? (int)(len / type->size) : 0;

	if (op->code == VO_USER)
		op->fn((void *)in, inout, &cnt, &dt);
	else		/* predefined: commutative */
		vmpi_fold(ctx, inout, in, len);
}

int MPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op)
{
	struct vmpi_op *o;

	NEED_INIT("MPI_Op_create");
	if (!fn || !op)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Op_create",
				  "no function or no operator to return");
	o = calloc(1, sizeof(*o));
	if (!o)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Op_create",
				  "out of memory");
	o->code = VO_USER;
	o->name = commute ? "a commutative MPI_Op_create operator" :
			    "a non-commutative MPI_Op_create operator";
	o->fn = fn;
	o->commute = commute != 0;
	*op = o;
	return MPI_SUCCESS;
}

int MPI_Op_free(MPI_Op *op)
{
	NEED_INIT("MPI_Op_free");
	if (!op || !*op || (*op)->builtin)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_free",
				  "not an operator this program made");
	free(*op);
	*op = MPI_OP_NULL;
	return MPI_SUCCESS;
}

int MPI_Op_commutative(MPI_Op op, int *commute)
{
	NEED_INIT("MPI_Op_commutative");
	if (!op || !commute)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_ARG,
				  "MPI_Op_commutative", "no operator or result");
	*commute = op->code != VO_USER || op->commute;
	return MPI_SUCCESS;
}

bool vmpi_op_exact(MPI_Op op, MPI_Datatype type)
{
	if (op->code == VO_USER)
		return false;	/* nothing known of it: one order for all */
	if (op->code != VO_SUM && op->code != VO_PROD)
		return true;
	return base_class(type->base) != C_FLOAT &&
	       base_class(type->base) != C_COMPLEX;
}
