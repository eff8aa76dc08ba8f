"""Fuzz of every input gale reads (docs/configuration.md, "The input fuzz"),
with fixed seeds:

  nml        mutated copies of the shipped LFRic namelists (configs/lfric_*.nml):
             bytes flipped, '=', '/' and quotes deleted, lines duplicated
             (duplicate keys), swapped or dropped, NUL bytes, CR and CRLF line
             ends, long and odd numbers, many keys
  ini        mutated copies of configs/*.ini: the same, and values replaced by
             odd ones (1e-400, nan, inf, 1e999, huge integers, empty, quotes,
             very long), section headers broken, keys misspelt, duplicated or
             moved outside any section, a byte-order mark
  override   command lines: a configuration file or none, then mutated
             --section.key=value arguments (the odd values above, '=', '.' or
             '--' missing, unknown sections and keys, very long values, quotes,
             binary bytes without NUL)
  restart    mutated copies of a small real checkpoint (C2, 3 levels, step 2,
             written here by GALE): bytes flipped, truncated, appended to,
             header fields changed with and without recomputed checksums
             (tools/gale_ckpt.py's hash), a pipe and a directory; read by the
             restart's header checks (nml_check --restart)
  run        some of those restarted by `gale run` on 2 ranks: the whole path,
             the field data, the comparison with the run and every rank's exit

nml_check reads each case as `gale run` does, without MPI or a model, each in
a child process of its own; the run cases are whole `gale run --restart`
jobs. A case passes when it ends in exit 0 or 2 (a signal, a timeout, any
other status fails), an exit 2 names its input ("gale: error: FILE",
"restart file 'FILE'", or for an override the argument or its key), nothing
prints a sanitizer report (when built with them: the debug-asan preset;
leaks included for nml_check), and no file is left behind. Each case also
says which exits it allows: 2 only when the mutation makes the input invalid
whatever else it hit (a NUL byte, nan for a number, a forged step of -1);
exit 0 is allowed only with a reason, printed with the counts:
  - a mutation that can leave a valid input (a comment or a blank line
    changed, a number replaced by another in range, two lines of a section
    swapped): nml_check then reads the accepted configuration's dump back
    and requires the same configuration (else exit 98), so exit 0 means a
    valid input, not one the reader let through;
  - a checkpoint byte changed in the field data: the header checks do not
    read it (the run cases do, and must refuse it);
  - a forged header value that is possible in itself (a finite energy, an
    extrusion method gale knows): the header checks cannot tell it from a
    real one; the run compares it with its own configuration.
A failing case is kept in OUT.

usage: check_nml_fuzz.py NML_CHECK ROOT OUT [CASES] [--ini N] [--override N]
                         [--restart N] [--runs N --gale GALE --mpiexec MPIEXEC] [--seed S]
CASES: namelist cases (400)."""
import argparse
import os
import random
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import gale_ckpt  # noqa: E402  (the checkpoint layout and hash, docs/checkpoint.md)

ap = argparse.ArgumentParser()
ap.add_argument("check")
ap.add_argument("root")
ap.add_argument("out")
ap.add_argument("cases", nargs="?", type=int, default=400)
ap.add_argument("--ini", type=int, default=0)
ap.add_argument("--override", type=int, default=0)
ap.add_argument("--restart", type=int, default=0)
ap.add_argument("--runs", type=int, default=0)
ap.add_argument("--gale")
ap.add_argument("--mpiexec")
ap.add_argument("--seed", type=int, default=29, help="the first of 5 seeds (another: other cases)")
opt = ap.parse_args()
opt.gale = opt.gale and os.path.abspath(opt.gale)
opt.mpiexec = opt.mpiexec and os.path.abspath(opt.mpiexec)
check, root, out, cases = opt.check, opt.root, os.path.abspath(opt.out), opt.cases
SEED = opt.seed
SANITIZER = ("runtime error:", "AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer")
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
# the readers alone (no MPI): a leak on any error path is a failure too
env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1")
seeds = [open(os.path.join(root, "configs", n), "rb").read()
         for n in ("lfric_gravity_wave.nml", "lfric_gungho.nml")]
rng = random.Random(SEED)
NUMBERS = [b"-9223372036854775807", b"9223372036854775808", b"99999999999999999999999",
           b"1" * 300, b"0x1p3", b"1e999", b"-0", b"0", b"1.0d-400", b"nan", b"inf", b"3*",
           b"2147483648", b"-1", b".5e", b"1.2.3"]
ANY, BAD = ("0", "2"), ("2",)


def positions(text, chars):
    return [i for i, c in enumerate(text) if c in chars]


def delete_one(text, chars):
    p = positions(text, chars)
    if not p:
        return text
    i = rng.choice(p)
    return text[:i] + text[i + 1:]


def mutate(text):
    kind = rng.randrange(12)
    lines = text.split(b"\n")
    if kind == 0:  # flip bytes
        b = bytearray(text)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b)
    if kind == 1:
        return delete_one(text, b"=")
    if kind == 2:
        return delete_one(text, b"/")
    if kind == 3:
        return delete_one(text, b"'\"")
    if kind == 4:  # a duplicated line: duplicate keys, groups, '/'
        i = rng.randrange(len(lines))
        return b"\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:])
    if kind == 5:  # NUL bytes
        i = rng.randrange(len(text) + 1)
        return text[:i] + b"\0" * rng.randint(1, 3) + text[i:]
    if kind == 6:  # line ends
        return text.replace(b"\n", rng.choice([b"\r", b"\r\n", b"\n\r"]))
    if kind == 7:  # a number replaced by a long or odd one
        p = positions(text, b"0123456789")
        if not p:
            return text
        i = rng.choice(p)
        j = i
        while j < len(text) and text[j:j + 1] in b"0123456789.eEdD+-":
            j += 1
        return text[:i] + rng.choice(NUMBERS) + text[j:]
    if kind == 8:  # many keys in one group
        n = rng.choice([63, 64, 65, 66, 200])
        keys = b"".join(b" f%d_ancil_path = 'x'\n" % k for k in range(n))
        return text + b"\n&files\n" + keys + b"/\n"
    if kind == 9:  # lines swapped
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)
    if kind == 10:  # a line dropped
        del lines[rng.randrange(len(lines))]
        return b"\n".join(lines)
    # a chunk truncated or repeated
    i = rng.randrange(len(text))
    return text[:i] if rng.random() < 0.5 else text[:i] + text[i - rng.randint(0, i):]


# every case: (kind, path, allowed exits, what the mutation was, what an
# exit 2 must name)
CASES = []


def add(kind, path, data, allowed, note, names=None):
    with open(path, "wb") as f:
        f.write(data)
    CASES.append((kind, path, allowed, note, names))


# ---- LFRic namelists: the namelist reader's own fuzz, unchanged ----
for c in range(cases):
    text = rng.choice(seeds)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        text = mutate(text)
    p = os.path.join(out, "case%03d.nml" % c)
    add("nml", p, text, ANY, "mutated", [b"gale: error: " + p.encode()])

# ---- the key table: what a value of each key may be ----
KEYS = []
keytable = subprocess.run([check, "--keys"], stdout=subprocess.PIPE, check=True).stdout
for line in keytable.split(b"\n"):
    if line:
        sec, key, typ, choices = line.decode().split(" ", 3)
        KEYS.append((sec, key, typ, choices.lower().split("|") if choices != "-" else []))
KEYTYPE = {(s, k): (t, c) for s, k, t, c in KEYS}
# odd values; the ones no number reads as
ODD = [b"1e-400", b"-1e-400", b"nan", b"NaN", b"-nan", b"inf", b"-inf", b"Infinity", b"1e999",
       b"-1e999", b"1e308", b"0x1p-1074", b"4.9e-324", b"2.2250738585072014e-308",
       b"9223372036854775808", b"-9223372036854775809", b"2147483648", b"-2147483649",
       b"99999999999999999999", b"1" * 400, b"", b" ", b"0", b"-0", b"-1", b"1", b"0.5", b"1.5",
       b"1e3", b"1.0d0", b"true", b"yes", b"C4", b"C0", b"'quoted'", b"\"0.5\"", b"'unbalanced",
       b"\"x'", b"a#b", b"x;y", b"  7  ", b"uniform", b"cg", b"0.1", b"1e-3"]
SPACE = b" \t\n\v\f\r"


def allowed_value(sec, key, v):
    """The exits a value of [sec] key may give: 2 where no reading of it is
    valid for the key's type (a number that is nan, infinite, an underflow
    or no number; an empty value; a boolean or a choice that is none), else
    0 or 2 (whether it is in range is the reader's rule, and an exit 0 is
    read back by nml_check)."""
    typ, choices = KEYTYPE.get((sec, key), ("unknown", []))
    if typ == "unknown":
        return BAD
    v = v.strip(SPACE)
    if v[:1] in (b"'", b'"'):
        if len(v) < 2 or v[-1:] != v[:1]:
            return BAD  # an unbalanced quote
        v = v[1:-1]
    if typ == "string":
        return BAD if len(v) >= 1024 else ANY
    try:
        s = v.decode("ascii").lower()
    except UnicodeDecodeError:
        return BAD
    if typ == "bool":
        return ANY if s in ("true", "false", "yes", "no", "on", "off", "1", "0") else BAD
    if typ == "enum":
        return ANY if s in choices else BAD
    if typ == "mesh":
        return ANY if s[:1] == "c" and s[1:].isdigit() else BAD
    if typ == "int":
        d = s[1:] if s[:1] in "+-" else s
        return ANY if d.isdigit() and len(d) < 30 and abs(int(s)) < 2 ** 31 else BAD
    try:  # real: what C's strtod reads whole, hexadecimal included
        x = float.fromhex(s) if "0x" in s[:3] else float(s.replace("_", "?"))
    except ValueError:
        return BAD
    if x != x or abs(x) == float("inf") or (x != 0 and abs(x) < 2.2250738585072014e-308):
        return BAD
    if x == 0 and any(ch in "123456789" for ch in s.split("e")[0]):
        return BAD  # a non-zero literal that underflows to 0
    return ANY


def ini_section_of(lines, i):
    sec = b""
    for line in lines[:i]:
        t = line.strip(SPACE)
        if t.startswith(b"[") and t.endswith(b"]"):
            sec = t[1:-1].strip(SPACE)
    return sec.decode("ascii", "replace")


def key_lines(lines):
    return [i for i, l in enumerate(lines) if b"=" in l and not l.lstrip().startswith((b"#", b";"))]


def mutate_ini(text, r):
    """An INI-specific mutation: (text, allowed exits, note)."""
    lines = text.split(b"\n")
    kl = key_lines(lines)
    kind = r.randrange(8)
    if kind <= 2 and kl:  # a value replaced by an odd one
        i = r.choice(kl)
        k = lines[i].split(b"=", 1)[0].strip(SPACE)
        v = r.choice(ODD + [bytes(r.randrange(1, 256) for _ in range(r.randint(1, 20)))])
        lines[i] = k + b" = " + v
        sec = ini_section_of(lines, i)
        allowed = allowed_value(sec, k.decode("ascii", "replace"), v)
        if b"\r" in v or b"\n" in v or b"#" in v or b";" in v:
            allowed = ANY  # a line end or a comment changes what the value is
        return b"\n".join(lines), allowed, "value: %r" % v[:20]
    if kind == 3 and kl:  # a key line duplicated: a duplicate key
        i = r.choice(kl)
        return b"\n".join(lines[:i + 1] + [lines[i]] + lines[i + 1:]), BAD, "duplicate key"
    if kind == 4 and kl:  # a key misspelt
        i = r.choice(kl)
        k, rest = lines[i].split(b"=", 1)
        k = k.strip(SPACE)
        lines[i] = k[:-1] + b"_x" + b" =" + rest
        return b"\n".join(lines), BAD, "unknown key"
    if kind == 5 and kl:  # a key moved above every section
        i = r.choice(kl)
        line = lines.pop(i)
        return b"\n".join([line] + lines), BAD, "key outside a section"
    if kind == 6:  # a section header broken
        hs = [i for i, l in enumerate(lines) if l.startswith(b"[")]
        if hs:
            i = r.choice(hs)
            lines[i] = lines[i].replace(b"]", b"", 1) if r.random() < 0.5 else lines[i][1:]
            return b"\n".join(lines), BAD, "section header broken"
    if kind == 7:  # a UTF-8 byte-order mark
        return b"\xef\xbb\xbf" + text, ANY, "byte-order mark"
    return text, ANY, "unchanged"


# ---- INI files ----
ini_names = sorted(n for n in os.listdir(os.path.join(root, "configs")) if n.endswith(".ini"))
ini_seeds = [open(os.path.join(root, "configs", n), "rb").read() for n in ini_names]
ri = random.Random(SEED + 1)
for c in range(opt.ini):
    text = ri.choice(ini_seeds)
    if ri.random() < 0.5:
        text, allowed, note = mutate_ini(text, ri)
    else:  # the namelist fuzz's mutations, drawn from this kind's generator
        global_rng, rng = rng, ri
        text = mutate(text)
        rng = global_rng
        allowed, note = (BAD, "NUL byte") if b"\0" in text else (ANY, "mutated")
    if b"\0" in text:
        allowed = BAD
    p = os.path.join(out, "ini%03d.ini" % c)
    add("ini", p, text, allowed, note, [b"gale: error: " + p.encode()])

# ---- command-line overrides ----
ro = random.Random(SEED + 2)
default_ini = os.path.join(os.path.abspath(root), "configs", "default.ini").encode()
for c in range(opt.override):
    sec, key, typ, _ = ro.choice(KEYS)
    kind = ro.randrange(6)
    if kind <= 2:  # an odd value
        v = ro.choice(ODD)
        arg, allowed, note = b"--%s.%s=%s" % (sec.encode(), key.encode(), v), \
            allowed_value(sec, key, v), "value: %r" % v[:20]
    elif kind == 3:  # binary bytes (no NUL, one at least not ASCII)
        v = bytes(ro.randrange(1, 256) for _ in range(ro.randint(0, 30))) + b"\xff"
        arg, allowed, note = b"--%s.%s=%s" % (sec.encode(), key.encode(), v), \
            allowed_value(sec, key, v), "binary value"
    elif kind == 4:  # a very long value
        v = b"7" * ro.choice([1023, 1024, 2100, 5000])
        arg, allowed, note = b"--%s.%s=%s" % (sec.encode(), key.encode(), v), \
            allowed_value(sec, key, v), "long value"
        if len(arg) >= 2048:
            allowed = BAD
    else:  # the shape of the argument
        forms = [(b"--%s.%s" % (sec.encode(), key.encode()), BAD, "no '='"),
                 (b"--%s%s=1" % (sec.encode(), key.encode()), BAD, "no '.'"),
                 (b"--%sx.%s=1" % (sec.encode(), key.encode()), BAD, "unknown section"),
                 (b"--%s.%sx=1" % (sec.encode(), key.encode()), BAD, "unknown key"),
                 (b"--%s.%s =1" % (sec.encode(), key.encode()), BAD, "blank in the key"),
                 (b"---%s.%s=1" % (sec.encode(), key.encode()), BAD, "three dashes"),
                 (b"--=", BAD, "empty"), (b"", BAD, "empty argument"), (b"--.=", BAD, "only '.='"),
                 (bytes(ro.randrange(1, 256) for _ in range(ro.randint(1, 40))) + b"\xff", BAD,
                  "binary argument")]
        arg, allowed, note = ro.choice(forms)
    args = [default_ini if ro.random() < 0.5 else b"", arg]
    if ro.random() < 0.3:  # a good override before it
        args.insert(1, b"--timestepping.steps=3")
    p = os.path.join(out, "override%03d.args" % c)
    shown = bytes(63 if c < 0x20 or c == 0x7f else c for c in arg)  # control bytes as '?'
    names = [arg, arg[:40], shown, shown[:40]]
    if arg.startswith(b"--") and b"." in arg and b"=" in arg:
        s, k = arg[2:].split(b"=", 1)[0].split(b".", 1)
        names.append(b"[%s] %s" % (s, k))
    if not arg:
        names = [b"command line"]
    add("override", p, b"".join(a + b"\0" for a in args), allowed, note, names)

# ---- restart files ----
CASE = ["--mesh.name=C2", "--extrusion.levels=3", "--dynamics.mass_matrix=lumped",
        "--logging.progress_every=0"]
base = None
if opt.restart or opt.runs:
    if not opt.gale or not opt.mpiexec:
        sys.exit("check_nml_fuzz: restart cases need --gale and --mpiexec")
    d = os.path.join(out, "base")
    os.makedirs(d)
    r = subprocess.run([opt.gale, "run", *CASE, "--timestepping.steps=2", "--checkpoint.period=2",
                        f"--checkpoint.dir={d}"], capture_output=True, text=True, timeout=300,
                       cwd=d,
                       env=dict(os.environ, OMP_NUM_THREADS="1", ASAN_OPTIONS="detect_leaks=0"))
    basepath = os.path.join(d, "gale_ckpt_000002.ckpt")
    if r.returncode != 0 or not os.path.exists(basepath):
        sys.exit(f"check_nml_fuzz: the base checkpoint run failed ({r.returncode})\n"
                 f"{r.stderr[-3000:]}")
    base = gale_ckpt.read(basepath)

MASK = 2 ** 64 - 1


def reseal(b):
    """The base's header hash and trailer recomputed over b (tools/gale_ckpt.py's hash)."""
    H, F = base.header_bytes, base.file_bytes
    if len(b) < F:
        return b
    hh = gale_ckpt.header_hash(b, H)
    struct.pack_into("<Q", b, H - 8, hh)
    struct.pack_into("<Q", b, F - gale_ckpt.TRAILER_BYTES + 24,
                     (hh + sum(f.hash for f in base.fields)) & MASK)
    return b


def forged(r):
    """A header value changed, checksums recomputed: (bytes, allowed, note)."""
    b = bytearray(base.data)
    S, R, M = gale_ckpt.OFF_STATE, gale_ckpt.OFF_RUN, gale_ckpt.OFF_MESH
    zoff = gale_ckpt.HEAD_BYTES
    poff = zoff + 8 * (base.levels + 1)
    nan, inf = float("nan"), float("inf")
    # (format, offset, value, allowed by the header checks, by a run, name).
    # ANY for the header: possible in itself; a run compares it with its own
    # set-up (time with step x dt, energy0 and the mesh with its own)
    choices = [
        ("<q", R, r.choice([-1, -2 ** 63, 2 ** 31, 2 ** 62, 1, 3]), BAD, BAD, "step"),
        ("<q", R + 8, r.choice([0, 1, 4, -1, 10 ** 9]), BAD, BAD, "probe length"),
        ("<q", R + 16, r.choice([0, 1, -1, 10 ** 9]), BAD, BAD, "config bytes"),
        ("<d", S, r.choice([nan, inf, -inf, -1.0]), BAD, BAD, "time"),
        ("<d", S, r.choice([0.0, 1e300, 200.5]), ANY, BAD, "time possible"),
        ("<d", S + 8 * r.randrange(1, 4), r.choice([nan, inf, -inf]), BAD, BAD, "energy"),
        ("<d", S + 8 * r.randrange(1, 3), r.choice([0.0, -5.0, 1e30]), ANY, BAD, "energy possible"),
        ("<d", S + 8 * r.randrange(4, 8), r.choice([nan, -1.0, -inf]), BAD, BAD, "maximum"),
        ("<q", M + 16, r.choice([-1, 8, 99, 2 ** 40]), BAD, BAD, "extrusion method"),
        ("<q", M + 16, r.choice([1, 2, 3]), ANY, BAD, "extrusion method possible"),
        ("<q", M, r.choice([0, -1, 2 ** 40]), BAD, BAD, "mesh N"),
        ("<q", M, r.choice([3, 1000]), ANY, BAD, "mesh N possible"),
        ("<q", M + 8, r.choice([0, -1, 10 ** 6]), BAD, BAD, "levels"),
        ("<q", M + 24, r.choice([0, 9, -1]), BAD, BAD, "fields"),
        ("<d", gale_ckpt.OFF_PLANET + 8 * r.randrange(3), r.choice([0.0, -1.0, nan]), BAD, BAD,
         "planet"),
        ("<d", zoff + 8 * r.randrange(base.levels + 1), r.choice([nan, inf, -inf]), BAD, BAD,
         "interface height"),
        ("<d", zoff + 8 * r.randrange(1, base.levels), r.choice([-1e9, 1e9]), BAD, BAD,
         "interface height out of order"),
        ("<d", zoff, -1e9, ANY, BAD, "interface height possible"),
        ("<d", zoff + 8 * base.levels, 1e9, ANY, BAD, "interface height possible"),
        ("<d", poff + 8 * r.randrange(base.nprobe), nan, BAD, BAD, "probe value"),
        ("<I", gale_ckpt.OFF_VERSION, r.choice([0, 1, 3, 2 ** 31]), BAD, BAD, "version"),
        ("<I", gale_ckpt.OFF_BYTE_ORDER, 0x04030201, BAD, BAD, "byte order"),
        ("<Q", gale_ckpt.OFF_FILE_BYTES, base.file_bytes + r.choice([-8, 8, 4096]), BAD, BAD,
         "file bytes"),
        ("<Q", gale_ckpt.OFF_HEADER_BYTES, r.choice([0, 4096 * 2, 4095]), BAD, BAD, "header bytes"),
        ("config",) * 6,
        ("writer",) * 6,
    ]
    fmt, off, val, allowed, run_allowed, name = r.choice(choices)
    if fmt == "config":
        return forged_config(r)
    if fmt == "writer":  # only printed: any 64 bytes, not NUL-terminated
        w = gale_ckpt.OFF_WRITER
        b[w:w + 64] = bytes(r.randrange(1, 256) for _ in range(64))
        return bytes(reseal(b)), ANY, ANY, "forged writer (only printed)"
    struct.pack_into(fmt, b, off, val)
    if bytes(b) == base.data:
        allowed = run_allowed = ANY
    return bytes(reseal(b)), allowed, run_allowed, "forged %s: %r" % (name, val)


def forged_config(r):
    """The stored configuration changed, checksums recomputed."""
    lines = base.config.split("\n")
    kl = [i for i, l in enumerate(lines) if " = " in l]
    kind = r.randrange(5)
    i = r.choice(kl)
    if kind == 0:
        lines.insert(i + 1, lines[i])
        text, allowed, note = "\n".join(lines), BAD, "forged config: duplicate key"
    elif kind == 1:
        lines.insert(i, r.choice(["garbage", "key=value", "[x", " = 1", "name = ", "[mesh] x"]))
        text, allowed, note = "\n".join(lines), BAD, "forged config: bad line"
    elif kind == 2:  # a run refuses it for a key that defines the experiment
        k = lines[i].split(" = ")[0]
        lines[i] = k + " = " + r.choice(["C99", "7", "nan", "x"])
        text, allowed, note = "\n".join(lines), ANY, "forged config value (compared by a run)"
    elif kind == 3:  # likewise
        del lines[i]
        text, allowed, note = "\n".join(lines), ANY, "forged config key dropped (compared by a run)"
    else:  # a NUL byte inside the text
        text, allowed, note = (base.config[:100] + "\0" + base.config[100:], BAD,
                               "forged config: NUL")
    return bytes(reseal(bytearray(base.rewritten(config=text)))), allowed, allowed, note


def mutate_ckpt(r):
    """(bytes or a special kind, allowed exits of the header checks, of a run, note)."""
    data, H, F = base.data, base.header_bytes, base.file_bytes
    kind = r.randrange(7)
    if kind == 0:  # bytes flipped (always changed)
        b = bytearray(data)
        offs = [r.randrange(len(b)) for _ in range(r.randint(1, 8))]
        if r.random() < 0.3:  # all in the header region
            offs = [o % H for o in offs]
        for o in offs:
            b[o] ^= r.randrange(1, 256)
        in_data = all(H <= o < F - gale_ckpt.TRAILER_BYTES for o in offs)
        return (bytes(b), ANY if in_data else BAD, BAD,
                "flipped %s" % ("field data (not read by the header checks)" if in_data
                                else "header"))
    if kind == 1:
        n = r.randrange(len(data))
        return data[:n], BAD, BAD, "truncated"
    if kind == 2:
        tail = bytes(r.randrange(256) for _ in range(r.randint(1, 200)))
        return data + tail, BAD, BAD, "appended"
    if kind == 3:  # a header value changed, checksums left as they were
        b = bytearray(data)
        o = r.randrange(gale_ckpt.HEAD_BYTES)
        b[o] ^= r.randrange(1, 256)
        return bytes(b), BAD, BAD, "header changed, not resealed"
    if kind == 4 and r.random() < 0.2:
        return r.choice(["fifo", "directory"]), BAD, BAD, "not a regular file"
    return forged(r)


rr = random.Random(SEED + 3)
for c in range(opt.restart):
    b, allowed, _, note = mutate_ckpt(rr)
    p = os.path.join(out, "restart%03d.ckpt" % c)
    names = [b"gale: error: restart file '%s'" % p.encode()]
    if b in ("fifo", "directory"):
        os.mkfifo(p) if b == "fifo" else os.mkdir(p)
        CASES.append(("restart", p, allowed, note + " (%s)" % b, names))
    else:
        add("restart", p, b, allowed, note, names)

# ---- run them ----
t0 = time.time()
status = {}
for kind, flag in (("nml", []), ("ini", []), ("override", ["--args"]), ("restart", ["--restart"])):
    paths = [c[1] for c in CASES if c[0] == kind]
    if paths:
        r = subprocess.run([check, *flag, *paths], stdout=subprocess.PIPE, env=env, check=True,
                           timeout=60 + 2 * len(paths))
        status.update(dict(line.split(" ", 1)[::-1] for line in r.stdout.decode().splitlines()))


def leftovers(d, keep):
    """Files under d other than keep: what a case left behind."""
    return sorted(os.path.join(a, f) for a, _, fs in os.walk(d) for f in fs
                  if os.path.join(a, f) not in keep)


# ---- whole restarts on 2 ranks ----
def run_bytes(np, argv, timeout, env, cwd):
    """tests/ranks.py's run_ranks, its output kept as bytes (a forged file's text is any
    bytes, and gale prints some of it): (stdout + stderr, {rank: exit})."""
    wrap = ('"$@"; s=$?; echo "gale-exit ${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-${SLURM_PROCID:-0}}}'
            ' $s" >&2; exit $s')  # tests/ranks.py's
    r = subprocess.run([opt.mpiexec, "-n", str(np), "sh", "-c", wrap, "sh", *argv],
                       capture_output=True, timeout=timeout, env=env, cwd=cwd)
    codes = {}
    for line in r.stderr.splitlines():
        if line.startswith(b"gale-exit "):
            _, rank, code = line.split()
            codes[int(rank)] = int(code)
    return r.stdout + r.stderr, codes


run_results = {}
rw = random.Random(SEED + 4)
rundir = os.path.join(out, "run")
for c in range(opt.runs):
    if c == 0:  # the control: the base file itself restarts
        b, run_allowed, note = base.data, ("0",), "unchanged (control)"
    else:
        b, _, run_allowed, note = mutate_ckpt(rw)
    p = os.path.join(out, "run%03d.ckpt" % c)
    if b in ("fifo", "directory"):
        os.mkfifo(p) if b == "fifo" else os.mkdir(p)
        note += " (%s)" % b
    else:
        open(p, "wb").write(b)
    os.makedirs(rundir, exist_ok=True)
    e = dict(os.environ, OMP_NUM_THREADS="1", ASAN_OPTIONS="detect_leaks=0")
    try:
        text, codes = run_bytes(2, [opt.gale, "run", *CASE, "--timestepping.steps=3", "--restart",
                                    p], 120, e, rundir)
        st = "2" if codes == {0: 2, 1: 2} else "0" if codes == {0: 0, 1: 0} else "ranks %s" % codes
    except subprocess.TimeoutExpired:
        text, st = b"", "timeout"
    left = [f for f in leftovers(rundir, set()) if f.endswith(".tmp") or st != "0"]
    shutil.rmtree(rundir)
    run_results[p] = (st, text, run_allowed, note, left)
    CASES.append(("run", p, run_allowed, note, [b"gale: error: restart file '%s'" % p.encode()]))
dt = time.time() - t0

failures, counts, accepted = [], {}, {}
for kind, path, allowed, note, names in CASES:
    if kind == "run":
        rc, err, _, _, left = run_results[path]
    else:
        rc = status.get(path, "none")
        err = open(path + ".err", "rb").read() if os.path.exists(path + ".err") else b""
        left = []
    counts.setdefault(kind, {})
    counts[kind][rc] = counts[kind].get(rc, 0) + 1
    why = None
    if rc not in ("0", "2"):
        why = "exit %s" % rc
    elif rc not in allowed:
        why = "exit %s where only %s is right (%s)" % (rc, " or ".join(allowed), note)
    elif any(s.encode() in err for s in SANITIZER):
        why = "a sanitizer report"
    elif rc == "2" and not (b"gale: error: " in err and any(n in err for n in names)):
        why = "the message does not name the input (%s)" % note
    elif left:
        why = "left %s" % left
    if rc == "2" and kind == "run" and err.count(b"gale: error: ") != 1:
        why = why or "%d error messages, want one (rank 0's)" % err.count(b"gale: error: ")
    if why:
        failures.append("%s (%s): %s\n%s" % (path, kind, why,
                                              err[-2000:].decode("utf-8", "replace")))
        continue
    if rc == "0":
        cat = "%s: %s" % (kind, note.split(":")[0])
        accepted[cat] = accepted.get(cat, 0) + 1
    if os.path.isdir(path):
        os.rmdir(path)
    elif os.path.lexists(path):
        os.remove(path)
    if os.path.exists(path + ".err"):
        os.remove(path + ".err")
if base is not None:
    shutil.rmtree(os.path.join(out, "base"))
total = sum(sum(v.values()) for v in counts.values())
print("%d cases (seeds %d..%d) in %.1f s" % (total, SEED, SEED + 4, dt))
for kind in ("nml", "ini", "override", "restart", "run"):
    if kind in counts:
        print("  %-9s %4d cases, exit status counts %s" % (kind, sum(counts[kind].values()),
                                                           dict(sorted(counts[kind].items()))))
print("  accepted (exit 0), by mutation: %s" % dict(sorted(accepted.items())))
# nothing else may be left in OUT: no temporary file of a reader or a run
if not failures:
    extra = leftovers(out, set())
    if extra:
        failures.append("files left in %s: %s" % (out, extra[:10]))
for f in failures[:int(os.environ.get("GALE_FUZZ_SHOW", "10"))]:
    print("FAIL", f)
if failures:
    print("%d of %d cases failed (kept in %s)" % (len(failures), total, out))
    sys.exit(1)
