#!/usr/bin/python3
"""Threads per rank (docs/configuration.md): with OMP_NUM_THREADS unset a
rank takes the node's cores over the node's ranks (at least 1) and the
header says so; with it set, gale obeys it and warns when ranks x threads
exceed the cores.

usage: check_threads.py MPIEXEC GALE CONFIG
"""
import json
import os
import sys
import tempfile

import ranks

mpiexec, gale, config = sys.argv[1:4]
cores = os.sysconf("SC_NPROCESSORS_ONLN")
base = dict(os.environ)
base.pop("OMP_NUM_THREADS", None)
tmp = tempfile.mkdtemp(prefix="gale_threads_")


def run(np, env):
    rep = os.path.join(tmp, "r.json")
    r, codes = ranks.run_ranks(mpiexec, np, [gale, "run", config, "--dynamics.mass_matrix=lumped", "--timestepping.steps=2",
                                             "--diagnostics.fields=", "--logging.progress_every=0",
                                             f"--report={rep}"], 120, env=env, cwd=tmp)
    if set(codes.values()) != {0}:
        ranks.fail("check_threads", f"{np} ranks: exit {codes}", r)
    return r, json.load(open(rep))["threads"]


for np in (1, 2):
    want = max(1, cores // np)
    r, t = run(np, base)
    line = f"{np} ranks x {want} threads (OMP_NUM_THREADS unset: {cores} cores / {np} ranks on the node)"
    if t != want or line not in r.stdout:
        ranks.fail("check_threads", f"unset, {np} ranks: {t} threads (want {want}) and the header "
                   f"'{line}'", r)
    if "oversubscribed" in r.stderr:
        ranks.fail("check_threads", f"unset, {np} ranks: warned of oversubscription", r)
    print(f"check_threads: unset, {np} ranks on {cores} cores: {t} threads each")
# set: obeyed, and oversubscription (2 ranks x cores threads) warned of once
t_set = cores
r, t = run(2, dict(base, OMP_NUM_THREADS=str(t_set)))
if t != t_set or "unset" in r.stdout or "oversubscribed" not in r.stderr:
    ranks.fail("check_threads", f"OMP_NUM_THREADS={t_set}, 2 ranks: {t} threads, want {t_set} "
               "and the oversubscription warning", r)
print(f"check_threads: OMP_NUM_THREADS={t_set} on 2 ranks: obeyed, warned")
