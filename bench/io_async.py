#!/usr/bin/python3
"""Asynchronous against synchronous output (docs/output.md, "Benchmark").

Runs configs/diagnostic_load.ini on NP ranks (default 2, one thread each) with
[io] synchronous = false and = true, for each layout asked, REPEAT times each
(interleaved, so that a change in the machine's load hits both alike), and
reports per variant the median over repeats of:
  client_wait_pct (mean over ranks; min and max too), writer_busy_pct,
  write_rate_MiB_s, time_per_step_s, and the same run without output as the
  baseline of the time per step.
Prints a table and writes bench/results/io_async.json. The output files go to
a scratch directory (--scratch) and are removed after each run.

usage: bench/io_async.py [--build DIR] [--np N] [--modes shared,per_rank,aggregated]
                         [--repeat R] [--steps S] [--scratch DIR] [--out FILE]
                         [-- --section.key=value ...]   (passed to every run)"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as B  # noqa: E402

ROOT = B.ROOT


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__)
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "cpu-gnu"))
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--modes", default="shared")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--steps", type=int, default=0, help="override [timestepping] steps")
    ap.add_argument("--scratch", default=None, help="where the files go (default: a temp dir)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "io_async.json"))
    ap.add_argument("extra", nargs="*", help="--section.key=value overrides (after --)")
    a = ap.parse_args()
    gale = os.path.join(a.build, "gale")
    if not os.access(gale, os.X_OK):
        sys.exit(f"bench/io_async.py: no {gale}: build first (make build)")
    config = os.path.join(ROOT, "configs", "diagnostic_load.ini")
    scratch = a.scratch or tempfile.mkdtemp(prefix="gale_io_async_")
    os.makedirs(scratch, exist_ok=True)

    def run(label, *overrides):
        out = os.path.join(scratch, "out")
        shutil.rmtree(out, ignore_errors=True)
        report = os.path.join(scratch, "report.json")
        t0 = time.time()
        rep = B.gale_run(gale, a.np, 1, [f"--io.dir={out}", "--logging.progress_every=0", *a.extra, *overrides]
                         + ([f"--timestepping.steps={a.steps}"] if a.steps else []),
                         report, config=config, timeout=None, output=True, cwd=scratch)
        if rep is None:
            sys.exit(f"bench/io_async.py: {label} failed; log: {report}.log")
        shutil.rmtree(out, ignore_errors=True)
        io = rep.get("io", {})
        res = {"time_per_step_s": rep["time_per_step_s"], "wall_s": rep["wall_s"],
               "elapsed_s": time.time() - t0}
        if io.get("enabled"):
            res.update({"client_wait_pct": io["client_wait_pct"],
                        "writer_busy_pct": io["writer_busy_pct"],
                        "write_rate_MiB_s": io["write_rate_MiB_s"],
                        "busy_write_rate_MiB_s": io["busy_write_rate_MiB_s"],
                        "MiB": io["MiB"], "files": len(io["files"])})
        print(f"  {label:24s} {res['time_per_step_s']:.4f} s/step"
              + (f", client wait {io['client_wait_pct']['mean']:.3f} %" if io.get("enabled")
                 else ""), flush=True)
        return res

    modes = a.modes.split(",")
    variants = [("no_output", ["--diagnostics.fields="])]
    for m in modes:
        for sync in ("false", "true"):
            name = f"{m}_{'sync' if sync == 'true' else 'async'}"
            variants.append((name, [f"--io.mode={m}", f"--io.synchronous={sync}"]))
    runs = {name: [] for name, _ in variants}
    for rep in range(a.repeat):
        print(f"repeat {rep + 1}/{a.repeat}", flush=True)
        for name, ov in variants:
            runs[name].append(run(name, *ov))
    if not a.scratch:
        shutil.rmtree(scratch, ignore_errors=True)

    def med(xs, key, sub=None):
        vals = [x[key][sub] if sub else x[key] for x in xs if key in x]
        return statistics.median(vals) if vals else None

    summary = {}
    for name, _ in variants:
        xs = runs[name]
        s = {"time_per_step_s": med(xs, "time_per_step_s")}
        if "client_wait_pct" in xs[0]:
            for k in ("min", "mean", "max"):
                s.setdefault("client_wait_pct", {})[k] = med(xs, "client_wait_pct", k)
                s.setdefault("writer_busy_pct", {})[k] = med(xs, "writer_busy_pct", k)
            for k in ("write_rate_MiB_s", "busy_write_rate_MiB_s", "MiB", "files"):
                s[k] = med(xs, k)
        summary[name] = s
    base = summary["no_output"]["time_per_step_s"]
    for s in summary.values():
        s["time_per_step_vs_no_output"] = s["time_per_step_s"] / base
    print(f"\nconfigs/diagnostic_load.ini, {a.np} ranks x 1 thread, median of {a.repeat}")
    print(f"{'variant':16s} {'s/step':>8s} {'vs none':>8s} {'wait %':>8s} {'(max)':>8s} "
          f"{'busy %':>8s} {'MiB':>8s} {'MiB/s':>8s} {'busy MiB/s':>10s}")
    for name, s in summary.items():
        line = f"{name:16s} {s['time_per_step_s']:8.4f} {s['time_per_step_vs_no_output']:8.3f}"
        if "client_wait_pct" in s:
            line += (f" {s['client_wait_pct']['mean']:8.3f} {s['client_wait_pct']['max']:8.3f}"
                     f" {s['writer_busy_pct']['mean']:8.2f} {s['MiB']:8.1f}"
                     f" {s['write_rate_MiB_s']:8.2f} {s['busy_write_rate_MiB_s']:10.2f}")
        print(line)
    result = {"config": "configs/diagnostic_load.ini", "ranks": a.np, "threads": 1,
              "repeat": a.repeat, "overrides": a.extra + ([f"--timestepping.steps={a.steps}"]
                                                          if a.steps else []),
              "host_cores": os.cpu_count(), "loadavg_at_end": os.getloadavg(),
              "summary": summary, "runs": runs}
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    B.write_json(a.out, result)
    print(f"\nwrote {a.out}")


if __name__ == "__main__":
    main()
