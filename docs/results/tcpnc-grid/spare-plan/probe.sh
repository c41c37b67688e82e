#!/bin/bash
# Usage: probe.sh TCPNC_SIM_TEST_BINARY (built with ../retransmission-target/rt_probe_test.cc).
# Runs RtProbe.Seeds and prints, per source kind and loss model, the mean over the four seeds of
# goodput (each seed's in brackets), delivery delay and CW failures.
"$1" --gtest_filter='RtProbe.Seeds' 2>&1 | grep rt= | /usr/bin/python3 -c '
import sys, re, collections
d = collections.defaultdict(list)
for l in sys.stdin:
    m = dict(re.findall(r"(\w+)=([\d.]+)", l))
    g = float(re.search(r"goodput=([\d.]+)", l).group(1))
    dl = float(re.search(r"delay mean ([\d.]+)", l).group(1))
    cf = float(re.search(r"cw_fail (\d+)", l).group(1))
    d[(m["window"], m["e"], m["b"])].append((g, dl, cf))
for k, v in d.items():
    n = len(v)
    print("window=%s e=%s burst=%s" % k, "goodput %.1f (%s) delay %.1f ms, CW failures %.0f" % (
        sum(x[0] for x in v) / n, " ".join("%.0f" % x[0] for x in v), sum(x[1] for x in v) / n, sum(x[2] for x in v) / n))
'
