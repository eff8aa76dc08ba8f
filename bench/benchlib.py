"""The bench/ drivers' one library: builds in their own directories, runs
under the build's MPI launcher, the machine's description and load, git
revisions, run reports and their timer categories, Slurm job records, mesh
sizes, JSON/CSV output and markdown tables (docs/benchmarks.md "The library").
Standard library only; matplotlib where there is one (pyplot())."""
import argparse
import csv
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RESULTS = os.path.join(HERE, "results")
RAW = os.path.join(ROOT, "build", "bench-raw")  # run reports and logs (not kept in git)
MPIEXEC = shutil.which("mpiexec.mpich") or shutil.which("mpiexec") or "mpiexec"


class BadInput(Exception):
    """A file or value the drivers cannot use: the message names it."""


def launcher(exe):
    """The MPI launcher of the build that made exe: its gale-mpiexec (the
    configured MPIEXEC_EXECUTABLE and flags: mpiexec, srun, ...;
    docs/sites.md) beside gale, a folder up from bench/gale_kbench; or
    mpiexec for a binary outside a build folder."""
    d = os.path.dirname(os.path.abspath(exe))
    for own in (os.path.join(d, "gale-mpiexec"), os.path.join(os.path.dirname(d), "gale-mpiexec")):
        if os.access(own, os.X_OK):
            return own
    return MPIEXEC


def parser(description, quick_help="smaller sizes and fewer repeats (a check of the driver)",
           build_dir=True, preset=True):
    """The drivers' common options (docs/benchmarks.md); build_dir: --build-dir
    too; preset: --preset (the build, default cpu-gnu)."""
    p = argparse.ArgumentParser(description=description,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    if preset:
        p.add_argument("--preset", default="cpu-gnu", help="the build's CMake preset (default cpu-gnu)")
    p.add_argument("--dry-run", action="store_true", help="print the builds and runs, run nothing")
    p.add_argument("--quick", action="store_true", help=quick_help)
    p.add_argument("--no-build", action="store_true", help="use the existing build directories")
    p.add_argument("--wait-load", type=float, nargs="?", const=0.5, default=None, metavar="L",
                   help="before measuring, wait until the 1-minute load average is below L "
                        "(0.5 without L), then before each run until the machine is idle")
    p.add_argument("--wait-max", type=float, default=1800, metavar="S",
                   help="give up waiting for a low load after S seconds (default 1800)")
    p.add_argument("--out", default=RESULTS, help="results directory (default bench/results)")
    if build_dir:
        p.add_argument("--build-dir", default=None, metavar="DIR",
                       help="use this configured build (cmake --preset P -B DIR) instead of "
                            "build/bench-<preset> for every preset but the -novec builds (drivers "
                            "of one preset; with --no-build: as it is)")
    p.add_argument("--raw-dir", default=None, metavar="DIR",
                   help="run reports and logs (default build/bench-raw)")
    return p


DRY = False  # --dry-run: print the builds and runs, run nothing
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
    try:
        r = subprocess.run(cmd, cwd=cwd, env=e, stdout=subprocess.PIPE if capture else None,
                           stderr=subprocess.STDOUT if capture else None, text=True, timeout=timeout)
        st, out = r.returncode, r.stdout or ""
    except subprocess.TimeoutExpired as x:  # a failed run, as timeout(1) says it
        o = x.output or ""
        st, out = 124, (o.decode(errors="replace") if isinstance(o, bytes) else o) + f"\ntimed out after {timeout} s\n"
    if check and st != 0:
        sys.stderr.write(out[-4000:])
        raise SystemExit(f"bench: command failed ({st}): {text}")
    return st, out


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


def cache_value(build, key):
    """A value of build/CMakeCache.txt (None if absent)."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                k, _, v = line.partition("=")
                if k.split(":")[0] == key:
                    return v.strip()
    except OSError:
        pass
    return None


def configure_build(src, bdir, preset, targets, novec=False, no_build=False, jobs=None):
    """Configures bdir from the source tree src (once: cmake --preset P -B
    bdir, with GALE_NOVEC=ON for novec; CMakeLists.txt says which flags that
    adds) and builds targets, unless no_build; returns the commands run."""
    cmds = []
    if not os.path.exists(os.path.join(bdir, "CMakeCache.txt")):
        if no_build and not DRY:
            raise SystemExit(f"bench: {bdir} is not configured (and --no-build)")
        cmds.append(["cmake", "--preset", preset, "-B", bdir] + (["-DGALE_NOVEC=ON"] if novec else []))
    if no_build:
        return []
    cmds.append(["cmake", "--build", bdir, "-j", str(jobs or os.cpu_count() or 2), "--target", *targets])
    for c in cmds:
        sh(c, cwd=src)
    return [" ".join(c) for c in cmds]


def build(preset, novec=False, targets=("gale", "gale_kbench", "gale_stream"), skip=False):
    """This tree's preset built into build/bench-<preset>[-novec] (or
    --build-dir): the preset's compiler, ISA and flags; skip: as it is."""
    d = build_dir(preset, novec)
    configure_build(ROOT, d, preset, targets, novec=novec, no_build=skip)
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
    info["git"] = os.environ.get("GALE_BENCH_SOURCE") or describe()["describe"] or "?"
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
    rev = git(ROOT, "log", "-1", "--format=%h", "--", *CODE_PATHS)
    dirty = git(ROOT, "status", "--porcelain", "--", *CODE_PATHS)
    return rev + ("-dirty" if dirty else "") if rev else ""


def git(cwd, *args):
    """git -C cwd args: its output, None when it fails (no git, not a checkout)."""
    try:
        r = subprocess.run(["git", "-C", cwd, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def describe(src=ROOT):
    """The commit of a source tree and whether it has changes."""
    return {"source": src, "commit": git(src, "rev-parse", "HEAD"),
            "describe": git(src, "describe", "--always", "--dirty")}


# ---- runs ----

def _run_json(cmd, env, js, what, timeout, show_tail=False, cwd=ROOT):
    """Runs cmd, keeps its output in <js>.log; returns the JSON it wrote to js,
    or None when it failed (or in a dry run)."""
    st, out = sh(cmd, env=env, check=False, timeout=timeout, cwd=cwd)
    if DRY:
        return None
    if show_tail:
        log("    " + "\n    ".join(out.strip().splitlines()[-3:]))
    with open(js + ".log", "w") as f:
        f.write(out)
    if st != 0:
        log(f"  {what} failed ({st}); log: {js}.log")
        return None
    return read_json(js, what)


def gale_run(exe, np, threads, overrides, report, config="configs/default_tight.ini", timeout=900, env=None,
             output=False, tool=(), cwd=ROOT):
    """gale run under its build's launcher, output and progress lines off
    unless output (then cwd takes what it writes); tool (valgrind ...) runs
    gale. Returns the report (dict) or None. The default case with cg +
    tridiagonal to 1e-10, the solve the recorded results used."""
    cmd = [launcher(exe), "-n", str(np), *tool, exe, "run", config,
           *([] if output else ["--diagnostics.fields=", "--logging.progress_every=0"]), *overrides,
           "--report", report]
    return _run_json(cmd, {"OMP_NUM_THREADS": str(threads), **(env or {})}, report, "run", timeout, cwd=cwd)


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


# ---- the step by category ----

# The step's categories: the report's timers outside the kernels (docs/report.md).
# compute is the `compute` timer, every kernel's time (the timers with
# category compute) and the compute that is no kernel's (tr_wind); other is
# the rest of wall_s (set-up inside the loop, the timers' own cost).
STEP_TIMERS = {"compute": ("compute",), "halo": ("halo_pack", "halo_wait"),
               "global_sums": ("global_sums",), "io": ("io_handoff", "io_wait"),
               "transfers": ("h2d", "d2h")}


def step_categories(rep, split=()):
    """Seconds per step (mean over ranks) by category, adding up to the
    report's wall_s / steps: STEP_TIMERS' and other. The kernel categories
    in split come out of compute, each on its own; compute's rest is then
    other_compute."""
    t = {k: v["mean_s"] for k, v in rep["timers"].items()}
    c = {k: sum(t.get(x, 0.0) for x in ts) for k, ts in STEP_TIMERS.items()}
    if split:
        parts = by_category(t, kernel_categories(rep))
        for k in split:
            c[k] = parts.get(k, 0.0)
        c["other_compute"] = c.pop("compute") - sum(c[k] for k in split)
    c["other"] = rep["wall_s"] - sum(c.values())
    n = rep["steps"] or 1
    return {k: v / n for k, v in c.items()}


# ---- sizes ----

MAX_N = 8192  # gale's largest cube (gale partition's limit)


def mesh_n(text):
    """N of a cubed-sphere mesh C<N> (or N); ValueError that says why not."""
    m = re.match(r"^[Cc]?([1-9][0-9]*)$", text.strip()) if isinstance(text, str) else None
    if not m or int(m.group(1)) > MAX_N:
        raise ValueError(f"unknown mesh {json.dumps(text)}: expected a cubed sphere C<N> with N a "
                         f"whole number from 1 to {MAX_N}, e.g. C512")
    return int(m.group(1))


def size(text):
    """("C<N>", levels) of MESH:LEVELS, e.g. C48:30."""
    mesh, _, lev = text.partition(":")
    return f"C{mesh_n(mesh)}", int(lev)


def ints(text):
    """[int] of a comma-separated list, e.g. 1,2,4."""
    return [int(x) for x in text.split(",") if x.strip()]


def layouts(text):
    """[(ranks, threads)] of RANKSxTHREADS,..., e.g. 1x1,2x1."""
    out = []
    for item in (x.strip().lower() for x in text.split(",") if x.strip()):
        try:
            r, t = (int(x) for x in item.split("x"))
        except ValueError:
            raise SystemExit(f"bench: layout {item!r} is not RANKSxTHREADS (e.g. 2x1)")
        if r < 1 or t < 1:
            raise SystemExit(f"bench: layout {item!r}: ranks and threads must be >= 1")
        out.append((r, t))
    if not out:
        raise SystemExit("bench: no layouts")
    return out


# ---- Slurm job records ----

# one record from scontrol's and sacct's words alike (docs/benchmarks.md)
RECORD = ("id", "name", "state", "exit_code", "nodelist", "start", "end", "tasks")
SCONTROL_KEYS = ("JobId", "JobName", "JobState", "ExitCode", "NodeList", "StartTime", "EndTime", "NumTasks")
SACCT_FIELDS = "JobID,JobName,State,ExitCode,NodeList,Start,End,NTasks"


def slurm_jobs(text, source):
    """{job id: record} of `scontrol show job -o` (source "scontrol": a job a
    line of Key=Value words) or `sacct -n -P -o SACCT_FIELDS` ("sacct");
    each record has RECORD's keys, "from" (the source) and the state's first
    word (sacct writes "CANCELLED by 0")."""
    out = {}
    for line in text.splitlines():
        if source == "scontrol":
            words = dict(w.partition("=")[::2] for w in line.split())
            values = [words.get(k) for k in SCONTROL_KEYS]
        else:
            values = line.split("|")
            if len(values) < len(RECORD):
                continue
        r = dict(zip(RECORD, values), **{"from": source})
        if r["id"] and r["state"]:
            r["state"] = r["state"].split()[0]
            out[r["id"]] = r
    return out


def squeue(ids=None, env=None):
    """{job id: state} of the jobs still queued or running (of ids)."""
    r = subprocess.run(["squeue", "-h", "-o", "%i %T"] + (["-j", ",".join(ids)] if ids else []),
                       capture_output=True, text=True, timeout=60, env=env)
    if r.returncode and "Invalid job id" not in r.stderr:
        log(f"  squeue failed ({r.returncode}): {r.stderr.strip()}")
    return dict(line.split()[:2] for line in r.stdout.splitlines() if len(line.split()) >= 2)


def job_records(ids, env=None):
    """{id: record} of the jobs ids: scontrol's while slurmctld holds a job,
    then sacct's (accounting) for the others."""
    ids = [str(i) for i in ids]
    recs = {}
    for j in ids:
        r = subprocess.run(["scontrol", "show", "job", "-o", j], capture_output=True, text=True,
                           timeout=60, env=env)
        recs.update({k: v for k, v in slurm_jobs(r.stdout, "scontrol").items() if k == j})
    rest = [j for j in ids if j not in recs]
    if rest and shutil.which("sacct", path=(env or os.environ).get("PATH")):
        r = subprocess.run(["sacct", "-n", "-P", "-X", "-j", ",".join(rest), "-o", SACCT_FIELDS],
                           capture_output=True, text=True, timeout=60, env=env)
        recs.update({k: v for k, v in slurm_jobs(r.stdout, "sacct").items() if k in rest})
    return recs


# ---- output ----

def write_text(path, text):
    """path replaced whole (a temporary file, then a rename), never half
    written; like gale, it refuses to replace what is not a regular file."""
    if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
        raise BadInput(f"{path}: not a regular file; refusing to replace it")
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def write_json(path, obj):
    write_text(path, json.dumps(obj, indent=1) + "\n")


def read_json(path, what="JSON"):
    """The JSON at path; BadInput naming the file when it is missing or not JSON."""
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise BadInput(f"{what} '{path}': {e.strerror}")
    except ValueError as e:
        raise BadInput(f"{what} '{path}': not valid JSON: {e}")


def write_csv(path, rows, columns=None):
    """rows (dicts) as CSV, floats exact (repr: a CSV value equals the JSON's)."""
    columns = columns or list(rows[0].keys())
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: (repr(v) if isinstance(v, float) else v) for k, v in r.items()})
    os.replace(path + ".tmp", path)


def save(args, name, obj, rows=None, columns=None):
    """bench/results/<name>.json (everything) and <name>.csv (rows)."""
    if DRY:
        return
    path = os.path.join(args.out, name + ".json")
    write_json(path, obj)
    if rows:
        write_csv(os.path.join(args.out, name + ".csv"), rows, columns)
    log(f"bench: wrote {path}" + (f" and {name}.csv" if rows else ""))


def read(args_or_dir, name, need=False):
    """<dir>/<name>.json, None when there is none (need: an exit saying so)."""
    d = args_or_dir if isinstance(args_or_dir, str) else args_or_dir.out
    path = os.path.join(d, name + ".json")
    if need and not os.path.exists(path):
        raise SystemExit(f"bench: no {path}")
    return read_json(path) if os.path.exists(path) else None


def raw(*parts):
    p = os.path.join(RAW, *parts)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p


def fmt(v, spec=".4g"):
    """A table cell: "-" for no value."""
    return "-" if v is None or v == "" else (format(v, spec) if isinstance(v, float) else str(v))


def md_table(head, rows):
    """A markdown table: the header, then a row per list of cells."""
    line = lambda r: "| " + " | ".join(str(x) for x in r) + " |\n"  # noqa: E731
    return line(head) + "|" + "---|" * len(head) + "\n" + "".join(line(r) for r in rows)


def pyplot():
    """matplotlib's pyplot without a display, None without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        log("bench: no matplotlib for this Python: no figures")
        return None


def checkpoint_field(path, name):
    """(levels, columns, values in gid order) of field name of a gale checkpoint."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import gale_ckpt  # the one reader of the format (docs/checkpoint.md)
    try:
        return gale_ckpt.read(path).field(name)
    except (gale_ckpt.Error, OSError) as e:
        raise SystemExit(f"bench: {e}")
