#!/usr/bin/env python3
"""Copy a .tar.gz bundle with one byte of one member flipped, written with Python's tarfile only.

  rebundle.py IN OUT MEMBER OFFSET [--fix-sums]

MEMBER is the entry name (as the bundle lists it); the byte at OFFSET (negative: from the end) is
XORed with 0x01. --fix-sums also rewrites the member's line of the bundle's own SHA256SUMS with
hashlib's SHA-256 of the new bytes, so that only a check *beyond* the bundle's own sums (the
signature over a release's SHA256SUMS) can catch the change. Entry order, names, modes and times
are kept. Prints JSON {"old": hex, "new": hex} (SHA-256 of the member before and after).
"""
import hashlib
import io
import json
import sys
import tarfile


def main():
    src, dst, member, offset = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    fix = "--fix-sums" in sys.argv[5:]
    entries = []
    with tarfile.open(src, "r:gz") as tin:
        for info in tin.getmembers():
            data = tin.extractfile(info).read() if info.isfile() else None
            entries.append((info, data))
    names = [i.name for i, _ in entries]
    if member not in names:
        sys.exit("no member %s in %s" % (member, src))
    old = new = None
    out = []
    for info, data in entries:
        if info.name == member:
            b = bytearray(data)
            b[offset] ^= 0x01
            old, new = hashlib.sha256(data).hexdigest(), hashlib.sha256(bytes(b)).hexdigest()
            data = bytes(b)
        out.append((info, data))
    if fix:
        fixed = []
        for info, data in out:
            if info.name == "SHA256SUMS":
                lines = data.decode().splitlines(True)
                rewritten = []
                for line in lines:
                    digest, name = line.rstrip("\n").split("  ", 1)
                    rewritten.append("%s  %s\n" % (new if name == member else digest, name))
                data = "".join(rewritten).encode()
                info.size = len(data)
            fixed.append((info, data))
        out = fixed
    with tarfile.open(dst, "w:gz") as tout:
        for info, data in out:
            if data is None:
                tout.addfile(info)
            else:
                info.size = len(data)
                tout.addfile(info, io.BytesIO(data))
    print(json.dumps({"old": old, "new": new}))


if __name__ == "__main__":
    main()
