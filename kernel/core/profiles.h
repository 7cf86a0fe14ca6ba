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
 * A local copy (the shuffle of a store-and-forward exchange) costs the
 * node's processor four cycles per 32-bit word at its clock: assumed, not
 * fitted (no paper gives a copy rate); docs/design.md, "Local copies",
 * and the reports sweep it.
 */
#define VC_COPY_PS(mhz)	(4ULL * 1000000 / (mhz) / 4)

/*
 * Bokhari 1991 sec. 2.2: FORCED 95 + 0.394 m + 10.3 d us; UNFORCED over
 * 100 bytes 164 + 0.398 m + 29.9 d us, as PROBE and REQUEST of 34.5 + 9.8 d
 * us each plus the data. The sender returns b_s - s = 31 us early (Seidel).
 * The node is a 40 MHz i860: 25 ns per byte copied. A node's transmit and
 * receive overlap only when "nearly simultaneous" (Bokhari sec. 5): within
 * the 65 us that Seidel & Davis (sec. 2.2) measured; else one waits.
 */
static inline struct vc_params vc_profile_ipsc860(void)
{
	struct vc_params p = {
		.cost = {
			[VC_CLASS_SHORT] = { 95000, 394000, 10300 },
			[VC_CLASS_CTL] = { 34500, 0, 9800 },
			[VC_CLASS_LONG] = { 95000, 398000, 10300 },
		},
		.tail = 31000,
		.short_max = 100,
		.eject = 1,
		.sysbuf = 1 << 20,
		.max_reqs = 4096,
		.copy_ps = VC_COPY_PS(40),
		.duplex = 65000,
	};
	return p;
}

/*
 * Seidel & Davis 1992 Table I: a = 0.36 us/byte, b_s = 75 us, b_l = 136 us
 * as PROBE + REQUEST of 68 us each; measured between neighbours, so no
 * per-hop cost. A node's null sends leave s = 44 us apart (their RDS
 * derivation, sec. 3.3), so its send port is free when csend() returns.
 * Table II overlaps a FORCED transmit and receive for every delta: no
 * duplex window.
 *
 * Sec. 2.4: the node OS's "small set of buffers reserved to hold headers"
 * lets "several messages" go from one node to another before a response;
 * short messages and PROBEs take them, and a node whose window is full
 * waits for the receiver's spontaneous release message. The paper gives
 * no size: 16 headers per pair is the smallest window under which RDS
 * keeps more long-protocol shifts concurrent than gsync and sync0 (sec.
 * 4.2, "in all cases"), chosen on d = 5, not measured; the reports sweep
 * it (docs/reproductions.md).
 */
static inline struct vc_params vc_profile_seidel(void)
{
	struct vc_params p = vc_profile_ipsc860();

	p.cost[VC_CLASS_SHORT] = (struct vc_cost){ 75000, 360000, 0 };
	p.cost[VC_CLASS_CTL] = (struct vc_cost){ 68000, 0, 0 };
	p.cost[VC_CLASS_LONG] = (struct vc_cost){ 0, 360000, 0 };
	p.sport_early = 1;	/* the next csend() may start s after the last */
	p.duplex = 0;
	p.fc_bufs = 16;
	return p;
}

/*
 * Touchstone Delta (Thakur, Choudhary & Fox 1993): wormhole, XY, two
 * bodies share a link with no slowdown (gamma = 1). The paper gives no
 * alpha or beta: alpha = 203 us and beta_ex = 0.248 us/byte solve PEX on
 * the 4x4 mesh (15 steps, at most 2 sharers per link, so no slowdown) for
 * the 256-byte and 16-KB cells of Table 2; every other cell is predicted
 * (docs/validation.md). The header's 0.1 us per hop is assumed, not in the
 * paper, and hardly matters (distance-free, as the paper says).
 *
 * Two lanes per channel: "even if two messages contend for a link, there
 * is no increase in communication time" (gamma = 1), and in wormhole
 * routing "the remaining flits follow in a pipeline fashion" behind the
 * header, so a third header on a busy channel waits there, holding the
 * channels behind it, rather than slowing the two (the paper's own f(i)
 * model shares instead; docs/validation.md sets both side by side). The
 * fit above is untouched: PEX on 4x4 never puts three on a channel.
 */
static inline struct vc_params vc_profile_delta(void)
{
	struct vc_params p = vc_profile_ipsc860();

	p.switching = VC_SW_WORMHOLE;
	p.duplex = 0;		/* a circuit-switching behaviour */
	p.lanes = 2;
	p.gamma = 1;
	p.cost[VC_CLASS_SHORT] = (struct vc_cost){ 203000, 248000, 100 };
	p.short_max = U32_MAX;	/* no PROBE/REQUEST in this model */
	p.tail = 0;
	return p;
}

/*
 * Fujitsu AP1000 (Chuang & Horie 1992): wormhole on a torus, +x then -y,
 * structured buffer pools: d bodies sharing a channel get about B/d each
 * (gamma = 0). The paper gives no constants; assumed: 25 MB/s T-net links
 * (40 ns/byte), 20 us library startup, 0.1 us per hop, and a 25 MHz SPARC
 * cell's copies, 40 ns per byte.
 */
static inline struct vc_params vc_profile_ap1000(void)
{
	struct vc_params p = vc_profile_delta();

	p.lanes = 0;
	p.gamma = 0;
	p.cost[VC_CLASS_SHORT] = (struct vc_cost){ 20000, 40000, 100 };
	p.copy_ps = VC_COPY_PS(25);
	return p;
}

/*
 * CM-5 data network (Ponnusamy et al.): 4-ary fat tree, 16-byte payloads
 * in 20-byte packets; within a cluster of 4, t = 73 + 0.112 l us when
 * l mod 16 = 0 and 10 us more otherwise. Packets spread over each bundle
 * of parallel links, so bodies share a bundle's width in links. Distance
 * costs nothing (Fig. 5). A node is a 32 MHz SPARC: 31.25 ns per byte
 * copied.
 *
 * Receiving costs the receiver: LEX "performs much worse ... because of
 * the single destination bottleneck" (sec. 4.5), 57 times PEX on 256
 * nodes (Table 6). CMMD's send is synchronous (no system buffer: it waits
 * for its receive), and a node takes one message at a time (eject 1),
 * spending recv of its startup on it before the body flows: assumed the
 * whole 73 us, the sender's share 0, since the paper does not split it.
 */
static inline struct vc_params vc_profile_cm5(void)
{
	struct vc_params p = vc_profile_ipsc860();

	p.switching = VC_SW_PACKET;
	p.duplex = 0;		/* a circuit-switching behaviour */
	p.gamma = 0;
	p.packet_payload = 16;
	p.partial_ns = 10000;
	p.cost[VC_CLASS_SHORT] = (struct vc_cost){ 73000, 112000, 0 };
	p.short_max = U32_MAX;
	p.tail = 0;
	p.eject = 1;
	p.sysbuf = 0;
	p.recv = 73000;
	p.copy_ps = VC_COPY_PS(32);
	/*
	 * The control network (sec. 2; Table 7, 32 nodes, one cell per
	 * operation fitted, column 64 x 65): an int reduction 6 us (one
	 * 32-bit word through the combining tree), a double one 42 us, and a
	 * broadcast of 65 doubles 917 us = 137 us + 130 words of 6 us. The
	 * other columns are predicted (docs/control-network.md). Assumed, the
	 * paper being silent: a barrier costs one word, a scan a reduction,
	 * and no cost grows with the partition's size.
	 */
	p.cnet_word = 6000;
	p.cnet_double = 42000;
	p.cnet_bcast = 137000;
	return p;
}

/*
 * A network of today, HPE Slingshot's dragonfly (De Sensi et al., "An
 * In-Depth Analysis of the Slingshot Interconnect", SC20): "64 ports at
 * 200 Gb/s per direction" on its Rosetta switch, so 40 ps a byte on a
 * link, and as much for the NIC's injection and ejection (200 Gb/s).
 * Links are shared max-min, as SimGrid shares them (wormhole, no lane
 * limit, gamma 0). Assumed, not published as such, and flagged so in the
 * README: 300 ns a switch hop, 1 us of send and receive overheads with
 * the NIC's latency (a message's base), an eager limit of 8 KiB (larger
 * messages go as a rendezvous: a request, a reply, then the data), no
 * limit on receives at once, and a core's copy at 10 GB/s (100 ps a byte).
 */
static inline struct vc_params vc_profile_slingshot(void)
{
	struct vc_params p = vc_profile_ipsc860();

	p.switching = VC_SW_WORMHOLE;
	p.duplex = 0;		/* a circuit-switching behaviour */
	p.lanes = 0;
	p.gamma = 0;
	p.cost[VC_CLASS_SHORT] = (struct vc_cost){ 1000, 40, 300 };
	p.cost[VC_CLASS_CTL] = (struct vc_cost){ 1000, 0, 300 };
	p.cost[VC_CLASS_LONG] = (struct vc_cost){ 1000, 40, 300 };
	p.short_max = 8192;
	p.tail = 0;
	p.eject = 0;
	p.inject_ps = 40;
	p.eject_ps = 40;
	p.copy_ps = 100;
	return p;
}

/*
 * Each profile names a machine and the size the papers mostly ran it at,
 * taken when no shape is given; the first profile per topology is that
 * topology's default, and the first of all the module's (no parameters:
 * a 32-node iPSC/860, Bokhari's Figs. 12 and 13). The module and vcube-sim
 * both read this one table.
 */
struct vc_profile {
	const char *name;
	enum vcube_topo_kind kind;
	struct vc_params (*params)(void);
	u32 dim, rows, cols, nodes;	/* the default shape */
	u32 groups, routers, global;	/* a dragonfly's */
	/* a preset of today: named, never a topology's default */
	bool today;
};

#define VC_NPROFILES	6

/* Profile @i, 0 .. VC_NPROFILES - 1, else NULL. */
static inline const struct vc_profile *vc_profile_get(unsigned int i)
{
	static const struct vc_profile tab[VC_NPROFILES] = {
		{ "ipsc860", VCUBE_TOPO_HYPERCUBE, vc_profile_ipsc860,
		  .dim = 5 },
		{ "seidel", VCUBE_TOPO_HYPERCUBE, vc_profile_seidel,
		  .dim = 5 },
		/* the whole Delta, Thakur's largest mesh */
		{ "delta", VCUBE_TOPO_MESH, vc_profile_delta,
		  .rows = 16, .cols = 32 },
		/* Chuang & Horie's "using 64 processors" */
		{ "ap1000", VCUBE_TOPO_TORUS, vc_profile_ap1000,
		  .rows = 8, .cols = 8 },
		/* Ponnusamy et al.'s Fig. 10, a 32-node CM-5 */
		{ "cm5", VCUBE_TOPO_FATTREE, vc_profile_cm5, .nodes = 32 },
		/* the example: 9 groups of 4 routers of 2 nodes */
		{ "slingshot", VCUBE_TOPO_DRAGONFLY, vc_profile_slingshot,
		  .groups = 9, .routers = 4, .nodes = 2, .global = 2,
		  .today = true },
	};

	return i < VC_NPROFILES ? &tab[i] : NULL;
}

/* The number of the profile called @name, or -EINVAL. */
static inline int vc_profile_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < VC_NPROFILES; i++)
		if (!strcmp(name, vc_profile_get(i)->name))
			return i;
	return -EINVAL;
}

/*
 * The profile a network of @kind takes when none is named (the module's
 * rule, and vcube-sim's): its machine's, the first profile of that kind;
 * for a topology no machine of 1991 had (dragonfly, graph) the CM-5's
 * packets, the nearest of them to today's networks. A preset of today
 * is taken only by name, so that no default moves under a user.
 */
static inline int vc_profile_for_kind(enum vcube_topo_kind kind)
{
	unsigned int i;

	for (i = 0; i < VC_NPROFILES; i++)
		if (vc_profile_get(i)->kind == kind && !vc_profile_get(i)->today)
			return i;
	return vc_profile_find("cm5");
}

#endif /* _VCUBE_CORE_PROFILES_H */
