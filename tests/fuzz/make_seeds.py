#!/usr/bin/env python3
"""Seeds for the fuzz targets from the shared corpus: each .glb up to 256 KiB as it is, and each
.gltf made self-contained (external buffers and images inlined as data: URIs) when the result is
up to 256 KiB. Usage: make_seeds.py CORPUS_DIR OUT_DIR"""
import base64, json, os, shutil, sys

LIMIT = 256 * 1024
corpus, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
for folder, _, files in os.walk(corpus):
    for name in sorted(files):
        path = os.path.join(folder, name)
        seed = os.path.join(out, "seed_" + os.path.relpath(path, corpus).replace("/", "_"))
        if name.endswith(".glb") and os.path.getsize(path) <= LIMIT:
            shutil.copyfile(path, seed)
        elif name.endswith(".gltf"):
            try:
                doc = json.load(open(path, encoding="utf-8"))
                for item in doc.get("buffers", []) + doc.get("images", []):
                    uri = item.get("uri")
                    if uri and not uri.startswith("data:"):
                        data = open(os.path.join(folder, uri.replace("%20", " ")), "rb").read()
                        item["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
                text = json.dumps(doc)
            except (OSError, ValueError):
                continue
            if len(text) <= LIMIT:
                open(seed, "w").write(text)
