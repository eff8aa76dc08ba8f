"""Shared helpers of the bench/ drivers: builds in their own directories,
runs under the build's MPI launcher, the machine's description and load, and JSON/CSV output.
Standard library only (the drivers run with /usr/bin/python3)."""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")
RAW = os.path.join(ROOT, "build", "bench-raw")  # run reports and logs (not kept in git)
MPIEXEC = shutil.which("mpiexec.mpich") or shutil.which("mpiexec") or "mpiexec"


def launcher(exe):
    """The MPI launcher of the build that made exe: its gale-mpiexec (the
    configured MPIEXEC_EXECUTABLE and flags: mpiexec, srun, ...;
    docs/sites.md), or mpiexec for a binary outside a build folder."""
    own = os.path.join(os.path.dirname(os.path.abspath(exe)), "gale-mpiexec")
    return own if os.access(own, os.X_OK) else MPIEXEC
DRY = False

def parser(description, quick_help="smaller sizes and fewer repeats (a check of the driver)"):
    p = argparse.ArgumentParser(description=description,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dry-run", action="store_true", help="print the builds and runs, run nothing")
    p.add_argument("--quick", action="store_true", help=quick_help)
    p.add_argument("--no-build", action="store_true", help="use the existing build directories")
    p.add_argument("--wait-load", type=float, default=None, metavar="L",
                   help="before measuring, wait until the 1-minute load average is below L")
    p.add_argument("--wait-max", type=float, default=1800, metavar="S",
                   help="give up waiting for a low load after S seconds (default 1800)")
    p.add_argument("--out", default=RESULTS, help="results directory (default bench/results)")
    p.add_argument("--build-dir", default=None, metavar="DIR",
                   help="use this configured build (cmake --preset P -B DIR) instead of "
                        "build/bench-<preset> for every preset but the -novec builds (drivers "
                        "of one preset; with --no-build: as it is)")
    p.add_argument("--raw-dir", default=None, metavar="DIR",
                   help="run reports and logs (default build/bench-raw)")
    return p


BUILD_DIR = None  # --build-dir: replaces build/bench-<preset> (not the -novec builds)


def setup(args):
    global DRY, RAW, BUILD_DIR
    DRY = args.dry_run
    if getattr(args, "raw_dir", None):
        RAW = os.path.abspath(args.raw_dir)
    if getattr(args, "build_dir", None):
        BUILD_DIR = os.path.abspath(args.build_dir)
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(RAW, exist_ok=True)


def log(msg):
    print(msg, flush=True)


def sh(cmd, env=None, cwd=ROOT, check=True, capture=True, timeout=None):
    """Runs cmd (a list); returns (status, stdout+stderr)."""
    text = " ".join(cmd)
    if env:
        text = " ".join(f"{k}={v}" for k, v in env.items() if k.startswith(("OMP_", "GALE_"))) + " " + text
    log("  $ " + text)
    if DRY:
        return 0, ""
    e = dict(os.environ)
    if env:
        e.update(env)
    r = subprocess.run(cmd, cwd=cwd, env=e, stdout=subprocess.PIPE if capture else None,
                       stderr=subprocess.STDOUT if capture else None, text=True, timeout=timeout)
    out = r.stdout or ""
    if check and r.returncode != 0:
        sys.stderr.write(out[-4000:])
        raise SystemExit(f"bench: command failed ({r.returncode}): {text}")
    return r.returncode, out


# ---- builds ----

def compile_command(build, source="kernels_cpu/launch.c"):
    """The compile command of one source in a configured build (for the
    record: what the flags of a build really were)."""
    try:
        with open(os.path.join(build, "compile_commands.json")) as f:
            return next((e["command"] for e in json.load(f) if e["file"].endswith(source)), None)
    except (OSError, ValueError):
        return None


def build_dir(preset, novec=False):
    if BUILD_DIR and not novec:
        return BUILD_DIR
    return os.path.join(ROOT, "build", f"bench-{preset}" + ("-novec" if novec else ""))


def build(preset, novec=False, targets=("gale", "gale_kbench", "gale_stream"), skip=False):
    """Configures (once) and builds preset into build/bench-<preset>[-novec]:
    the preset's compiler, ISA and flags, with GALE_NOVEC=ON for novec
    (CMakeLists.txt says which flags that adds)."""
    d = build_dir(preset, novec)
    if skip and os.path.exists(os.path.join(d, "CMakeCache.txt")):
        return d
    if not os.path.exists(os.path.join(d, "CMakeCache.txt")):
        cmd = ["cmake", "--preset", preset, "-B", d]
        if novec:
            cmd += ["-DGALE_NOVEC=ON"]
        sh(cmd)
    sh(["cmake", "--build", d, "-j", str(os.cpu_count() or 2), "--target", *targets])
    return d


PACKED = re.compile(r"\bv?(add|sub|mul|div|sqrt|max|min|fmadd\d*|fmsub\d*|fnmadd\d*|fnmsub\d*)p[sd]\b")


def count_packed(build, lib="kernels_cpu/libgale_kernels_cpu.a"):
    """Packed floating-point arithmetic instructions in the CPU kernels
    (0 when vectorisation is really off)."""
    path = os.path.join(build, lib)
    if DRY or not os.path.exists(path):
        return None
    _, out = sh(["objdump", "-d", "--no-show-raw-insn", path])
    return sum(1 for line in out.splitlines() if PACKED.search(line))


# ---- the machine ----

def load():
    return os.getloadavg()[0]


def busy_cores(seconds=2.0):
    """Cores kept busy by anybody over the next `seconds` (from /proc/stat)."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        idle = v[3] + v[4]  # idle + iowait
        return sum(v[:8]) - idle, sum(v[:8])
    b0, t0 = sample()
    time.sleep(seconds)
    b1, t1 = sample()
    return (os.cpu_count() or 1) * (b1 - b0) / max(t1 - t0, 1)


def wait_quiet(args, what=""):
    """With --wait-load L: waits until the 1-minute load average is below L
    (at the start of a benchmark) and, before every measurement, until the
    machine is idle right now (under 0.3 cores busy over 2 s: the load
    average lags a minute behind, and our own last run is part of it).
    Returns the load average when measuring starts."""
    if DRY or args.wait_load is None:
        return load()
    t0 = time.time()
    while load() >= args.wait_load or busy_cores() > 0.3:
        if time.time() - t0 > args.wait_max:
            log(f"bench: load {load():.2f}, {busy_cores():.2f} cores busy after "
                f"{args.wait_max:.0f} s of waiting; measuring anyway {what}")
            break
        time.sleep(10)
    return load()


def wait_idle(args):
    """Before each measurement (with --wait-load): until under 0.3 cores are
    busy; returns the busy cores seen."""
    if DRY or args.wait_load is None:
        return None
    t0 = time.time()
    b = busy_cores()
    while b > 0.3 and time.time() - t0 < args.wait_max:
        time.sleep(5)
        b = busy_cores()
    return round(b, 2)


class LoadLog:
    """Load averages sampled around the measurements, and the cores other
    processes kept busy just before each (with --wait-load)."""

    def __init__(self, args=None):
        self.samples, self.busy, self.args = [], [], args

    def mark(self, before=False):
        if before and self.args is not None:
            b = wait_idle(self.args)
            if b is not None:
                self.busy.append(b)
        self.samples.append(round(load(), 2))

    def summary(self):
        s = self.samples or [load()]
        out = {"min": min(s), "mean": round(sum(s) / len(s), 2), "max": max(s), "samples": len(s)}
        if self.busy:
            out["busy_cores_before_runs_max"] = max(self.busy)
        return out


def llc_bytes():
    try:
        with open("/sys/devices/system/cpu/cpu0/cache/index3/size") as f:
            return int(f.read().strip().rstrip("K")) * 1024
    except (OSError, ValueError):
        return 32 * 2**20


def first_line(cmd):
    """The first line a command prints (a compiler's --version), "?" if none."""
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True).stdout.splitlines()[0].strip()
    except (OSError, IndexError):
        return "?"


def machine():
    info = {}
    try:
        out = subprocess.run(["lscpu"], stdout=subprocess.PIPE, text=True).stdout
        for line in out.splitlines():
            k, _, v = line.partition(":")
            if k.strip() in ("Model name", "CPU(s)", "Thread(s) per core", "Core(s) per socket",
                             "Socket(s)", "L1d cache", "L2 cache", "L3 cache", "NUMA node(s)",
                             "Hypervisor vendor"):
                info[k.strip()] = v.strip()
        flags = re.search(r"Flags:\s*(.*)", out)
        if flags:
            f = flags.group(1).split()
            info["simd"] = " ".join(x for x in ("avx2", "fma", "avx512f", "avx512vl") if x in f)
    except OSError:
        pass
    try:
        with open("/proc/meminfo") as f:
            info["memory_GiB"] = round(int(f.readline().split()[1]) / 2**20, 1)
    except OSError:
        pass
    info["gcc"] = first_line(["gcc", "--version"])
    info["clang"] = first_line(["clang-19", "--version"])
    info["mpi"] = first_line(["mpichversion"]) if shutil.which("mpichversion") else first_line([MPIEXEC, "--version"])
    # GALE_BENCH_SOURCE describes a tree that is not a git checkout (a snapshot)
    info["git"] = os.environ.get("GALE_BENCH_SOURCE") or first_line(["git", "-C", ROOT, "describe", "--always", "--dirty"])
    info["code"] = code_revision()
    info["date"] = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    return info


# what the gale binary and its runs are made from: a result run at one
# code revision stays valid across commits that change only docs, tests or
# bench scripts
CODE_PATHS = ["CMakeLists.txt", "CMakePresets.json", "cmake", "base", "layout", "kernels", "kernels_cpu",
              "kernels_offload", "halo", "psy", "solver", "io", "src", "configs"]


def code_revision():
    """The last commit that changed a CODE_PATHS path, with "-dirty" when one
    of them has uncommitted changes ("" outside a git checkout)."""
    if os.environ.get("GALE_BENCH_SOURCE"):
        return os.environ["GALE_BENCH_SOURCE"]
    def out(*args):
        try:
            r = subprocess.run(["git", "-C", ROOT, *args, "--", *CODE_PATHS], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
        except OSError:
            return None
        return r.stdout.strip() if r.returncode == 0 else None

    rev, dirty = out("log", "-1", "--format=%h"), out("status", "--porcelain")
    return rev + ("-dirty" if dirty else "") if rev else ""


# ---- runs ----

def _run_json(cmd, env, js, what, timeout, show_tail=False):
    """Runs cmd, keeps its output in <js>.log; returns the JSON it wrote to js,
    or None when it failed (or in a dry run)."""
    st, out = sh(cmd, env=env, check=False, timeout=timeout)
    if DRY:
        return None
    if show_tail:
        log("    " + "\n    ".join(out.strip().splitlines()[-3:]))
    with open(js + ".log", "w") as f:
        f.write(out)
    if st != 0:
        log(f"  {what} failed ({st}); log: {js}.log")
        return None
    with open(js) as f:
        return json.load(f)


def gale_run(exe, np, threads, overrides, report, config="configs/default_tight.ini", timeout=900):
    """gale run under mpiexec (output off); returns the report (dict) or None. The
    default case with cg + tridiagonal to 1e-10, the solve the recorded results used."""
    cmd = [launcher(exe), "-n", str(np), exe, "run", config, "--diagnostics.fields=",
           "--logging.progress_every=0", *overrides, "--report", report]
    return _run_json(cmd, {"OMP_NUM_THREADS": str(threads)}, report, "run", timeout)


def kbench(exe, args, np=1, threads=1, env=None, timeout=1800):
    """gale_kbench with --json; returns its JSON (dict) or None."""
    js = args[args.index("--json") + 1]
    e = {"OMP_NUM_THREADS": str(threads), **(env or {})}
    cmd = ([launcher(exe), "-n", str(np)] if np > 1 else []) + [exe, *args]
    return _run_json(cmd, e, js, "gale_kbench", timeout, show_tail=True)


# ---- kernel categories ----

def kernel_categories(rep):
    """{kernel timer: its category} of a run report: the category of the
    kernel's row list (kernels/gale_kdesc.h, GALE_KCATEGORIES), which the
    report writes beside each kernel timer as `kernel_category`
    (docs/report.md). Compute timers that are no kernel's (tr_wind) have none."""
    return {k: v["kernel_category"] for k, v in rep["timers"].items() if "kernel_category" in v}


_KCATS = {}


def kernel_categories_of(gale):
    """kernel_categories() of a one-step C2 run of the executable `gale`
    (every kernel timer is in a report, run or not): for gale_kbench's
    results, which name the timers without their categories. Cached per
    executable; {} in a dry run."""
    if gale not in _KCATS:
        js = raw("categories", re.sub(r"\W+", "_", os.path.abspath(gale)).strip("_") + ".json")
        rep = _run_json([gale, "run", os.path.join(ROOT, "configs", "default.ini"), "--mesh.name=C2",
                         "--extrusion.levels=2", "--timestepping.steps=1", "--diagnostics.fields=",
                         "--logging.progress_every=0", "--checkpoint.period=0", "--report", js],
                        {"OMP_NUM_THREADS": "1"}, js, "gale run (kernel categories)", 120)
        if rep is None:
            if DRY:
                return {}
            sys.exit(f"bench: no kernel categories from {gale}: see {js}.log")
        _KCATS[gale] = kernel_categories(rep)
    return _KCATS[gale]


def by_category(values, cats, suffix=""):
    """{category + suffix: the sum of values {timer: x} over the category's
    kernels}, every category of cats present (0 where none of its kernels
    ran); timers that are no kernel's are left out."""
    out = {c + suffix: 0.0 for c in sorted(set(cats.values()))}
    for k, x in values.items():
        if k in cats:
            out[cats[k] + suffix] += x
    return out


# ---- output ----

def save(args, name, obj, rows=None, columns=None):
    """bench/results/<name>.json (everything) and <name>.csv (rows)."""
    if DRY:
        return
    path = os.path.join(args.out, name + ".json")
    with open(path + ".tmp", "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)
    if rows:
        columns = columns or list(rows[0].keys())
        with open(os.path.join(args.out, name + ".csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
            w.writeheader()
            for r in rows:
                w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})
    log(f"bench: wrote {path}" + (f" and {name}.csv" if rows else ""))


def read(args_or_dir, name):
    d = args_or_dir if isinstance(args_or_dir, str) else args_or_dir.out
    path = os.path.join(d, name + ".json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def raw(*parts):
    p = os.path.join(RAW, *parts)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p
