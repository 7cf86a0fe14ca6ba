/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost presets of the machine profiles, in ns (see README.md and
 * docs/validation-ipsc860.md for their sources). One copy, used by the
 * module's profiles and by every test.
 */
#ifndef _VCUBE_CORE_PROFILES_H
#define _VCUBE_CORE_PROFILES_H

#include "engine.h"

/*
 * Bokhari 1991 sec. 2.2: FORCED 95 + 0.394 m + 10.3 d us; UNFORCED over
 * 100 bytes 164 + 0.398 m + 29.9 d us, as PROBE and REQUEST of 34.5 + 9.8 d
 * us each plus the data. The sender returns b_s - s = 31 us early (Seidel).
 */
static inline struct vc_params vc_profile_ipsc860(void)
{
	struct vc_params p = {
		.cost = {
			[VC_CLASS_SHORT] = { 95000, 394, 10300 },
			[VC_CLASS_CTL] = { 34500, 0, 9800 },
			[VC_CLASS_LONG] = { 95000, 398, 10300 },
		},
		.tail = 31000,
		.short_max = 100,
		.eject = 1,
		.sysbuf = 1 << 20,
		.max_reqs = 4096,
	};
	return p;
}

/*
 * Seidel & Davis 1992 Table I: a = 0.36 us/byte, b_s = 75 us, b_l = 136 us
 * as PROBE + REQUEST of 68 us each; measured between neighbours, so no
 * per-hop cost.
 */
static inline struct vc_params vc_profile_seidel(void)
{
	struct vc_params p = vc_profile_ipsc860();

	p.cost[VC_CLASS_SHORT] = (struct vc_cost){ 75000, 360, 0 };
	p.cost[VC_CLASS_CTL] = (struct vc_cost){ 68000, 0, 0 };
	p.cost[VC_CLASS_LONG] = (struct vc_cost){ 0, 360, 0 };
	return p;
}

#endif /* _VCUBE_CORE_PROFILES_H */
