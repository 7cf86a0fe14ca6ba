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
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

/* charged to the memory cgroup of the caller the engine works for */
#define vc_alloc(n)		kvzalloc(n, GFP_KERNEL_ACCOUNT)
#define vc_alloc_array(n, s)	kvcalloc(n, s, GFP_KERNEL_ACCOUNT)
#define vc_free(p)		kvfree(p)
/* the engine runs in process context, under a mutex: it may yield */
#define vc_resched()		cond_resched()
/* seeds the engine's hash tables: which keys collide is nobody's choice */
#define vc_random_u64()		get_random_u64()
#define vc_log(...)		pr_warn("vcube: " __VA_ARGS__)
/*
 * A report of several lines, allowed a few times per 5 s (the log's own
 * "callbacks suppressed" line counts the rest).
 */
#define VC_REPORT_LIMIT(name)	DEFINE_RATELIMIT_STATE(name, 5 * HZ, 4)
#define vc_report_ok(rs)	__ratelimit(rs)
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
typedef int32_t s32;

#define U64_MAX		UINT64_MAX
#define U32_MAX		UINT32_MAX
#define U16_MAX		UINT16_MAX

/*
 * Host tests make the n-th allocation from now fail by setting this (as
 * the kernel's fail-nth does), to walk the error paths under ASan.
 */
extern unsigned long vc_alloc_fail_nth;
static inline void *vc_host_calloc(size_t n, size_t s)
{
	if (vc_alloc_fail_nth && !--vc_alloc_fail_nth)
		return NULL;
	return calloc(n, s);
}

#define vc_alloc(n)		vc_host_calloc(1, n)
#define vc_alloc_array(n, s)	vc_host_calloc(n, s)
#define vc_free(p)		free(p)
#define vc_resched()		do { } while (0)
#define vc_random_u64()		0x9e3779b97f4a7c15ULL
extern void (*vc_host_log)(const char *msg);
#define vc_log(...)							\
	do {								\
		char vc_log_buf[256];					\
									\
		snprintf(vc_log_buf, sizeof(vc_log_buf), __VA_ARGS__);	\
		if (vc_host_log)					\
			vc_host_log(vc_log_buf);			\
	} while (0)

/* the host tests see every report */
#define VC_REPORT_LIMIT(name)	int name
#define vc_report_ok(rs)	((void)(rs), 1)

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif

/* The subset of the kernel's <linux/list.h> that kernel/core uses. */
struct list_head {
	struct list_head *next, *prev;
};

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}

/* @n after @h */
static inline void list_add(struct list_head *n, struct list_head *h)
{
	n->prev = h;
	n->next = h->next;
	h->next->prev = n;
	h->next = n;
}

static inline void list_del_init(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	INIT_LIST_HEAD(n);
}

static inline void list_del(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
}

#define LIST_HEAD(name) struct list_head name = { &(name), &(name) }

/* @l's entries, in order, at the end of @h; @l left empty */
static inline void list_splice_tail_init(struct list_head *l,
					 struct list_head *h)
{
	if (l->next == l)
		return;
	l->next->prev = h->prev;
	h->prev->next = l->next;
	l->prev->next = h;
	h->prev = l->prev;
	INIT_LIST_HEAD(l);
}

static inline void list_move_tail(struct list_head *n, struct list_head *h)
{
	list_del_init(n);
	list_add_tail(n, h);
}

static inline int list_empty(const struct list_head *h)
{
	return h->next == h;
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(h, type, member) list_entry((h)->next, type, member)
#define list_for_each_entry(pos, h, member)				\
	for (pos = list_entry((h)->next, __typeof__(*pos), member);	\
	     &pos->member != (h);					\
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))
#define list_for_each_entry_reverse(pos, h, member)			\
	for (pos = list_entry((h)->prev, __typeof__(*pos), member);	\
	     &pos->member != (h);					\
	     pos = list_entry(pos->member.prev, __typeof__(*pos), member))
#define list_for_each_entry_safe(pos, n, h, member)			\
	for (pos = list_entry((h)->next, __typeof__(*pos), member),	\
	     n = list_entry(pos->member.next, __typeof__(*pos), member); \
	     &pos->member != (h);					\
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))
#endif

/* -EINVAL, saying why in @err, one line (@errlen 0: not said). */
#define vcube_fail(err, errlen, ...) \
	({ snprintf(err, errlen, __VA_ARGS__); -EINVAL; })

#endif /* _VCUBE_CORE_ENV_H */
