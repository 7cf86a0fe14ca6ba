/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Environment for kernel/core: the same sources build inside the kernel
 * (module, KUnit) and as a plain host library for unit tests and sanitizers.
 * Only integer types, errno values and string formatting are mapped here;
 * kernel/core needs nothing else.
 */
#ifndef _VCUBE_CORE_ENV_H
#define _VCUBE_CORE_ENV_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
#endif

#endif /* _VCUBE_CORE_ENV_H */
