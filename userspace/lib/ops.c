// SPDX-License-Identifier: MIT
/*
 * libvcube: arithmetic under everything else. The element types and
 * operators of reductions and scans (VCUBE_TYPE_*, VCUBE_OP_*), which the
 * executor's folds and the control network's apply, and the binary
 * reflected Gray code that embeds a ring in the cube (the shift's plan).
 * Plain functions of their arguments: this file calls no other.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "comm.h"

size_t vcube_type_size(unsigned int type)
{
	switch (type) {
	case VCUBE_TYPE_U64:
	case VCUBE_TYPE_DOUBLE:
		return 8;
	case VCUBE_TYPE_S32:
		return 4;
	default:
		return 0;
	}
}

int vcube_op_check(unsigned int op, unsigned int type)
{
	if (!vcube_type_size(type) || op > VCUBE_OP_BXOR ||
	    (type == VCUBE_TYPE_DOUBLE && op > VCUBE_OP_MIN))
		return -EINVAL;
	return 0;
}

/* a op b for integers of type T; sums wrap, in the unsigned type U */
#define INT_OP(T, U, op, a, b)						\
	((op) == VCUBE_OP_SUM ? (T)((U)(a) + (U)(b)) :			\
	 (op) == VCUBE_OP_MAX ? ((a) > (b) ? (a) : (b)) :		\
	 (op) == VCUBE_OP_MIN ? ((a) < (b) ? (a) : (b)) :		\
	 (op) == VCUBE_OP_BAND ? (T)((U)(a) & (U)(b)) :			\
	 (op) == VCUBE_OP_BOR ? (T)((U)(a) | (U)(b)) : (T)((U)(a) ^ (U)(b)))

/* acc[i] = acc[i] op v[i] for one element type T, unaligned buffers */
#define COMBINE(T, expr, acc, v, count)					\
	do {								\
		size_t i_;						\
		T a_, b_;						\
									\
		for (i_ = 0; i_ < (count); i_++) {			\
			memcpy(&a_, (uint8_t *)(acc) + sizeof(T) * i_, sizeof(T)); \
			memcpy(&b_, (const uint8_t *)(v) + sizeof(T) * i_, sizeof(T)); \
			a_ = (expr);					\
			memcpy((uint8_t *)(acc) + sizeof(T) * i_, &a_, sizeof(T)); \
		}							\
	} while (0)

void vcube_combine(unsigned int op, unsigned int type, void *acc,
		   const void *v, size_t count)
{
	switch (type) {
	case VCUBE_TYPE_U64:
		COMBINE(uint64_t, INT_OP(uint64_t, uint64_t, op, a_, b_), acc,
			v, count);
		break;
	case VCUBE_TYPE_S32:
		COMBINE(int32_t, INT_OP(int32_t, uint32_t, op, a_, b_), acc, v,
			count);
		break;
	default:
		COMBINE(double, op == VCUBE_OP_SUM ? a_ + b_ :
				op == VCUBE_OP_MAX ? (a_ > b_ ? a_ : b_) :
						     (a_ < b_ ? a_ : b_),
			acc, v, count);
		break;
	}
}

unsigned int vcube_gray_encode(unsigned int i)
{
	return i ^ (i >> 1);
}

unsigned int vcube_gray_decode(unsigned int g)
{
	unsigned int i = 0;

	for (; g; g >>= 1)
		i ^= g;
	return i;
}
