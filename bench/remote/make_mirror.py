#!/usr/bin/env python3
# bench/remote: a network mirror for the benchmark.
#   example.com/idx/pNNNN  N providers, each index.json listing 1.0.0 and a 1.0.0.json with no
#                          archives (index fetch rate: 2 JSON requests per provider, no download)
#   example.com/bench/big  1.0.0 with ARCHIVES zips of MIB MiB each (stored: the payload is
#                          incompressible), zh: declared (archive verify throughput)
# Writes urls-index.txt and urls-archives.txt (paths, one a line) next to the mirror.
import hashlib, json, os, sys, zipfile
root, providers, archives, mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
index_paths, archive_paths = [], []
for i in range(providers):
    d = os.path.join(root, 'example.com', 'idx', 'p%04d' % i)
    os.makedirs(d, exist_ok=True)
    json.dump({'versions': {'1.0.0': {}}}, open(os.path.join(d, 'index.json'), 'w'))
    json.dump({'archives': {}}, open(os.path.join(d, '1.0.0.json'), 'w'))
    index_paths += ['example.com/idx/p%04d/index.json' % i, 'example.com/idx/p%04d/1.0.0.json' % i]
big = os.path.join(root, 'example.com', 'bench', 'big')
os.makedirs(big, exist_ok=True)
plats = ['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64', 'windows_amd64', 'freebsd_amd64', 'openbsd_amd64', 'linux_386']
entries = {}
for n in range(archives):
    plat = plats[n % len(plats)]
    name = 'terraform-provider-big_1.0.0_%s.zip' % plat
    path = os.path.join(big, name)
    block = hashlib.sha256(plat.encode()).digest() * 2048  # 64 KiB seed, expanded by hashing
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_STORED) as z:
        with z.open('terraform-provider-big_v1.0.0', 'w', force_zip64=True) as f:
            seed = plat.encode()
            for _ in range(mib * 16):  # 16 x 64 KiB per MiB
                seed = hashlib.sha256(seed).digest()
                f.write(hashlib.shake_256(seed).digest(65536))
    zh = 'zh:' + hashlib.sha256(open(path, 'rb').read()).hexdigest()
    entries[plat] = {'url': name, 'hashes': [zh]}
    archive_paths.append('example.com/bench/big/' + name)
json.dump({'versions': {'1.0.0': {}}}, open(os.path.join(big, 'index.json'), 'w'))
json.dump({'archives': entries}, open(os.path.join(big, '1.0.0.json'), 'w'))
parent = os.path.dirname(os.path.abspath(root))
open(os.path.join(parent, 'urls-index.txt'), 'w').write('\n'.join(index_paths) + '\n')
open(os.path.join(parent, 'urls-archives.txt'), 'w').write('\n'.join(archive_paths) + '\n')
