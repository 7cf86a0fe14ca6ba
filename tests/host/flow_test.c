// SPDX-License-Identifier: GPL-2.0
/*
 * Wormhole and packet switching in the engine, on the host: latency without
 * contention, bandwidth shared by max-min fairness with excess bandwidth
 * (Delta, gamma = 1) and without (AP1000's structured buffer pools), the
 * per-step link sharing of Thakur's PEX and GEN, and the CM-5's packet
 * network (Ponnusamy et al.): the intra-cluster formula, distance-free
 * latency, and contention only beyond clusters of 4.
 */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "harness.h"

#define US 1000ULL

/* Wormhole: startup 100 us, header 0.1 us per hop, 0.1 us per byte. */
static struct vc_params params_worm(u32 gamma)
{
	struct vc_params p = params_ipsc860();

	p.switching = VC_SW_WORMHOLE;
	p.lanes = 0;
	p.gamma = gamma;
	p.cost[VC_CLASS_SHORT] = (struct vc_cost){ 100 * US, 100000, 100 };
	p.short_max = U32_MAX;
	p.tail = 0;
	return p;
}

/* CM-5: t = 73 + 0.112 l us, 10 us more when l is not a multiple of 16. */
static struct vc_params params_cm5(void)
{
	struct vc_params p = params_ipsc860();

	p.switching = VC_SW_PACKET;
	p.packet_payload = 16;
	p.partial_ns = 10 * US;
	p.cost[VC_CLASS_SHORT] = (struct vc_cost){ 73 * US, 112000, 0 };
	p.short_max = U32_MAX;
	p.tail = 0;
	p.eject = 0;
	return p;
}

static u32 g_src[512], g_dst[512], g_n;
static u64 g_len, g_took[4096];

/* Every listed pair sends at 1 ms; receivers record the transit time. */
static void prog_pairs(struct hnet *h, u32 node)
{
	struct vc_req *r = NULL;
	u32 i;

	for (i = 0; i < g_n; i++)
		if (g_dst[i] == node)
			r = h_irecv(h, node, g_src[i], 0, g_len);
	h_delay(h, node, 1000 * US);
	for (i = 0; i < g_n; i++)
		if (g_src[i] == node)
			CHECK(h_send(h, node, g_dst[i], 0, VC_SEND_FORCED, g_len) == 0,
			      "send");
	if (r) {
		CHECK(h_wait(h, node, r, NULL) == 0, "recv");
		g_took[node] = h_clock(h, node) - 1000 * US;
	}
}

static u64 run(const struct vcube_topo_params *tp, const struct vc_params *p,
	       u32 *peak)
{
	struct hnet h;
	u64 worst = 0;
	u32 i, c;

	memset(g_took, 0, sizeof(g_took));
	hnet_init(&h, tp, p);
	h_run(&h, h.topo.nodes, prog_pairs);
	for (i = 0; i < g_n; i++)
		if (g_took[g_dst[i]] > worst)
			worst = g_took[g_dst[i]];
	if (peak) {
		*peak = 0;
		for (c = 0; c < vc_nchan_res(h.e); c++)
			if (vc_chan_stats(h.e, c)->peak > *peak)
				*peak = vc_chan_stats(h.e, c)->peak;
	}
	CHECK(h.bad_data == 0, "payload corrupted");
	hnet_fini(&h);
	return worst;
}

static void pair(u32 s, u32 d)
{
	g_src[g_n] = s;
	g_dst[g_n++] = d;
}

static void test_wormhole(void)
{
	struct vcube_topo_params mesh = { .kind = VCUBE_TOPO_MESH,
					  .rows = 16, .cols = 32 };
	struct vc_params p1 = params_worm(1), p0 = params_worm(0);
	u64 t, alone;

	/* (L_f/B) D + L/B after the startup: 0 -> 511 is 46 hops. */
	g_n = 0;
	g_len = 4096;
	pair(0, 511);
	t = run(&mesh, &p1, NULL);
	CHECK(t == 100 * US + 46 * 100 + 4096 * 100,
	      "no contention: %llu ns", (unsigned long long)t);
	g_n = 0;
	pair(0, 1);
	alone = run(&mesh, &p1, NULL);
	CHECK(alone == 100 * US + 100 + 4096 * 100, "one hop: %llu",
	      (unsigned long long)alone);

	/* Two bodies on link 1->2 eastwards: no slowdown with gamma = 1. */
	g_n = 0;
	pair(0, 2);
	pair(1, 3);
	t = run(&mesh, &p1, NULL);
	/* 0 -> 2 is one hop longer than 0 -> 1, and nothing else */
	CHECK(t == alone + 100, "two sharers, gamma 1: %llu vs %llu",
	      (unsigned long long)t, (unsigned long long)alone);
	/* Three on 2->3: each gets 2/3; the body takes 1.5 times as long. */
	g_n = 0;
	pair(0, 3);
	pair(1, 4);
	pair(2, 5);
	t = run(&mesh, &p1, NULL);
	CHECK(fabs((double)(t - 100 * US) / (409600 * 1.5) - 1) < 0.01,
	      "three sharers, gamma 1: body %llu ns",
	      (unsigned long long)(t - 100 * US));
	/* Opposite directions never contend. */
	g_n = 0;
	pair(0, 2);
	pair(2, 0);
	t = run(&mesh, &p0, NULL);
	CHECK(t == alone + 100, "opposite directions: %llu",
	      (unsigned long long)t);
	/* AP1000's pools, gamma = 0: two sharers get half each. */
	g_n = 0;
	pair(0, 2);
	pair(1, 3);
	t = run(&mesh, &p0, NULL);
	CHECK(fabs((double)(t - 100 * US) / (409600 * 2.0) - 1) < 0.01,
	      "two sharers, gamma 0: body %llu ns",
	      (unsigned long long)(t - 100 * US));
}

/*
 * GEN step @i on an @r x @c mesh: the most XY paths (x first) of the pairs
 * (s, s + i mod rc) on one directed link, counted apart from the engine.
 */
static u32 xy_overlap(u32 r, u32 c, u32 i)
{
	static u32 use[16 * 8 * 4];	/* (node, direction): E W S N */
	u32 np = r * c, s, best = 0;

	memset(use, 0, sizeof(use));
	for (s = 0; s < np; s++) {
		u32 x = s % c, y = s / c, dx = (s + i) % np % c;
		u32 dy = (s + i) % np / c, k;

		while (x != dx) {
			k = 4 * (y * c + x) + (dx > x ? 0 : 1);
			best = ++use[k] > best ? use[k] : best;
			x = dx > x ? x + 1 : x - 1;
		}
		while (y != dy) {
			k = 4 * (y * c + x) + (dy > y ? 2 : 3);
			best = ++use[k] > best ? use[k] : best;
			y = dy > y ? y + 1 : y - 1;
		}
	}
	return best;
}

/* Thakur's per-step contention: the most bodies on one link at once. */
static void test_thakur_f(void)
{
	static const u32 shapes[3][2] = { { 4, 4 }, { 8, 8 }, { 16, 8 } };
	struct vc_params p = params_worm(1);
	u32 s, i, j, peak, pex_eq, gen_eq, gen_le;

	g_len = 64;
	for (s = 0; s < 3; s++) {
		struct vcube_topo_params tp = { .kind = VCUBE_TOPO_MESH,
						.rows = shapes[s][0],
						.cols = shapes[s][1] };
		u32 c = shapes[s][1], np = shapes[s][0] * c;

		pex_eq = gen_eq = gen_le = 0;
		for (i = 1; i < np; i++) {
			u32 m = (i % c) > (i / c) ? (i % c) : (i / c), f = 1;
			u32 g = ((i % c) < c - (i % c) ? (i % c) : c - (i % c)) +
				((i / c) < (np - i) / c ? (i / c) : (np - i) / c);

			/* 2^floor(lg m): its bound max(r, c)/2 needs the floor */
			while (2 * f <= m)
				f *= 2;
			g_n = 0;
			for (j = 0; j < np; j++)
				pair(j, j ^ i);
			run(&tp, &p, &peak);
			pex_eq += peak == f;
			CHECK(peak == f, "PEX %ux%u step %u: peak %u, f(i) %u",
			      shapes[s][0], c, i, peak, f);
			g_n = 0;
			for (j = 0; j < np; j++)
				pair(j, (j + i) % np);
			run(&tp, &p, &peak);
			gen_eq += peak == g;
			gen_le += peak <= g;
			CHECK(peak <= g, "GEN %ux%u step %u: peak %u > f(i) %u",
			      shapes[s][0], c, i, peak, g);
			/* the bound alone would pass a model that shares less */
			CHECK(peak == xy_overlap(shapes[s][0], c, i),
			      "GEN %ux%u step %u: peak %u, XY paths overlap %u",
			      shapes[s][0], c, i, peak,
			      xy_overlap(shapes[s][0], c, i));
		}
		printf("  %2ux%-2u PEX: f(i) on %u of %u steps; GEN: <= f(i) on %u, equal on %u\n",
		       shapes[s][0], c, pex_eq, np - 1, gen_le, gen_eq);
	}
}

static void test_cm5(void)
{
	struct vcube_topo_params ft = { .kind = VCUBE_TOPO_FATTREE,
					.nodes = 256, .seed = 1 };
	struct vc_params p = params_cm5();
	static const u64 lens[] = { 0, 16, 17, 1000, 1024, 10000 };
	u64 t, t1, t2, base;
	u32 i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		u64 l = lens[i];
		/* sec. 3.2's fit, in ns: (l mod 16 ? 83 : 73) + 0.112 l us */
		u64 want = (l % 16 ? 83000 : 73000) + 112 * l;

		g_n = 0;
		g_len = l;
		pair(0, 1);
		t = run(&ft, &p, NULL);
		CHECK(t == want, "cluster of 4, l=%llu: %llu ns, want %llu",
		      (unsigned long long)l, (unsigned long long)t,
		      (unsigned long long)want);
	}
	/* Fig. 5: alone, distance does not matter. */
	g_len = 4096;
	g_n = 0;
	pair(0, 1);
	base = run(&ft, &p, NULL);
	g_n = 0;
	pair(0, 200);
	t = run(&ft, &p, NULL);
	CHECK(t == base, "0->200 alone %llu vs 0->1 %llu",
	      (unsigned long long)t, (unsigned long long)base);
	/* Fig. 7: 0..3 to 4..7 at once: no slowdown. */
	g_n = 0;
	for (i = 0; i < 4; i++)
		pair(i, 4 + i);
	t = run(&ft, &p, NULL);
	CHECK(t == base, "4 to the next 4: %llu vs %llu",
	      (unsigned long long)t, (unsigned long long)base);
	/* Fig. 8: 0..15 to 16..31: 16 bodies on 8 links, and growing. */
	g_n = 0;
	for (i = 0; i < 16; i++)
		pair(i, 16 + i);
	t1 = run(&ft, &p, NULL);
	/* the cluster's 8 links up carry 16 bodies: each at half rate */
	CHECK(t1 == 73 * US + 2 * 112 * 4096,
	      "16 to the next 16: %llu ns, want %llu (%llu alone)",
	      (unsigned long long)t1,
	      (unsigned long long)(73 * US + 2 * 112 * 4096),
	      (unsigned long long)base);
	g_len = 16384;
	t2 = run(&ft, &p, NULL);
	CHECK(t2 == 73 * US + 2 * 112 * 16384,
	      "16 to the next 16, 16 KB: %llu ns, want %llu",
	      (unsigned long long)t2,
	      (unsigned long long)(73 * US + 2 * 112 * 16384));
	g_n = 1;
	base = run(&ft, &p, NULL);
	CHECK(t2 - base > t1 - (73 * US + 112 * 4096),
	      "the gap grows with size: %llu at 16 KB", (unsigned long long)(t2 - base));
	printf("  cm5: 16 to the next 16, 4 KB: %.0f us (alone %.0f)\n", t1 / 1e3,
	       (73 * US + 112 * 4096) / 1e3);
}

int main(void)
{
	test_wormhole();
	test_cm5();
	test_thakur_f();
	return check_done("flow_test");
}
