#!/usr/bin/python3
"""The linear core's deep atmosphere (issue 39, docs/numerics.md, "The deep
atmosphere"): numbers that only the shells' metric gives, on LFRic's small
planet (a = 6371229 / 125 = 50.97 km, top 10 km: r / a up to 1.196).

  check_deep.py MPIEXEC GALE

- vertical mode (horizontally uniform, C2, dt 0.1 s): r w obeys
  omega^2 v = -c^2 v'' + (N^2 + 2 c^2 / r^2) v, whose lowest frequency this
  script computes by finite differences (1600 points, Richardson), not
  from gale. gale's deep frequency converges to it at second order (error
  ratio 3.5-4.5 from 10 to 20 and 20 to 40 layers, as the shallow test
  normal_mode_vertical) and is within 1% at 10 layers; the shallow limit,
  sqrt(c^2 m^2 + N^2), is 0.32% lower (the 2 c^2 / r^2 term): converging to
  either limit at second order tells them apart.
- horizontal mode l = 2 (8 layers, dt 4 s, C12 and C24): the radial equation
  k (r^2 R')' / r^2 + (omega^2 / c^2 - l(l+1) / r^2) R = 0, k = omega^2 /
  (omega^2 - N^2), R' = 0 at the ground and the top, solved here by shooting;
  the deep frequency is 9% below the shallow one. gale's frequency, with
  Crank-Nicolson's phase error taken out exactly (omega = (2/dt)
  tan(omega_measured dt / 2)), converges to it at second order (the error
  falls 3.5-4.5x from C12 to C24, as the vertical mode's) and is below 0.5%
  at C24 (mixed_numbers' bound for the shallow modes).
- the linear core against the nonlinear core's deep step (independent
  kernels and solvers) about the resting isothermal atmosphere (300 K) with
  the linear core's c^2 = gamma R T and N^2 = g^2 / (cp T), at small
  gravity (g = 1e-3: the equations' differences, the compressible terms
  g w / c^2 and N^2 p / g and gravity's fall with height, have relative size
  g H / c^2 = 8.3e-5) and small amplitude (the linearisation's error has the
  size of the Mach number max|u| / c): after 100 steps of 10 s of the l = 2
  mode (2.7 periods), |u| and the measured frequency of the two cores agree
  within g H / c^2 + max|u| / c, deep and shallow, and both deep frequencies
  lie nearer the shells' than the flat one (9% apart); |w| (zero in the shallow
  linear core) agrees within the w that gravity alone makes in the shallow
  nonlinear run.
- LFRic's gravity_wave example as shipped (tests/data/lfric/
  gravity_wave_example.nml, `shallow = .false.`) runs its 36 steps on 1 and
  2 ranks with the same checksums, which configs/lfric_gravity_wave.nml
  (LFRic's values) also gives; with --dynamics.shallow=true every field
  changes, each norm by less than top / a (the largest of the shells'
  factors' departures from 1).
"""
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

MPIEXEC, GALE = sys.argv[1:3]
TMP = tempfile.mkdtemp(prefix="gale_deep_")
HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = os.path.join(HERE, "..", "configs")
ENV = dict(os.environ, OMP_NUM_THREADS="1")
A = 6371229.0 / 125.0  # gale's default planet, LFRic's small one
TOP = 10000.0
failures = []


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(config, args, np=1):
    rep = os.path.join(TMP, "r.json")
    if os.path.exists(rep):
        os.remove(rep)
    p = subprocess.run([MPIEXEC, "-n", str(np), GALE, "run", os.path.join(CONFIGS, config),
                        "--diagnostics.fields=", "--logging.progress_every=0", *args,
                        "--report", rep], capture_output=True, text=True, env=ENV, cwd=TMP,
                       timeout=400)
    if p.returncode != 0:
        sys.exit(f"gale run {config} {' '.join(args)} failed ({p.returncode}):\n"
                 f"{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    with open(rep) as f:
        return json.load(f)


def norms(rep):
    """sqrt(sum x^2) of every prognostic, from the checksums' bits."""
    return {k: math.sqrt(struct.unpack(">d", bytes.fromhex(v))[0])
            for k, v in rep["checksums"].items()}


def deep_flag(deep):
    return f"--dynamics.shallow={'false' if deep else 'true'}"


# ---- the vertical mode ----
C, N2 = 340.0, 1e-4
M = math.pi / TOP


def vertical_exact():
    def lowest(n):
        h = TOP / n
        r = A + h * np.arange(1, n)
        main = 2 * C * C / h**2 + 2 * C * C / r**2 + N2
        off = np.full(n - 2, -C * C / h**2)
        return math.sqrt(np.linalg.eigvalsh(np.diag(main) + np.diag(off, 1) + np.diag(off, -1))[0])
    w1, w2 = lowest(800), lowest(1600)
    return w2 + (w2 - w1) / 3.0  # second order: Richardson


def vertical(levels, deep):
    r = run("default.ini", ["--mesh.name=C2", "--initial.case=normal_mode",
                            "--initial.mode=vertical", "--timestepping.dt=0.1",
                            "--timestepping.steps=1800", f"--extrusion.levels={levels}",
                            deep_flag(deep)])
    return r["normal_mode"]["omega_measured"]


exact, flat = vertical_exact(), math.sqrt(C * C * M * M + N2)
print(f"vertical mode, exact: deep {exact:.10f}, shallow {flat:.10f} ({exact / flat - 1:+.3%})")
err = [vertical(levels, True) / exact - 1 for levels in (10, 20, 40)]
print("  deep: errors at 10, 20, 40 layers: " + ", ".join(f"{e:+.4%}" for e in err))
check(abs(err[0]) < 0.01, f"vertical mode, deep: error {err[0]:+.3%} below 1% at 10 layers")
for i in (0, 1):
    q = err[i] / err[i + 1]
    check(3.5 <= q <= 4.5, f"vertical mode, deep: the error falls {q:.2f}x from "
          f"{10 * 2**i} to {20 * 2**i} layers (second order: 3.5-4.5)")

# ---- the horizontal mode l = 2 ----
LL, DT = 6.0, 4.0


def horizontal_exact(deep):
    if not deep:
        return C * math.sqrt(LL) / A

    def mismatch(w, n=2000):
        k = w * w / (w * w - N2)

        def f(r, y):  # y = (R, r^2 R')
            return (y[1] / (r * r), (LL - w * w * r * r / (C * C)) * y[0] / k)
        y, r, h = (1.0, 0.0), A, TOP / n
        for _ in range(n):
            k1 = f(r, y)
            k2 = f(r + h / 2, (y[0] + h / 2 * k1[0], y[1] + h / 2 * k1[1]))
            k3 = f(r + h / 2, (y[0] + h / 2 * k2[0], y[1] + h / 2 * k2[1]))
            k4 = f(r + h, (y[0] + h * k3[0], y[1] + h * k3[1]))
            y = (y[0] + h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]),
                 y[1] + h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]))
            r += h
        return y[1]  # r^2 R' at the top: zero for an eigenfrequency
    # bracket around the height-uniform pressure's Rayleigh quotient
    b = A + TOP
    w0 = C * math.sqrt(LL * 3 * TOP / (b**3 - A**3))
    lo, hi = 0.98 * w0, 1.02 * w0
    flo = mismatch(lo)
    if flo * mismatch(hi) > 0:
        sys.exit("horizontal mode: no root of the radial equation near the Rayleigh quotient")
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        fm = mismatch(mid)
        if (fm > 0) == (flo > 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return 0.5 * (lo + hi)


def horizontal(n, deep):
    r = run("default_tight.ini", [
        f"--mesh.name=C{n}", "--extrusion.levels=8", "--initial.case=normal_mode",
        "--initial.mode=horizontal", "--initial.degree=2", f"--timestepping.dt={DT:g}",
        "--timestepping.steps=400", "--solver.preconditioner=multigrid",
        "--solver.method=prec_only", "--mixed_solver.tolerance=1e-6",
        "--mixed_solver.max_iterations=60", deep_flag(deep)], np=2)
    w = r["normal_mode"]["omega_measured"]
    return 2.0 / DT * math.tan(w * DT / 2.0)  # Crank-Nicolson's phase error out


hexact, hflat = horizontal_exact(True), horizontal_exact(False)
print(f"horizontal mode l = 2, exact: deep {hexact:.10f}, shallow {hflat:.10f} "
      f"({hexact / hflat - 1:+.3%})")
err = [horizontal(n, True) / hexact - 1 for n in (12, 24)]
print(f"  deep: errors at C12, C24: {err[0]:+.4%}, {err[1]:+.4%}")
check(abs(err[1]) < 0.005, f"horizontal mode, deep: error {err[1]:+.3%} below 0.5% at C24")
check(3.5 <= err[0] / err[1] <= 4.5, f"horizontal mode, deep: the error falls "
      f"{err[0] / err[1]:.2f}x from C12 to C24 (second order: 3.5-4.5)")

# ---- the linear core against the nonlinear core ----
G, T = 1e-3, 300.0
CP, RD = 1005.0, 287.05
c2 = CP / (CP - RD) * RD * T
n2 = G * G / (CP * T)
common = ["--mesh.name=C8", "--extrusion.levels=10", f"--extrusion.top={TOP:g}",
          "--planet.scaling=125", f"--planet.gravity={G!r}", f"--planet.cp={CP!r}",
          f"--planet.rd={RD!r}", "--planet.omega=0", "--initial.case=normal_mode",
          "--initial.mode=horizontal", "--initial.degree=2", "--initial.amplitude=1.0",
          "--timestepping.dt=10", "--timestepping.steps=100", "--timestepping.alpha=0.5",
          "--mixed_solver.tolerance=1e-9", "--mixed_solver.max_iterations=100",
          "--solver.method=cg", "--solver.preconditioner=multigrid", "--solver.tolerance=1e-9"]
lin, nl, wl, wn, mach = {}, {}, {}, {}, 0.0
for deep in (True, False):
    r = run("default.ini", common + [f"--physics.speed_of_sound={math.sqrt(c2)!r}",
                                     f"--physics.bvf_square={n2!r}", deep_flag(deep)])
    lin[deep], wl[deep] = norms(r), r["normal_mode"]["omega_measured"]
    mach = max(mach, r["max_u_over_run"] / math.sqrt(c2))
    r = run("resting.ini", common + [f"--initial.theta0={T:g}", deep_flag(deep)])
    nl[deep], wn[deep] = norms(r), r["normal_mode"]["omega_measured"]
    mach = max(mach, r["max_u_over_run"] / math.sqrt(c2))
bound = G * TOP / c2 + mach
print(f"linear vs nonlinear: bound g H / c^2 + max|u| / c = {G * TOP / c2:.2e} + {mach:.2e}")
for deep in (True, False):
    name = "deep" if deep else "shallow"
    d = abs(nl[deep]["u"] / lin[deep]["u"] - 1)
    check(d <= bound, f"{name}: |u| of the nonlinear core {nl[deep]['u']:.8e}, of the linear "
          f"{lin[deep]['u']:.8e}: relative difference {d:.2e} <= {bound:.2e}")
    d = abs(wn[deep] / wl[deep] - 1)
    check(wl[deep] > 0 and d <= bound, f"{name}: the mode's frequency, nonlinear {wn[deep]:.9e}, "
          f"linear {wl[deep]:.9e}: relative difference {d:.2e} <= {bound:.2e}")
# both cores' deep frequency is the deep one: nearer the shells' Rayleigh
# quotient (the height-uniform pressure's, 6e-5 from exact here) than the
# flat frequency, which is 9% away
b = A + TOP
wd, ws = math.sqrt(c2 * LL * 3 * TOP / (b**3 - A**3)), math.sqrt(c2 * LL) / A
for name, w in (("linear", wl[True]), ("nonlinear", wn[True])):
    check(abs(w - wd) < 0.5 * abs(wd - ws), f"{name} deep frequency {w:.6e}: within half the "
          f"deep shift of the deep {wd:.6e} (flat {ws:.6e})")
dw = abs(nl[True]["w"] - lin[True]["w"])
check(dw <= nl[False]["w"] + bound * lin[True]["w"],
      f"deep |w|: nonlinear {nl[True]['w']:.6e}, linear {lin[True]['w']:.6e}: difference "
      f"{dw:.2e} <= the shallow nonlinear run's gravity-made |w| {nl[False]['w']:.2e} "
      f"(+ the bound's share)")
check(lin[True]["w"] > nl[False]["w"],
      f"the deep |w| {lin[True]['w']:.2e} stands above gravity's {nl[False]['w']:.2e} (the "
      f"bound above is smaller than what it bounds)")

# ---- LFRic's example as shipped ----
EXAMPLE = os.path.join(HERE, "data", "lfric", "gravity_wave_example.nml")
# 1 and 2 ranks: 3 ranks on this 2-core machine spin for 55 s in MPICH's
# collectives (0.5 s on 1 or 2); other rank counts are the reproducibility tests'
ex = {np: run(EXAMPLE, [], np=np) for np in (1, 2)}
check(ex[1]["steps"] == 36 and ex[2]["steps"] == 36,
      f"LFRic's example ran {ex[1]['steps']} and {ex[2]['steps']} steps (36)")
check(ex[1]["checksums"] == ex[2]["checksums"],
      f"LFRic's example: the same checksums on 1 and 2 ranks {ex[2]['checksums']}")
mine = run("lfric_gravity_wave.nml", [], np=2)
check(mine["checksums"] == ex[2]["checksums"],
      "configs/lfric_gravity_wave.nml gives the example's checksums")
flat = run(EXAMPLE, ["--dynamics.shallow=true"], np=2)
nd, nf = norms(ex[2]), norms(flat)
for k in nd:
    d = abs(nd[k] / nf[k] - 1)
    check(ex[2]["checksums"][k] != flat["checksums"][k] and d < TOP / A,
          f"LFRic's example, shallow = true: |{k}| changes by {d:.2%} (below top / a "
          f"= {TOP / A:.1%})")

sys.exit(1 if failures else 0)
