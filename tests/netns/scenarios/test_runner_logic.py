#!/usr/bin/python3
"""Unit checks of the runner's pure parts: routing plan (static and tunnel routes of a cascade),
scenario expansion, Jain's index and Power, http flow parsing, iperf3 receiver series and the
per-second FUDP metrics, the senders' `ss` samples. No namespaces; label unit."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "netns-scenarios"))
from runner import metrics, openvpn, plan, scenario, tcp_sampler, timeseries, traffic  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402

SCEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "netns-scenarios",
                    "scenarios", "paper002-topology2.yaml")


class Plan(unittest.TestCase):
    def setUp(self):
        self.sc = scenario.load(SCEN)
        body = scenario.expand(self.sc, {"cases": ["case1"], "variants": ["tunnel"],
                                         "sweep_values": [0.1], "repetitions": 1})[0]["body"]
        self.body = body
        self.nodes = body["nodes"]
        self.links = plan.addressing(body)

    def test_e2e_routes_follow_the_gateway_chain(self):
        static, tun = plan.routes(self.nodes, self.links, [])
        self.assertIn(("10.3.1.0/24", "10.1.1.2", "e0"), static["src1"])
        self.assertIn(("10.3.1.0/24", "192.168.12.2", "e2"), static["gw1"])
        self.assertIn(("10.3.1.0/24", "192.168.23.2", "e2"), static["gw2"])
        self.assertFalse(any(tun.values()))

    def test_cascade_sends_host_prefixes_into_the_next_tunnel(self):
        static, tun = plan.routes(self.nodes, self.links, self.body["tunnels"])
        self.assertIn(("10.3.1.0/24", "gw2"), tun["gw1"])
        self.assertIn(("10.3.1.0/24", "gw3"), tun["gw2"])
        self.assertIn(("10.1.1.0/24", "gw1"), tun["gw2"])
        self.assertIn(("10.1.1.0/24", "gw2"), tun["gw3"])
        self.assertIn(("10.2.3.0/24", "gw2"), tun["gw3"])
        # underlay between gateways stays routed normally
        self.assertIn(("192.168.23.0/24", "192.168.12.2", "e2"), static["gw1"])
        self.assertFalse(any(s == "10.3.1.0/24" for s, _, _ in static["gw1"]))
        self.assertEqual(plan.endpoint(self.nodes, self.links, "gw1", "gw2"), "192.168.12.2")

    def test_expansion_substitutes_case_and_sweep(self):
        runs = scenario.expand(self.sc, {"repetitions": 2})
        self.assertEqual(len(runs), 3 * 2 * 7 * 2)
        r = [x for x in runs if x["case"] == "case3" and x["sweep_value"] == 0.2][0]
        wan = [l for l in r["body"]["links"] if l.get("name") == "gw2-gw3"][0]
        self.assertIn("rate=4mbit", wan["both"])
        self.assertEqual(wan["a2b"], "loss=bernoulli:0.2")
        self.assertEqual({x["seed"] for x in runs}, {1, 2})


class Metrics(unittest.TestCase):
    def test_jain(self):
        self.assertAlmostEqual(metrics.jain([1, 1, 1]), 1.0)
        self.assertAlmostEqual(metrics.jain([1, 0, 0]), 1 / 3)
        self.assertIsNone(metrics.jain([]))

    def test_power_is_goodput_over_mean_rtt(self):
        flows = [{"name": "a", "type": "tcp", "from": "h1", "to": "h2", "goodput_bps": 2e6, "mean_rtt_ms": 20},
                 {"name": "b", "type": "tcp", "from": "h1", "to": "h2", "goodput_bps": 1e6, "mean_rtt_ms": 40}]
        m = metrics.run_metrics(flows)
        self.assertAlmostEqual(m["flows"]["a"]["power"], 2 / 0.02)
        self.assertAlmostEqual(m["total_goodput_mbps"], 3.0)
        self.assertAlmostEqual(m["power"], 3.0 / 0.03)
        self.assertAlmostEqual(m["jain"], 9 / (2 * 5))


SWEEP = os.path.join(os.path.dirname(SCEN), "tcpnc-loss-sweep.yaml")


class NamedVariants(unittest.TestCase):
    """Named variants (kind + parameters), derived parameters and the openvpn-tcp plan."""

    def test_named_variants_set_the_flow_cc_and_kind(self):
        runs = scenario.expand(scenario.load(SWEEP), {"sweep_values": [0.1]})
        got = {(r["case"], r["variant"]): r for r in runs}
        self.assertEqual(len(runs), 2 * 5)
        self.assertEqual(got[("random", "e2e-reno")]["kind"], "e2e")
        self.assertEqual(got[("random", "e2e-reno")]["body"]["flows"][0]["cc"], "reno")
        self.assertEqual(got[("random", "e2e-cubic")]["body"]["flows"][0]["cc"], "cubic")
        self.assertEqual(got[("random", "tcpnc")]["kind"], "tunnel")
        self.assertEqual(got[("random", "openvpn-tcp-reno")]["kind"], "openvpn-tcp")
        self.assertEqual(got[("random", "openvpn-tcp-reno")]["body"]["openvpn"]["outer_cc"], "reno")
        self.assertEqual(got[("random", "tcpnc")]["body"]["links"][1]["a2b"], "loss=bernoulli:0.1")

    def test_gilbert_parameters_give_the_swept_loss_rate(self):
        r = scenario.expand(scenario.load(SWEEP), {"sweep_values": [0.15], "cases": ["bursty"],
                                                   "variants": ["e2e-cubic"]})[0]
        spec = r["body"]["links"][1]["a2b"].split(":", 1)[1]
        kv = dict(x.split("=") for x in spec.split(","))
        p, rr = float(kv["p"]), float(kv["r"])
        self.assertAlmostEqual(p / (p + rr), 0.15)
        self.assertAlmostEqual(1 / rr, 3.0)

    def test_parameter_arithmetic_is_numbers_only(self):
        self.assertEqual(scenario.resolve_params({"a": 2, "b": "=${a} * 3"})["b"], 6)
        with self.assertRaises(scenario.ScenarioError):
            scenario.arith("__import__('os')")

    def test_unknown_variant_is_rejected(self):
        with self.assertRaises(scenario.ScenarioError):
            scenario.expand(scenario.load(SWEEP), {"variants": ["nope"]})

    def test_unknown_top_level_key_is_rejected(self):
        sc = scenario.load(SWEEP)
        scenario.validate(sc)
        sc["tcpnc"] = {"retransmission_target": 1.0}  # belongs under `gateway:`
        with self.assertRaisesRegex(scenario.ScenarioError, "unknown top-level key 'tcpnc'"):
            scenario.validate(sc)

    def test_openvpn_roles_and_command(self):
        p = openvpn.plan([{"a": "gw1", "b": "gw2"}], {"tun_mtu": 1400})[0]
        srv = openvpn.args(p, "gw1", "192.168.1.2", "192.168.1.2", "/k")
        cli = openvpn.args(p, "gw2", "192.168.1.2", "192.168.1.2", "/k")
        self.assertIn("tcp-server", srv)
        self.assertIn("tcp-client", cli)
        self.assertEqual(cli[cli.index("--remote") + 1], "192.168.1.2")
        self.assertEqual(srv[srv.index("--ifconfig") + 1:srv.index("--ifconfig") + 3],
                         ["10.98.0.1", "10.98.0.2"])
        for a in (srv, cli):
            self.assertEqual(a[a.index("--cipher") + 1], "none")
            self.assertEqual(a[a.index("--tun-mtu") + 1], "1400")


class FlowResults(unittest.TestCase):
    """A TCP flow is measured from the client's JSON even when the one-shot server's file is empty
    (it once turned a paper002 point into an error); a UDP flow needs the server's counts."""

    CLIENT = {"end": {"sum_received": {"bits_per_second": 8.5e6, "bytes": 21250000, "seconds": 20.0},
                      "sum_sent": {"retransmits": 0},
                      "streams": [{"sender": {"mean_rtt": 50000, "min_rtt": 20000, "max_rtt": 90000}}]}}

    def result(self, kind):
        t = object.__new__(traffic.Traffic)
        t.run_dir = tempfile.mkdtemp()
        f = {"name": "f1", "type": kind, "from": "h1", "to": "h2", "start": 0, "duration": 20}
        t.flows = [f]
        with open(t._path(f, "out"), "w") as fh:
            json.dump(self.CLIENT, fh)
        open(t._path(f, "server.json"), "w").close()  # empty, as iperf3 sometimes leaves it
        return t.results()[0]

    def test_tcp_flow_ignores_an_empty_server_file(self):
        r = self.result("tcp")
        self.assertNotIn("error", r)
        self.assertEqual(r["goodput_bps"], 8.5e6)
        self.assertAlmostEqual(r["mean_rtt_ms"], 50.0)

    def test_udp_flow_with_an_empty_server_file_is_an_error(self):
        self.assertIn("error", self.result("udp"))


class HttpFlow(unittest.TestCase):
    def test_sizes(self):
        self.assertEqual(traffic.parse_size("10MiB"), 10 * 1024 * 1024)
        self.assertEqual(traffic.parse_size("2M"), 2000000)
        self.assertEqual(traffic.parse_size(1000), 1000)
        with self.assertRaises(ValueError):
            traffic.parse_size("ten")

    def test_goodput_counts_the_transfer_from_the_request_on(self):
        r = traffic.parse_http("0.020 0.050 1.020 1000000 200", 1000000, "ab", "ab",
                               {"rtt_samples_ms": [40, 60], "cc": "cubic"})
        self.assertAlmostEqual(r["goodput_bps"], 8e6)
        self.assertEqual(r["mean_rtt_ms"], 50)
        self.assertEqual(r["congestion"], "cubic")

    def test_a_corrupt_or_short_download_is_an_error(self):
        with self.assertRaises(RuntimeError):
            traffic.parse_http("0.02 0.05 1.02 1000000 200", 1000000, "ab", "cd", None)
        with self.assertRaises(RuntimeError):
            traffic.parse_http("0.02 0.05 1.02 999 200", 1000000, "ab", "ab", None)

    def test_repeated_downloads_give_completion_times(self):
        lines = ["0.02 0.05 0.30 1000 200", "0.02 0.05 0.10 1000 200", "0.02 0.05 0.20 1000 200", ""]
        r = traffic.parse_http_series(lines, 3, 1000, "ab", ["ab"] * 3, None)
        self.assertEqual(r["completion_ms"], [300.0, 100.0, 200.0])
        self.assertAlmostEqual(r["completion_median_ms"], 200.0)
        self.assertAlmostEqual(r["completion_p95_ms"], 300.0)
        self.assertAlmostEqual(r["goodput_bps"], 8 * 3000 / (0.28 + 0.08 + 0.18))
        with self.assertRaises(RuntimeError):  # one download missing
            traffic.parse_http_series(lines[:2], 3, 1000, "ab", ["ab"] * 3, None)
        with self.assertRaises(RuntimeError):  # one download corrupt
            traffic.parse_http_series(lines, 3, 1000, "ab", ["ab", "cd", "ab"], None)

    def test_ping_percentile_and_unanswered_share(self):
        text = "".join(f"64 bytes from 10.2.0.2: icmp_seq={i} ttl=62 time={t} ms\n"
                       for i, t in enumerate([60.0] * 18 + [120.0, 200.0], 1))
        r = traffic.parse_ping(text + "25 packets transmitted, 20 received, 20% packet loss\n")
        self.assertEqual(r["rtt_p95_ms"], 120.0)
        self.assertEqual(r["rtt_median_ms"], 60.0)
        self.assertAlmostEqual(r["lost_pct"], 20.0)

    def test_random_file_hash(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "f")
            sha = traffic.write_random_file(path, 3 * 1024 * 1024 + 5)
            self.assertEqual(os.path.getsize(path), 3 * 1024 * 1024 + 5)
            self.assertEqual(traffic.sha256_of(path), sha)


def _iperf_client(kind, intervals, sent_packets=100):
    """A minimal iperf3 client JSON with the server output fetched (--get-server-output); the
    server's end summary says bytes 0, as iperf3 3.12's UDP server writes it."""
    ivs = [{"sum": {"start": a, "end": b, "bytes": n, "bits_per_second": 8 * n / (b - a),
                    "packets": 10, "lost_packets": 1}} for a, b, n in intervals]
    return {"end": {"sum": {"packets": sent_packets, "end": intervals[-1][1]},
                    "sum_sent": {"end": intervals[-1][1]},
                    "sum_received": {"bits_per_second": 1.0, "bytes": 1}, "streams": [{"sender": {}}]},
            "server_output_json": {"intervals": ivs, "end": {"sum": {"bytes": 0, "bits_per_second": 0,
                                                                      "jitter_ms": 0.1}}}}


class ReceiverSeries(unittest.TestCase):
    def test_udp_goodput_from_the_receivers_intervals_not_its_zero_summary(self):
        c = _iperf_client("udp", [(0, 1, 1_000_000), (1, 2, 500_000)])
        r = traffic.parse_iperf(c, None, "udp")
        self.assertAlmostEqual(r["goodput_bps"], 6e6)
        self.assertEqual(r["datagrams_lost"], 2)
        self.assertEqual(r["series"], [[0, 1, 8e6], [1, 2, 4e6]])

    def test_late_test_is_anchored_at_its_real_start(self):
        c = _iperf_client("tcp", [(0, 1, 1), (1, 2, 1)])
        self.assertEqual(traffic.test_start({"_started_at": 5.0, "_exited_at": 12.0}, c), 10.0)
        self.assertEqual(traffic.test_start({"_started_at": 5.0, "_exited_at": 6.5}, c), 5.0)


class TimeSeries(unittest.TestCase):
    def flows(self):
        """A TCP flow 0-10 s at 6 Mbit/s, then 4 from 4 s; a UDP flow 3-10 s at 4; a TCP flow
        scheduled at 2 s whose test never ran (error); a ping every 0.5 s, RTT 20 ms."""
        tcp = [[t, t + 1, 6e6 if t < 4 else 4e6] for t in range(10)]
        udp = [[t, t + 1, 4e6] for t in range(3, 10)]
        return [{"name": "t1", "type": "tcp", "started_at": 0, "test_start": 0, "duration": 10, "series": tcp},
                {"name": "u1", "type": "udp", "started_at": 3, "test_start": 3, "duration": 7, "bitrate": "20M",
                 "series": udp},
                {"name": "t2", "type": "tcp", "started_at": 2, "duration": 8, "error": "starved"},
                {"name": "p", "type": "ping", "started_at": 0, "interval": 0.5,
                 "rtt_seq": list(range(1, 21)), "rtt_ms": [20.0] * 20}]

    def test_per_second_jain_counts_a_failed_flow_as_zero(self):
        rows = timeseries.run_series(self.flows())
        r5 = rows[5]
        self.assertEqual(sorted(r5["active"]), ["t1", "t2", "u1"])
        self.assertEqual(r5["flows"]["t2"], 0.0)
        self.assertAlmostEqual(r5["jain"], (4 + 4) ** 2 / (3 * (16 + 16)))
        self.assertAlmostEqual(r5["power"], 8 / 0.020)

    def test_a_flow_starting_inside_a_second_counts_from_that_second(self):
        # Scheduled at 3.04 s, its test began at 3.25 s: its first interval [3.25, 4.25] is
        # floored into second 3, where the flow must count as active (not be dropped).
        late = {"name": "t3", "type": "tcp", "started_at": 3.04, "test_start": 3.25, "duration": 5,
                "series": [[3.25 + k, 4.25 + k, 2e6] for k in range(5)]}
        rows = timeseries.run_series(self.flows()[:1] + [late])
        self.assertNotIn("t3", rows[2]["active"])
        self.assertIn("t3", rows[3]["active"])
        self.assertAlmostEqual(rows[3]["flows"]["t3"], 2.0)
        self.assertAlmostEqual(rows[3]["total"], 6.0 + 2.0)

    def test_max_min_shares(self):
        s = timeseries.max_min_shares(20, {"a": None, "b": None, "u": 2})
        self.assertEqual(s, {"u": 2, "a": 9, "b": 9})

    def test_window_goals(self):
        fl = self.flows()
        w = timeseries.window_goals(fl, timeseries.run_series(fl), 12, 1)
        self.assertEqual(w["window_s"], [4, 8])
        self.assertAlmostEqual(w["utilisation"], 8 / 12)
        self.assertAlmostEqual(w["tcp_share_ratio"]["t1"], 1.0)   # 4 of 12 / 3
        self.assertAlmostEqual(w["min_tcp_share_ratio"], 0.0)     # t2 starved


# Two `ss -tinHO` lines as iproute2 6.1 prints them: iperf3's control connection and its data
# connection (more bytes acknowledged).
_SS_CONTROL = ("0 0 10.1.0.2:40000 10.2.0.2:5201 cubic wscale:7,7 rto:264 rtt:63.5/1.2 mss:1300 "
               "cwnd:10 bytes_acked:160 busy:20ms")
_SS_DATA = ("0 2600000 10.1.0.2:40002 10.2.0.2:5201 cubic wscale:7,7 rto:268 rtt:70.1/1.1 ato:40 "
            "mss:1300 pmtu:1500 cwnd:1154 ssthresh:900 bytes_sent:99000000 bytes_acked:98000000 "
            "send 171Mbps pacing_rate 205Mbps delivery_rate 126Mbps busy:9000ms rwnd_limited:90ms(1.0%) "
            "sndbuf_limited:4500ms(50.0%) unacked:900 retrans:0/460 notsent:2600000 minrtt:60.2 "
            "snd_wnd:8224768")


class SenderSamples(unittest.TestCase):
    def test_fields_of_one_line(self):
        p = tcp_sampler.parse_ss_line(_SS_DATA)
        self.assertEqual(p["sock"], "10.1.0.2:40002")
        self.assertEqual(p["cwnd"], 1154)
        self.assertEqual(p["unacked"], 900)
        self.assertAlmostEqual(p["rtt_ms"], 70.1)
        self.assertEqual(p["busy_ms"], 9000)
        self.assertEqual(p["rwnd_limited_ms"], 90)
        self.assertEqual(p["sndbuf_limited_ms"], 4500)
        self.assertEqual(p["retrans_total"], 460)
        self.assertEqual(p["notsent"], 2600000)
        self.assertEqual(p["snd_wnd"], 8224768)
        self.assertNotIn("bbr_bw_mbps", p)

    def test_bbr_estimates(self):
        p = tcp_sampler.parse_ss_line("0 0 a:1 b:2 bbr wscale:7,7 cwnd:80 bytes_acked:9 "
                                      "bbr:(bw:9123456bps,mrtt:60.412,pacing_gain:1,cwnd_gain:2) unacked:80")
        self.assertAlmostEqual(p["bbr_bw_mbps"], 9.123)
        self.assertAlmostEqual(p["bbr_min_rtt_ms"], 60.412)

    def test_data_connection_is_the_one_with_most_acknowledged(self):
        self.assertEqual(tcp_sampler.data_connection([_SS_CONTROL, _SS_DATA, ""])["cwnd"], 1154)
        self.assertIsNone(tcp_sampler.data_connection(["", "garbage"]))

    def test_limits_from_cumulative_counters_and_full_windows(self):
        samples = [{"cwnd": 100, "unacked": 100, "busy_ms": 1000},
                   {"cwnd": 200, "unacked": 150, "busy_ms": 2000, "rwnd_limited_ms": 100,
                    "sndbuf_limited_ms": 500}]
        control = {"sock": "10.1.0.2:40000", "cwnd": 10, "unacked": 0, "busy_ms": 20, "bytes_acked": 160}
        for s in samples:
            s.update({"sock": "10.1.0.2:40002", "bytes_acked": 1000 * s["busy_ms"]})
        lim = tcp_sampler.sender_limits(samples + [control])  # the data connection closed first
        self.assertEqual(lim["samples"], 2)
        self.assertEqual(lim["busy_ms"], 2000)
        self.assertAlmostEqual(lim["rwnd_limited_share"], 0.05)
        self.assertAlmostEqual(lim["sndbuf_limited_share"], 0.25)
        self.assertAlmostEqual(lim["cwnd_full_share"], 0.5)
        self.assertIsNone(tcp_sampler.sender_limits([]))


if __name__ == "__main__":
    unittest.main()
