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

#define T(b, ty, nm) { sizeof(ty), b, 1, nm, true, true }
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
#undef T

#define O(c, nm) { c, nm, true }
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
	struct vmpi_type *t;

	if (count < 0 || !newtype || !old)
		return vmpi_error(MPI_COMM_WORLD, count < 0 ? MPI_ERR_COUNT :
				  MPI_ERR_ARG, "MPI_Type_contiguous",
				  "count %d", count);
	if (old->size && (size_t)count > SIZE_MAX / 2 / old->size)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_COUNT,
				  "MPI_Type_contiguous", "%d elements of %zu bytes",
				  count, old->size);
	t = calloc(1, sizeof(*t));
	if (!t)
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM,
				  "MPI_Type_contiguous", "out of memory");
	t->size = old->size * (size_t)count;
	t->base = old->base;
	t->n = old->n * (size_t)count;
	t->name = "contiguous";
	*newtype = t;
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
	if (!type || !*type || is_builtin_type(*type))
		return vmpi_error(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_free",
				  "not a derived type");
	free(*type);
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

/* ---- reductions ---------------------------------------------------------- */

enum vmpi_class { C_INT, C_FLOAT, C_BYTE, C_PAIR, C_NONE };

static enum vmpi_class base_class(enum vmpi_base b)
{
	switch (b) {
	case VB_FLOAT: case VB_DOUBLE: case VB_LDOUBLE:
		return C_FLOAT;
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

	if (!op || !op->builtin)
		return MPI_ERR_OP;
	if (vmpi_type_check(type))
		return MPI_ERR_TYPE;
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
		return c == C_INT || c == C_FLOAT ? 0 : MPI_ERR_OP;
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

/* The plan executor's fold: @ctx is the call's struct vmpi_fold_args. */
void vmpi_fold(void *ctx, void *acc, const void *v, size_t len)
{
	const struct vmpi_type *t = ((void **)ctx)[0];
	const struct vmpi_op *o = ((void **)ctx)[1];
	enum vmpi_opcode op = o->code;
	size_t i, n, es = t->n ? t->size / t->n : 0;

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
bool vmpi_op_exact(MPI_Op op, MPI_Datatype type)
{
	if (op->code != VO_SUM && op->code != VO_PROD)
		return true;
	return base_class(type->base) != C_FLOAT;
}
