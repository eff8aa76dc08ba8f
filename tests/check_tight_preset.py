"""configs/default_tight.ini is a full copy of configs/default.ini (the INI
reader has no include) that must differ only in the inner solve: both are
run for one step on C4 and their resolved configurations compared; any other
key that differs (a copy left behind by an edit of the default case) fails.

usage: check_tight_preset.py GALE ROOT OUT"""
import json
import os
import subprocess
import sys

gale, root, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
# what the tight preset is for (its header comment): the solver, and no
# mixed abs_tolerance
EXPECTED = {"solver.method", "solver.preconditioner", "solver.tolerance",
            "solver.max_iterations", "mixed_solver.abs_tolerance"}
conf = {}
for name in ("default", "default_tight"):
    rep = os.path.join(out, name + ".json")
    subprocess.run([gale, "run", os.path.join(root, "configs", name + ".ini"), "--mesh.name=C4",
                    "--timestepping.steps=1", "--diagnostics.fields=", "--logging.progress_every=0",
                    "--io.dir=" + out, "--checkpoint.period=0", "--report", rep],
                   check=True, stdout=subprocess.DEVNULL, timeout=100)
    conf[name] = json.load(open(rep))["config"]["resolved"]
a, b = conf["default"], conf["default_tight"]
diff = {f"{s}.{k}" for s in set(a) | set(b) for k in set(a.get(s, {})) | set(b.get(s, {}))
        if a.get(s, {}).get(k) != b.get(s, {}).get(k)}
print("keys that differ:", ", ".join(sorted(diff)))
if not diff <= EXPECTED or "solver.method" not in diff:
    sys.exit(f"FAIL: default_tight.ini differs from default.ini in {sorted(diff - EXPECTED)}"
             f" (expected only {sorted(EXPECTED)}, solver.method among them)")
