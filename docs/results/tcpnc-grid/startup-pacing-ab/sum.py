#!/usr/bin/python3
# Per variant, per binary: iperf3 and HTTP goodput of each repetition, then means.
import json, sys, glob, os, collections


def runs(root):
    """Yields (binary, run, flows by name) for every run under ROOT/<binary>-<repetition or case>."""
    for d in sorted(glob.glob(os.path.join(root, '*-*'))):
        try: j = json.load(open(os.path.join(d, 'results.json')))
        except Exception: continue
        for r in j['runs']:
            yield os.path.basename(d).split('-')[0], r, {x['name']: x for x in r['flows']}


def goodput(flows, name):
    """Mbit/s of one flow (0 if absent or failed)."""
    return (flows.get(name, {}).get('goodput_bps') or 0) / 1e6


def main():
    res = collections.defaultdict(lambda: collections.defaultdict(list))
    for b, r, f in runs(sys.argv[1]):
        res[r['variant']][b].append((goodput(f, 'tcp1'), goodput(f, 'http1'), f.get('tcp1', {}).get('retransmits'),
                                     f.get('tcp1', {}).get('mean_rtt_ms')))
    for v, bs in res.items():
        for b, xs in sorted(bs.items()):
            m = lambda i: sum(x[i] for x in xs) / len(xs)
            print(f"{v:14s} {b:5s} iperf3 " + " ".join(f"{x[0]:6.1f}" for x in xs) + f"  mean {m(0):6.1f} | http " +
                  " ".join(f"{x[1]:5.1f}" for x in xs) + f"  mean {m(1):5.1f} | retx " + " ".join(str(x[2]) for x in xs) +
                  " | rtt " + " ".join(f"{x[3]:.0f}" for x in xs if x[3]))


if __name__ == '__main__':
    main()
