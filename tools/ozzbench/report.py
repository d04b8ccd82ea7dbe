#!/usr/bin/env python3
"""Final table for run.sh: medians of CPU time over repetitions, ratios rigview/ozz."""
import json
import sys


def medians(path):
    out = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") == "median" or b.get("run_type") == "iteration" and b["name"] not in out:
            name = b.get("run_name", b["name"]).split("_median")[0]
            unit = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            out[name] = b["cpu_time"] * unit  # ns
    return out


args = sys.argv[1:]
native = None
if "--native" in args:
    i = args.index("--native")
    native = medians(args[i + 1])
    del args[i:i + 2]
res = medians(args[0])
side = json.load(open(args[1]))
VERTS = 100000


def mvps(ns):
    return VERTS / ns * 1e3


print()
print(f"ozz math in the harness/libs: {side['ozz_simd']}; figures are medians of CPU time")
hdr = f"{'Skinning 100k verts, 64 joints':36} {'rigview Mv/s':>12} {'ozz Mv/s':>10} {'rig/ozz':>8} {'ozz x faster':>12}"
if native:
    hdr += f" {'ozz native':>10} {'rig/ozzN':>8}"
print(hdr)
headline = {}
rows = [("P4 LBS (rig: positions kernel)", "Skin/P4/rigview_lbs_point", "Skin/P4/ozz"),
        ("P4 DQS (rig) vs ozz LBS", "Skin/P4/rigview_dqs_point", "Skin/P4/ozz"),
        ("PN4 LBS vs ozz", "Skin/PN4/rigview_lbs", "Skin/PN4/ozz"),
        ("PN4 LBS vs ozz IT-matrices", "Skin/PN4/rigview_lbs", "Skin/PN4/ozz_it"),
        ("PN4 DQS (rig) vs ozz LBS", "Skin/PN4/rigview_dqs", "Skin/PN4/ozz"),
        ("PN8 LBS vs ozz", "Skin/PN8/rigview_lbs", "Skin/PN8/ozz"),
        ("PN8 LBS vs ozz IT-matrices", "Skin/PN8/rigview_lbs", "Skin/PN8/ozz_it"),
        ("PN8 DQS (rig) vs ozz LBS", "Skin/PN8/rigview_dqs", "Skin/PN8/ozz")]
for label, r, o in rows:
    if r not in res or o not in res:
        continue
    rv, ov = mvps(res[r]), mvps(res[o])
    line = f"{label:36} {rv:12.1f} {ov:10.1f} {rv / ov:8.2f} {ov / rv:11.1f}x"
    if native and o in native:
        nv = mvps(native[o])
        line += f" {nv:10.1f} {rv / nv:8.2f}"
    print(line)
    headline.setdefault(label.split()[0] + label.split()[1], rv / ov)

print()
hdr = f"{'Per-frame update (palette)':36} {'rig Char':>9} {'rig jobs':>9} {'ozz ns':>8} {'Char/ozz':>8} {'jobs/ozz':>8}"
if native:
    hdr += f" {'ozzN ns':>8} {'rig/ozzN':>8}"
print(hdr)
frames = {}
for name in sorted({k.split("/")[1] for k in res if k.startswith("Anim/")},
                   key=lambda n: (not n.startswith("Fox"), len(n))):
    # rigview_animator: Character::evaluate + LBS palette; rigview_nodq: the same jobs by hand
    # (what tests/bench/skinning_speed_bench.cpp times).
    r, d, o = (res.get(f"Anim/{name}/{s}") for s in ("rigview_animator", "rigview_nodq", "ozz"))
    if not (r and d and o):
        continue
    frames[name] = r / o
    line = f"{name:36} {r:9.0f} {d:9.0f} {o:8.0f} {r / o:8.2f} {d / o:8.2f}"
    if native and f"Anim/{name}/ozz" in native:
        n = native[f"Anim/{name}/ozz"]
        line += f" {n:8.0f} {r / n:8.2f}"
    print(line)

print()
print(f"{'Fox clip size (bytes)':22} {'glTF keys':>10} {'ozz opt':>8} {'(mem)':>7} {'glTF/ozz':>9} {'ozz noopt':>10} {'glTF/noopt':>10}")
ratios = []
comp = {}
for c in side["compression"]:
    comp.setdefault(c["clip"], {})["opt" if c["ozz_optimize"] else "noopt"] = c
for clip, v in comp.items():
    o, n = v.get("opt"), v.get("noopt")
    if not o:
        continue
    raw = o["gltf_key_bytes"]
    ratios.append(raw / o["ozz_file_bytes"])
    line = f"{clip:22} {raw:10d} {o['ozz_file_bytes']:8d} {o['ozz_memory_bytes']:7d} {raw / o['ozz_file_bytes']:9.2f}"
    if n:
        line += f" {n['ozz_file_bytes']:10d} {raw / n['ozz_file_bytes']:10.2f}"
    print(line)

print()
for c in side["anim_checks"]:
    print(f"check {c['case']}: rigview nodes {c['rig_nodes']} / ozz joints {c['ozz_joints']} / palette "
          f"{c['skin_joints']}; palette max diff 3x3 {c['max_diff_3x3']:.1e}, translation "
          f"{c['max_diff_translation']:.1e} of max {c['max_translation']:.3g} (ozz keys are quantized/optimized); "
          f"palette max|MtM-I| {c.get('palette_nonrigid', float('nan')):.1e}")
for c in side["skin_checks"]:
    print(f"check skin {c['influences']} infl vs ozz {'IT' if c['ozz_it'] else 'NOIT'}: positions max diff "
          f"{c['max_dp']:.1e}; normals differ by mean {c['normal_angle_mean_deg']:.2f} deg "
          f"({c['normals_over_1deg_pct']:.1f}% > 1 deg): rigview uses the inverse transpose of the blended matrix")

lbs = headline.get("PN4LBS")
fw = frames.get("FoxWalk")
fb = frames.get("FoxWalkRun50")
summary = "SUMMARY rigview/ozz:"
if lbs:
    summary += f" PN4 LBS throughput {lbs:.2f} (ozz {1 / lbs:.1f}x faster);"
if fw:
    summary += f" Fox Walk frame time {fw:.1f}x;"
if fb:
    summary += f" Fox Walk+Run blend {fb:.1f}x;"
if ratios:
    summary += f" Fox clips glTF/ozz size {min(ratios):.1f}-{max(ratios):.1f}x"
print(summary)
