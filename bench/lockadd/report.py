#!/usr/bin/env python3
"""Summarises bench/lockadd/run's measurements as Markdown (paste into docs/BENCHMARKS.md)."""
import glob
import json
import os
import statistics
import subprocess
import sys
import zipfile

results, jobs, zips = sys.argv[1], int(sys.argv[2]), sys.argv[3:]


def runs(prefix):
    out = []
    for p in sorted(glob.glob(os.path.join(results, prefix + "-[0-9]*.json"))):
        d = json.load(open(p))
        d["name"] = os.path.basename(p)[:-5]
        out.append(d)
    return out


def wall(r):
    return r.get("wall", r.get("seconds"))


def cpu(r):
    return r["cpu"] if "cpu" in r else r.get("user", 0) + r.get("sys", 0)


def best(prefix):
    rs = runs(prefix)
    return min(rs, key=wall) if rs else None


def median_wall(prefix):
    rs = runs(prefix)
    return statistics.median(wall(r) for r in rs) if rs else None


compressed = sum(os.path.getsize(z) for z in zips)
uncompressed = sum(sum(i.file_size for i in zipfile.ZipFile(z).infolist()) for z in zips)
cpu_name = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True,
                          text=True).stdout.strip()
print(f"Machine: {cpu_name}, {os.cpu_count()} cores; provender --jobs default ({jobs})")
print(f"Packages: {len(zips)} zips (4 providers x 4 platforms), {compressed / len(zips) / 2**20:.0f} MiB each on disk, "
      f"{uncompressed / len(zips) / 2**20:.0f} MiB uncompressed; {compressed / 2**20:.0f} MiB in total\n")

tf = best("terraform")
base = json.load(open(os.path.join(results, "baseline.json")))
kinds = [
    ("terraform", "`terraform providers lock -fs-mirror`"),
    ("cold", "`provender lock add-hashes`, cold cache"),
    ("nocache", "`provender lock add-hashes --no-cache`"),
    ("warm", "`provender lock add-hashes`, warm cache"),
    ("hash", "`provender hash --no-cache` (same 16 zips)"),
    ("limit", "limit loop (ISA-L + OpenSSL, mmap)"),
]
print("| run | best wall s | median wall s | CPU s (best) | cores busy | peak RSS MiB | vs terraform (best/best) | load (1 min) during |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
for key, label in kinds:
    r = best(key)
    if not r:
        continue
    w = wall(r)
    c = cpu(r)
    rss = f"{r['maxrss_kib'] / 1024:.1f}" if "maxrss_kib" in r else "—"
    ratio = f"{wall(tf) / w:.1f}x" if tf and key != "terraform" else "—"
    loads = [x["load_before"][0] for x in runs(key) if "load_before" in x] + [x["load_after"][0] for x in runs(key) if "load_after" in x]
    load = f"{min(loads):.2f}–{max(loads):.2f}" if loads else "—"
    busy = f"{c / w:.2f}" if c else "—"
    print(f"| {label} | {w:.2f} | {median_wall(key):.2f} | {c:.2f} | {busy} | {rss} | {ratio} | {load} |")

print(f"\nProcess baseline (`provender lock add-hashes --no-cache` on one 1 MiB zip): peak RSS {base['maxrss_kib'] / 1024:.1f} MiB")
peak = max(r["maxrss_kib"] for k in ("cold", "warm", "nocache") for r in runs(k))
growth = (peak - base["maxrss_kib"]) / 1024
cold, warm = best("cold"), best("warm")
cold_ratio, warm_ratio = wall(tf) / wall(cold), wall(tf) / wall(warm)
hash_run, limit = best("hash"), best("limit")
print(f"Peak growth over the baseline across every add-hashes run: {growth:.1f} MiB\n")
print(f"Targets: cold >= 4x terraform: {'met' if cold_ratio >= 4 else 'NOT met'} ({cold_ratio:.1f}x); "
      f"warm >= 20x: {'met' if warm_ratio >= 20 else 'NOT met'} ({warm_ratio:.1f}x); "
      f"peak growth < 64 MiB: {'met' if growth < 64 else 'NOT met'} ({growth:.1f} MiB)")
if hash_run and limit:
    print(f"For scale: `provender hash` on the same zips is {wall(tf) / wall(hash_run):.1f}x terraform, the limit loop "
          f"{wall(tf) / wall(limit):.1f}x; cold add-hashes takes {wall(cold) / wall(hash_run):.2f}x `provender hash`'s wall time.")
la = os.getloadavg()
print(f"Load average at the end: {la[0]:.2f} {la[1]:.2f} {la[2]:.2f}")
