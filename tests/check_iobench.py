#!/usr/bin/python3
"""`gale iobench` tests (docs/iobench.md).

usage: check_iobench.py MPIEXEC GALE WORKDIR MODE [NCDUMP]
  table   every pattern x API on 2 ranks with tiny sizes: sane numbers in the
          JSON and CSV (bytes = ranks * block * iterations, writers, files,
          positive rates, min <= mean <= max, no verify errors), the table
          printed, and the file directory removed afterwards
  sweeps  --sizes, --sweep writers, --sweep transfer, --sweep hints: one row per
          value with the value applied; --keep keeps files that ncdump reads
  badargs bad arguments: exit 2 on every rank, one message naming the option
"""
import csv
import json
import math
import os
import shutil
import subprocess
import sys

import ranks

mpiexec, gale, work, mode = sys.argv[1:5]
ncdump = sys.argv[5] if len(sys.argv) > 5 else "ncdump"
os.makedirs(work, exist_ok=True)
env = dict(os.environ, OMP_NUM_THREADS="1")


def run(np, args, timeout=120):
    return ranks.run_ranks(mpiexec, np, [gale, "iobench", *args], timeout, env=env)


def fail(msg, r=None):
    ranks.fail("check_iobench", msg, r)


def ok_run(args, np=2):
    r, codes = run(np, args)
    if r.returncode != 0 or set(codes.values()) != {0}:
        fail(f"iobench {args} failed (codes {codes})", r)
    return r


def check_row(row, ranks, block, iters, what):
    if row["bytes"] != ranks * block * iters:
        fail(f"{what}: bytes {row['bytes']} != {ranks} x {block} x {iters}")
    for k in ("write_s", "write_rate_MiB_s", "read_s", "read_rate_MiB_s"):
        v = row[k]
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            fail(f"{what}: {k} = {v}")
    # the rate is the definition's: bytes / 2^20 / time
    if abs(row["write_rate_MiB_s"] - row["bytes"] / 2**20 / row["write_s"]) > 1e-6 * row["write_rate_MiB_s"] + 1e-3:
        fail(f"{what}: write rate is not bytes / 2^20 / write_s")
    for k in ("rank_write_rate_MiB_s", "rank_read_rate_MiB_s"):
        m = row[k]
        if not (0 < m["min"] <= m["mean"] * (1 + 1e-12) and m["mean"] <= m["max"] * (1 + 1e-12)):
            fail(f"{what}: {k} = {m}")
    if row["verify_errors"] != 0:
        fail(f"{what}: {row['verify_errors']} words read back wrong")


if mode == "table":
    d, out = os.path.join(work, "table_files"), os.path.join(work, "table_out")
    shutil.rmtree(d, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    block, iters = 64 * 1024, 2
    r = ok_run(["--block", "64K", "--transfer", "16K", "--iterations", str(iters), "--dir", d,
                "--out", out])
    j = json.load(open(os.path.join(out, "iobench.json")))
    rows = j["rows"]
    if j["ranks"] != 2 or len(rows) != 12:
        fail(f"expected 12 rows on 2 ranks, got {len(rows)} on {j['ranks']}", r)
    want_writers = {"fpp": (2, 2), "shared": (2, 1), "aggregated": (1, 1)}  # one per node
    for row in rows:
        what = f"{row['pattern']}/{row['api']}"
        check_row(row, 2, block, iters, what)
        if (row["writers"], row["files"]) != want_writers[row["pattern"]]:
            fail(f"{what}: writers/files {row['writers']}/{row['files']}")
        if row["transfer_bytes"] != 16384 or row["block_bytes"] != block:
            fail(f"{what}: block/transfer {row['block_bytes']}/{row['transfer_bytes']}")
        if row["api"] in ("mpiio", "hdf5", "netcdf") and row["pattern"] != "fpp" and "cb_buffer_size=" not in row["hints_applied"]:
            fail(f"{what}: no MPI-IO hints reported: '{row['hints_applied']}'")
        if f"{row['pattern']:<10} {row['api']:<6}" not in r.stdout:
            fail(f"{what}: no table line", r)
    rows_csv = list(csv.DictReader(open(os.path.join(out, "iobench.csv"))))
    if len(rows_csv) != 12 or any(int(x["bytes"]) != 2 * block * iters for x in rows_csv):
        fail("CSV rows do not match")
    if "netCDF-4 layout" not in r.stdout:
        fail("the output does not say what the netcdf API is", r)
    if os.path.exists(d):
        fail(f"{d} left behind: {os.listdir(d)}")
    print(f"check_iobench table: 12 rows, e.g. shared/mpiio {rows[5]['write_rate_MiB_s']:.1f} MiB/s")

elif mode == "sweeps":
    d, out = os.path.join(work, "sweep_files"), os.path.join(work, "sweep_out")
    shutil.rmtree(d, ignore_errors=True)

    def sweep(args):
        shutil.rmtree(out, ignore_errors=True)
        r = ok_run(args + ["--dir", d, "--out", out])
        return r, json.load(open(os.path.join(out, "iobench.json")))["rows"]

    r, rows = sweep(["--sizes=64K,256K", "--api", "posix,netcdf"])
    if [(x["value"], x["api"]) for x in rows] != [("64K", "posix"), ("64K", "netcdf"),
                                                  ("256K", "posix"), ("256K", "netcdf")]:
        fail(f"sizes rows {[(x['value'], x['api']) for x in rows]}", r)
    for x in rows:
        check_row(x, 2, x["block_bytes"], 1, f"sizes {x['value']}")
        if x["bytes"] != {"64K": 65536, "256K": 262144}[x["value"]]:
            fail(f"size {x['value']}: {x['bytes']} bytes")
    if "file_size" not in r.stdout:
        fail("no file_size column", r)

    r, rows = sweep(["--sweep", "writers", "--pattern", "aggregated", "--api", "mpiio,hdf5",
                     "--block", "64K"])
    if [(x["value"], x["writers"]) for x in rows] != [("1", 1), ("1", 1), ("2", 2), ("2", 2)]:
        fail(f"writers rows {[(x['value'], x['writers']) for x in rows]}", r)
    for x in rows:
        check_row(x, 2, 65536, 1, f"writers {x['value']}")

    r, rows = sweep(["--sweep=transfer=8K,32K", "--block", "64K", "--independent"])
    if [x["transfer_bytes"] for x in rows] != [8192, 32768] or any(x["collective"] for x in rows):
        fail(f"transfer rows {[x['transfer_bytes'] for x in rows]}", r)

    r, rows = sweep(["--sweep", "hints=none;romio_cb_write=disable;cb_nodes=1,cb_buffer_size=65536",
                     "--block", "64K", "--api", "mpiio,hdf5"])
    if len(rows) != 6:
        fail(f"{len(rows)} hint rows", r)
    if "romio_cb_write=disable" not in rows[2]["hints_applied"] or \
       "cb_buffer_size=65536" not in rows[4]["hints_applied"]:
        fail(f"hints not applied: {[x['hints_applied'] for x in rows]}")

    # --keep: the files stay, and the netcdf one is netCDF-4 to ncdump
    shutil.rmtree(d, ignore_errors=True)
    ok_run(["--block", "64K", "--pattern", "shared,fpp", "--api", "netcdf,hdf5", "--keep",
            "--dir", d, "--no-read"])
    names = sorted(os.listdir(d))
    if "iobench.netcdf.shared.nc" not in names or len(names) != 6:
        fail(f"--keep left {names}")
    h = subprocess.run([ncdump, "-h", os.path.join(d, "iobench.netcdf.shared.nc")],
                       capture_output=True, text=True)
    if h.returncode != 0 or "double data(n)" not in h.stdout or "n = 16384" not in h.stdout:
        fail(f"ncdump -h: {h.stdout} {h.stderr}")
    shutil.rmtree(d)
    print("check_iobench sweeps: sizes, writers, transfer, hints, --keep + ncdump all fine")

elif mode == "badargs":
    blocker = os.path.join(work, "a_file")
    open(blocker, "w").write("x")
    cases = [
        (["--pattern", "bogus"], "--pattern 'bogus'"),
        (["--api", "netcdf,xyz"], "--api 'xyz'"),
        (["--block", "10"], "--block '10'"),
        (["--block", "-1M"], "--block '-1M'"),
        (["--block", "1M", "--transfer", "3K"], "not a multiple of --transfer"),
        (["--iterations", "0"], "--iterations '0'"),
        (["--aggregators", "x"], "--aggregators 'x'"),
        (["--hints", "cb_nodes"], "--hints 'cb_nodes'"),
        (["--sweep", "bogus"], "--sweep 'bogus'"),
        (["--sizes=12Q"], "--sizes '12Q'"),
        (["--sweep", "writers", "--pattern", "shared"], "needs --pattern aggregated"),
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["--block"], "--block needs a value"),
        (["--dir", blocker + "/sub"], "--dir"),
        (["--dir", blocker], "not a directory"),
    ]
    for args, text in cases:
        r, codes = run(2, args, timeout=60)
        errs = [l for l in r.stderr.splitlines() if l.startswith(("gale iobench", "gale: error"))]
        if codes != {0: 2, 1: 2}:
            fail(f"{args}: exit codes {codes}, want 2 on both ranks", r)
        if len(errs) != 1 or text not in errs[0]:
            fail(f"{args}: want one message containing '{text}'", r)
    r, codes = run(1, ["--help"])
    if codes != {0: 0} or "usage: mpiexec -n P gale iobench" not in r.stdout:
        fail("--help", r)
    print(f"check_iobench badargs: {len(cases)} refusals, each once with exit 2 on every rank")

else:
    fail(f"unknown mode {mode}")
