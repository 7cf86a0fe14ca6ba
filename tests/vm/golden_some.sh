#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The golden virtual times (tests/vm/golden.sh) on a few cases: one per
# profile, a noisy one and a collective, for make check's second kernel
# line. The model's code is the same object on both lines and every case
# runs on 6.12 (on networks made over netlink); this shows 6.1's module path,
# the module parameters' network, gives the same times to the bit.
VCUBE_GOLDEN_VIA=module VCUBE_GOLDEN_SOME="ipsc860-d3 delta-4x5 ap1000-3x5 cm5-32 seidel-d3-shift ipsc860-d3-noise cm5-32-coll" \
	exec bash "$(dirname "$0")/golden.sh"
