#!/usr/bin/env python3
"""Writes two provider zips of exactly the same size whose contents differ (entries STORED, same
names and lengths, other bytes), with Python's zipfile/hashlib — independent of Provender — and
prints their h1:/zh: as JSON (tofu-formats.md §3, the same rules as make_fixture.py).

usage: same_size_zips.py OUT_A OUT_B
"""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_fixture import h1  # noqa: E402
import zipfile  # noqa: E402


def write(path, fill):
    entries = [
        ("terraform-provider-tamper_v1.0.0_x5", bytes([fill]) * 30000),
        ("LICENSE", b"same size, other bytes: %c\n" % fill),
    ]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for name, data in entries:
            z.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 2, 3, 4, 5)), data, zipfile.ZIP_STORED)
    with open(path, "rb") as f:
        data = f.read()
    return {"path": path, "size": len(data), "h1": h1(entries), "h1zip": h1(entries), "zh": "zh:" + hashlib.sha256(data).hexdigest()}


def main():
    a = write(sys.argv[1], ord("a"))
    b = write(sys.argv[2], ord("b"))
    assert a["size"] == b["size"], (a["size"], b["size"])
    assert a["h1"] != b["h1"]
    json.dump({"a": a, "b": b}, sys.stdout)


if __name__ == "__main__":
    main()
