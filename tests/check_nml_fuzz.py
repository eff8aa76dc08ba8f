"""Fuzz of the LFRic namelist reader: a fixed seed, CASES mutated copies of
the shipped namelists (configs/lfric_*.nml): bytes flipped, '=', '/' and
quotes deleted, lines duplicated (duplicate keys), swapped or dropped, NUL
bytes, CR and CRLF line ends, long and odd numbers, many keys. Each is read
by nml_check (the configuration reader of `gale run`, without MPI or a
model), each in a child process of its own. Every case must end in exit 0
or 2 within nml_check's 20 s, an exit 2
must name the file, and nothing may print a sanitizer report (when built
with them: the debug-asan preset; leaks included). A failing case is kept in OUT.

usage: check_nml_fuzz.py NML_CHECK ROOT OUT [CASES]"""
import os
import random
import subprocess
import sys
import time

check, root, out = sys.argv[1:4]
cases = int(sys.argv[4]) if len(sys.argv) > 4 else 400
SEED = 29
SANITIZER = ("runtime error:", "AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer")
os.makedirs(out, exist_ok=True)
# the reader alone (no MPI): a leak on any error path is a failure too
env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1")
seeds = [open(os.path.join(root, "configs", n), "rb").read()
         for n in ("lfric_gravity_wave.nml", "lfric_gungho.nml")]
rng = random.Random(SEED)
NUMBERS = [b"-9223372036854775807", b"9223372036854775808", b"99999999999999999999999",
           b"1" * 300, b"0x1p3", b"1e999", b"-0", b"0", b"1.0d-400", b"nan", b"inf", b"3*",
           b"2147483648", b"-1", b".5e", b"1.2.3"]


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


paths = []
for c in range(cases):
    text = rng.choice(seeds)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        text = mutate(text)
    paths.append(os.path.join(out, "case%03d.nml" % c))
    with open(paths[-1], "wb") as f:
        f.write(text)
t0 = time.time()
r = subprocess.run([check] + paths, stdout=subprocess.PIPE, env=env, check=True,
                   timeout=60 + 2 * cases)
status = dict(line.split(" ", 1)[::-1] for line in r.stdout.decode().splitlines())
dt = time.time() - t0
failures, counts, named_line = [], {}, 0
for path in paths:
    rc = status.get(path, "none")
    err = open(path + ".err", "rb").read().decode("utf-8", "replace") if rc != "none" else ""
    counts[rc] = counts.get(rc, 0) + 1
    why = None
    if rc not in ("0", "2"):
        why = "exit %s" % rc
    elif any(s in err for s in SANITIZER):
        why = "a sanitizer report"
    elif rc == "2" and "gale: error: " + path not in err:
        why = "the message does not name the file"
    if why:
        failures.append("%s: %s\n%s" % (path, why, err[-2000:]))
    else:
        named_line += rc == "2" and err.startswith("gale: error: " + path + ":")
        os.remove(path)
        os.remove(path + ".err")
print("%d cases (seed %d) in %.1f s: exit status counts %s; %d errors name file:line"
      % (cases, SEED, dt, dict(sorted(counts.items())), named_line))
for f in failures[:10]:
    print("FAIL", f)
if failures:
    print("%d of %d cases failed (kept in %s)" % (len(failures), cases, out))
    sys.exit(1)
