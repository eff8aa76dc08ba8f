#!/usr/bin/python3
"""Every path gale writes, checked before any work (docs/output.md, "Files
and final names"; issue 40 items 1, 6, 11, 12):
- a final name that is not a regular file (a pipe, a symbolic link, a
  directory, a character device as root) is refused with exit 2 on every
  rank before the first step, for --report, [io] dir's files, [checkpoint]
  dir's files, `gale mesh --out` and `gale iobench`'s files, and is left as
  it was;
- a report that cannot be written (no such directory) is refused before
  the run, not after it;
- a run removes the temporaries of gale's own naming left in its output
  and checkpoint directories by a killed run, names each in its log, and
  touches nothing else;
- as root, on a full file system: the report's failure names the reason
  (exit 5, no temporary left), and `gale mesh` fails cleanly (exit 5, no
  crash at exit, no temporary left).

usage: check_paths.py MPIEXEC GALE WORKDIR"""
import os
import shutil
import stat
import subprocess
import sys

import ranks

mpiexec, gale, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.chdir(work)
NP = 2
RUN = [gale, "run", "--mesh.name=C2", "--extrusion.levels=4", "--timestepping.steps=2"]
root = os.geteuid() == 0
checked = []


def fail(msg, r=None):
    ranks.fail("check_paths", msg, r)


def run(args, rc, says, np=NP):
    """gale run ARGS on np ranks: every rank exits rc, stderr has says."""
    r, codes = ranks.run_ranks(mpiexec, np, RUN + args, timeout=120)
    if codes != {i: rc for i in range(np)}:
        fail(f"{' '.join(args)}: exit statuses {codes}, expected {rc} on every rank", r)
    if says not in r.stderr:
        fail(f"{' '.join(args)}: the message does not say '{says}'", r)
    if rc == 2 and ("== summary" in r.stdout or "step     1/" in r.stdout):
        fail(f"{' '.join(args)}: refused after the run started, not before", r)
    checked.append(" ".join(args[:2]))
    return r


def untouched(path, mode):
    st = os.lstat(path)
    if stat.S_IFMT(st.st_mode) != mode:
        fail(f"{path} was replaced (now mode {oct(st.st_mode)})")
    if os.path.lexists(path + ".tmp"):
        fail(f"{path}.tmp left behind")


# --report on what is not a regular file
os.mkfifo("fifo")
os.symlink("target.json", "link")
specials = [("fifo", stat.S_IFIFO, "is a pipe"), ("link", stat.S_IFLNK, "is a symbolic link"),
            (".", stat.S_IFDIR, "is a directory")]
if root:
    os.mknod("dev", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    specials.append(("dev", stat.S_IFCHR, "is a character device"))
for name, mode, says in specials:
    run(["--report", name], 2, f"--report: '{name}' {says}")
    untouched(name, mode)
    if os.path.exists("target.json"):
        fail("the report was written through the symbolic link")
# a report whose directory is missing: refused before the run
run(["--report", "nodir/r.json"], 2, "cannot write 'nodir/r.json': No such file or directory")

# [io] dir and [checkpoint] dir: a final name of theirs that is not a regular file
os.makedirs("out")
os.mkfifo("out/gale_000002.nc")
run(["--diagnostics.fields=p", "--io.dir=out"], 2,
    "'out/gale_000002.nc' is a pipe, not a regular file")
untouched("out/gale_000002.nc", stat.S_IFIFO)
os.remove("out/gale_000002.nc")
os.makedirs("ck")
os.symlink("elsewhere", "ck/gale_ckpt_000002.ckpt")
run(["--checkpoint.period=2", "--checkpoint.dir=ck"], 2,
    "'ck/gale_ckpt_000002.ckpt' is a symbolic link, not a regular file")
untouched("ck/gale_ckpt_000002.ckpt", stat.S_IFLNK)
os.remove("ck/gale_ckpt_000002.ckpt")
with open("afile", "w"):
    pass
run(["--diagnostics.fields=p", "--io.dir=afile/sub"], 2,
    "[io] dir = \"afile/sub\": cannot create directory 'afile/sub': Not a directory")

# temporaries a killed run left: gale's are removed and named, others kept
stale = ["out/gale_000001.nc.tmp", "out/gale_000001_r00001.nc.tmp", "out/gale_000002_g0000.nc.tmp",
         "out/gale_000001.xmf.tmp", "out/mesh.nc.tmp", "ck/gale_ckpt_000001.ckpt.tmp"]
kept = ["out/notes.tmp", "out/gale_notes.nc.tmp", "out/gale_000001.nc.bak", "ck/gale_ckpt_x.ckpt.tmp"]
for p in stale + kept:
    with open(p, "w") as f:
        f.write("x")
r = run(["--diagnostics.fields=p", "--io.dir=out", "--checkpoint.period=2", "--checkpoint.dir=ck"],
        0, "a temporary left by an earlier run")
for p in stale:
    if os.path.exists(p):
        fail(f"{p}, a temporary of gale's naming, was not removed", r)
    if f"removed '{p}'" not in r.stderr:
        fail(f"the log does not name {p}", r)
for p in kept:
    if not os.path.exists(p):
        fail(f"{p} is not gale's temporary and was removed", r)
for p in ("out/gale_000002.nc", "ck/gale_ckpt_000002.ckpt"):
    if not os.path.isfile(p):
        fail(f"{p} was not written", r)
leftover = [n for d in ("out", "ck") for n in os.listdir(d)
            if n.endswith(".tmp") and os.path.join(d, n) not in kept]
if leftover:
    fail(f"temporaries left after the run: {leftover}", r)

# gale mesh --out
for name, mode, says in specials:
    m = subprocess.run([gale, "mesh", "--mesh", "C2", "--out", name], capture_output=True,
                       text=True, timeout=60)
    if m.returncode != 2 or f"--out: '{name}' {says}" not in m.stderr:
        fail(f"gale mesh --out {name}: exit {m.returncode}, expected 2 naming it\n{m.stderr}")
    untouched(name, mode)
checked.append("gale mesh --out")

# gale iobench: its scratch files and its results
os.makedirs("ib")
os.mkfifo("ib/iobench.posix.000000.dat")
r, codes = ranks.run_ranks(mpiexec, 1, [gale, "iobench", "--dir", "ib", "--out", "ib"], timeout=60)
if codes != {0: 2} or "--dir: 'ib/iobench.posix.000000.dat' is a pipe" not in r.stderr:
    fail(f"gale iobench with a pipe among its files: {codes}", r)
untouched("ib/iobench.posix.000000.dat", stat.S_IFIFO)
checked.append("gale iobench --dir")

# a full file system (a small tmpfs: root only)
if not root:
    print("check_paths: not root: the character device and the full file system were not tried")
else:
    os.makedirs("full")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", "full"]).returncode:
        fail("cannot mount a tmpfs as root")
    try:
        m = subprocess.run([gale, "mesh", "--mesh", "C24", "--out", "full/m.nc"],
                           capture_output=True, text=True, timeout=60)
        if m.returncode != 5 or "No space left on device" not in m.stderr:
            fail(f"gale mesh on a full disk: exit {m.returncode}, expected 5 naming the cause\n"
                 f"{m.stderr}")
        if os.listdir("full"):
            fail(f"gale mesh on a full disk left {os.listdir('full')}")
        fd = os.open("full/fill", os.O_WRONLY | os.O_CREAT)  # filled: no room for the report
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        os.close(fd)
        run(["--report", "full/r.json"], 5, "cannot write 'full/r.json': No space left on device",
            np=1)
        if os.listdir("full") != ["fill"]:
            fail(f"the report on a full disk left {os.listdir('full')}")
        checked.append("full file system")
    finally:
        subprocess.run(["umount", "-l", "full"])
print("check_paths: ok:", "; ".join(checked))
