// SPDX-License-Identifier: MIT
/*
 * exchange: every node swaps 4096 bytes with its neighbour across
 * dimension 0 (rank ^ 1) and checks what arrived byte for byte. The
 * README's example, whole; start it with vcube-run:
 *
 *	cc -std=c11 exchange.c $(pkg-config --cflags --libs libvcube) -o exchange
 *	vcube-run -n 32 ./exchange
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <vcube.h>

#define LEN 4096

static unsigned char fill(unsigned int rank, size_t i)
{
	return (unsigned char)(rank * 31 + i);
}

int main(void)
{
	static unsigned char sbuf[LEN], rbuf[LEN];
	struct vcube_node *node;
	struct vcube_status st;
	unsigned int rank, size, peer;
	uint64_t req;
	size_t i;
	int err;

	err = vcube_env_rank(&rank, &size);
	if (err) {
		fprintf(stderr, "exchange: not started by vcube-run: %s\n", strerror(-err));
		return 1;
	}
	peer = rank ^ 1;
	if (peer >= size) {
		fprintf(stderr, "exchange: node %u has no partner in %u nodes\n", rank, size);
		return 1;
	}
	err = vcube_node_open(rank, &node);		/* binds /dev/vcube<rank> */
	if (err) {
		fprintf(stderr, "exchange: /dev/vcube%u: %s\n", rank, strerror(-err));
		return 1;
	}
	for (i = 0; i < LEN; i++)
		sbuf[i] = fill(rank, i);
	/*
	 * Post the receive first: a FORCED message that finds none posted is
	 * dropped, as on the iPSC/860.
	 */
	err = vcube_node_irecv(node, peer, 0, rbuf, sizeof(rbuf), &req);
	if (!err)
		err = vcube_node_send(node, peer, 0, sbuf, LEN, VCUBE_SEND_FORCED, NULL);
	if (!err)
		err = vcube_node_wait(node, req, &st);	/* st.time: arrival, virtual ns */
	if (err) {
		fprintf(stderr, "exchange: node %u: %s\n", rank, strerror(-err));
		vcube_node_close(node);
		return 1;
	}
	for (i = 0; i < LEN; i++)
		if (rbuf[i] != fill(peer, i)) {
			fprintf(stderr, "exchange: node %u: byte %zu from %u is wrong\n",
				rank, i, peer);
			vcube_node_close(node);
			return 1;
		}
	printf("node %u: %" PRIu64 " bytes from node %u arrived at %" PRIu64 " ns\n",
	       rank, (uint64_t)st.len, st.src, (uint64_t)st.time);
	vcube_node_close(node);
	return 0;
}
