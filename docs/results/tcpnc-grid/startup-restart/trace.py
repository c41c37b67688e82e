#!/usr/bin/python3
# trace.py STATUS.jsonl [every]: per sample: t, mode, bw, pacing, restarts, input rate, entrance waits, spare plan
import json, sys
every = int(sys.argv[2]) if len(sys.argv) > 2 else 5
for i, line in enumerate(open(sys.argv[1])):
    if i % every: continue
    j = json.loads(line); c = j['status']['peers'][0]['core']
    print(f"{j['t_s']:6.1f} mode {c['bbr_mode']:.0f} bw {c['bbr_bw_pps']:7.0f} pace {c['bbr_pacing_rate_pps']:7.0f} "
          f"rst {c.get('bbr_startup_restarts',0):.0f} in {c['input_rate_pps']:7.0f} acc {c['accepted']:8.0f} "
          f"lw {c['entrance_long_waits']:5.0f} wait {c['entrance_wait_ms_total']:9.0f} spare {c.get('spare_plan',0):.0f} "
          f"qs {c['bbr_queue_standing']:.0f} minrtt {c['bbr_min_rtt_ms']:.1f}")
