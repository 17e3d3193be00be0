#!/usr/bin/env python3
"""Summarises bench/hash/run's measurements as a Markdown table (paste into docs/BENCHMARKS.md)."""
import glob
import json
import os
import platform
import subprocess
import sys

results, jobs, zips = sys.argv[1], int(sys.argv[2]), sys.argv[3:]


def load(name):
    path = os.path.join(results, name + ".json")
    return json.load(open(path)) if os.path.exists(path) else None


def best(prefix):
    runs = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(results, prefix + "-[0-9].json")))]
    return min(runs, key=lambda r: r.get("wall", r.get("seconds"))) if runs else None


compressed = sum(os.path.getsize(z) for z in zips)
uncompressed = 0
try:
    import zipfile
    for z in zips:
        uncompressed += sum(i.file_size for i in zipfile.ZipFile(z).infolist())
except Exception:
    pass

base = load("baseline")
ours = best("provender")
zlib_run = load("provender-zlib")
one = load("provender-1job")
limit = best("limit")
tf = best("terraform")

cpu = subprocess.run(["sh", "-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], capture_output=True, text=True).stdout.strip()
print(f"Machine: {cpu or platform.processor()}, {os.cpu_count()} cores; --jobs {jobs}")
load_avg = os.getloadavg()[0]
print(f"Load average at the end: {load_avg:.2f} (other work on the machine inflates wall times; CPU seconds are robust)")
print(f"Archives: {len(zips)} x ~{uncompressed / len(zips) / 2**20:.0f} MiB uncompressed, "
      f"{compressed / 2**20:.0f} MiB on disk in total (ratio {uncompressed / compressed:.2f}x)\n")
print("| run | wall s | CPU s | cores busy | peak RSS MiB | wall vs terraform | CPU vs terraform | wall vs limit | CPU vs limit |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")


def cpu_of(r):
    return r["cpu"] if "cpu" in r else r.get("user", 0) + r.get("sys", 0)


def row(label, r, wall=None):
    wall = wall if wall is not None else r["wall"]
    cpu_s = cpu_of(r)
    busy = f"{cpu_s / wall:.2f}" if cpu_s else "—"
    rss = f"{r['maxrss_kib'] / 1024:.1f}" if "maxrss_kib" in r else "—"
    vs_tf = f"{tf['wall'] / wall:.1f}x faster" if tf else "—"
    cpu_tf = f"{cpu_of(tf) / cpu_s:.1f}x less" if tf and cpu_s else "—"
    vs_limit = f"{wall / limit['seconds']:.2f}x" if limit else "—"
    cpu_limit = f"{cpu_s / limit['cpu']:.2f}x" if limit and cpu_s and limit.get("cpu") else "—"
    print(f"| {label} | {wall:.2f} | {cpu_s:.2f} | {busy} | {rss} | {vs_tf} | {cpu_tf} | {vs_limit} | {cpu_limit} |")


if ours:
    row("`provender hash` (ISA-L)", ours)
if zlib_run:
    row("`provender hash` (zlib)", zlib_run)
if one:
    row("`provender hash --jobs 1`", one)
if limit:
    row("limit loop (ISA-L + OpenSSL, mmap)", limit, limit["seconds"])
if tf:
    row("`terraform providers lock -fs-mirror`", tf)
if base:
    print(f"\nProcess baseline (`provender hash` on a 1 MiB zip): peak RSS {base['maxrss_kib'] / 1024:.1f} MiB; "
          f"growth while hashing the 4 archives: {(ours['maxrss_kib'] - base['maxrss_kib']) / 1024:.1f} MiB")
if ours and tf and limit:
    speed = tf["wall"] / ours["wall"]
    print(f"\nTargets: >=5x terraform: {'met' if speed >= 5 else 'NOT met'} ({speed:.1f}x); "
          f"within 1.5x of the limit: {'met' if ours['wall'] <= 1.5 * limit['seconds'] else 'NOT met'} "
          f"({ours['wall'] / limit['seconds']:.2f}x); peak growth < 64 MiB: "
          f"{'met' if base and ours['maxrss_kib'] - base['maxrss_kib'] < 64 * 1024 else 'NOT met'}")
