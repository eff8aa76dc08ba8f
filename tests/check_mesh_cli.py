#!/usr/bin/python3
"""`gale mesh` refuses bad input with one line naming the option and value
(exit 2), and an unwritable output with a message, a non-zero exit and no
file left behind.  usage: check_mesh_cli.py GALE DIR"""
import os
import subprocess
import sys

gale, outdir = sys.argv[1], sys.argv[2]
out = os.path.join(outdir, "cli_mesh.nc")


def run(*args):
    return subprocess.run([gale, "mesh", *args], capture_output=True, text=True, timeout=60)


bad = [  # (arguments, text the message must contain)
    (["--mesh", "X12", "--out", out], "--mesh 'X12'"),
    (["--mesh", "C0", "--out", out], "--mesh 'C0'"),
    (["--mesh", "C8193", "--out", out], "--mesh 'C8193'"),
    (["--mesh", "C12x", "--out", out], "--mesh 'C12x'"),
    (["--mesh", "C-3", "--out", out], "--mesh 'C-3'"),
    (["--mesh=C", "--out", out], "--mesh 'C'"),
    (["--mesh", "C4", "--out", out, "--radius", "-1"], "--radius '-1'"),
    (["--mesh", "C4", "--out", out, "--radius", "nan"], "--radius 'nan'"),
    (["--mesh", "C4", "--out", out, "--scaling=abc"], "--scaling 'abc'"),
    (["--mesh", "C4", "--out", out, "--scaling", "0.5"], "--scaling '0.5'"),
    (["--mesh", "C4", "--out", out, "--levels", "3"], "'--levels'"),
    (["--mesh", "C4", "--out"], "--out needs a value"),
    (["--out", out], "--mesh"),
    (["--mesh", "C4"], "--out"),
    (["--mesh", "C4", "--out", ""], "--out ''"),
]
for args, text in bad:
    r = run(*args)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (args, r.returncode, r.stderr)
    assert len(lines) == 1 and text in lines[0], (args, r.stderr)
    assert not os.path.exists(out) and not os.path.exists(out + ".tmp"), args

# Unwritable: a missing directory, and a final name that is a directory:
# refused (exit 2) before the mesh is made, nothing written (docs/output.md,
# "Files and final names"; tests/check_paths.py has the other kinds).
for target in ("/nonexistent-gale-dir/sub/m.nc", os.path.join(outdir, "cli_mesh_dir.nc")):
    if target.startswith(outdir):
        os.makedirs(target, exist_ok=True)
    r = run("--mesh", "C4", "--out", target)
    assert r.returncode == 2, (target, r.returncode)
    assert "gale: error: --out: " in r.stderr and target in r.stderr, r.stderr
    assert not os.path.exists(target + ".tmp"), target
    assert not os.path.isfile(target), target
    if target.startswith(outdir):
        os.rmdir(target)

r = run("--help")
assert r.returncode == 0 and "usage: gale mesh" in r.stdout
print("check_mesh_cli: all checks passed")
