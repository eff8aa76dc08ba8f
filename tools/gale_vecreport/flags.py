"""Which compiler, ISA and flags a report uses: from a CMake preset (read
from CMakePresets.json and the top-level CMakeLists.txt), from --compiler and
--isa, or from a build directory's compile_commands.json."""

import json
import os
import re
import shlex
import subprocess

from .common import die, rel


# The CPU launch layer's translation units: every kernels_cpu/*.c, found
# when the tool runs (kernel_sources), so a launch file added later is
# compiled too. Each includes the kernel bodies it launches.
KERNEL_DIR = "kernels_cpu"

# Include directories of gale_kernels_cpu (its link interface: kernels/,
# layout/, base/). Used only when no compile_commands.json gives them.
DEFAULT_INCLUDES = ["kernels", "layout", "base"]

# --isa NAME -> ISA flags, for combinations no preset spells out (clang with
# avx512, say). The presets in CMakePresets.json take precedence.
ISA_FLAGS = {
    "native": ["-march=native"],
    "avx2": ["-march=x86-64-v3"],
    "avx512": ["-march=x86-64-v4", "-mprefer-vector-width=512"],
    "broadwell": ["-march=broadwell"],
}
COMPILERS = {"gcc": "gcc", "clang": "clang-19"}


def compiler_family(cc):
    """'gcc' or 'clang' from the compiler's --version banner (names such as
    mpicc or cc hide it)."""
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True,
                             check=False).stdout
    except OSError:
        die("compiler not found: %s" % cc)
    if "clang" in out:
        return "clang", out.splitlines()[0].strip()
    return "gcc", out.splitlines()[0].strip() if out else cc


def load_presets(root):
    """Configure presets with `inherits` resolved into flat cacheVariables."""
    path = os.path.join(root, "CMakePresets.json")
    with open(path) as f:
        data = json.load(f)
    raw = {p["name"]: p for p in data.get("configurePresets", [])}

    def resolve(name, seen=()):
        p = raw[name]
        cache = {}
        inh = p.get("inherits", [])
        for parent in ([inh] if isinstance(inh, str) else inh):
            if parent not in seen:
                cache.update(resolve(parent, seen + (name,)))
        for k, v in p.get("cacheVariables", {}).items():
            cache[k] = v["value"] if isinstance(v, dict) else v
        return cache
    return {n: resolve(n) for n in raw if not raw[n].get("hidden")}


def cmake_base_flags(root):
    """The project-wide compile options from the top-level CMakeLists.txt
    (add_compile_options / add_compile_definitions outside any if(), the C
    standard). Read rather than copied here, so a flag the project adds
    (-fno-trapping-math, say) reaches the report too."""
    path = os.path.join(root, "CMakeLists.txt")
    text = open(path).read()
    text = re.sub(r"#[^\n]*", "", text)
    flags, depth = [], 0
    for m in re.finditer(r"(\w+)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)", text):
        cmd, args = m.group(1).lower(), m.group(2)
        if cmd == "if":
            depth += 1
        elif cmd == "endif":
            depth -= 1
        elif depth == 0 and cmd == "add_compile_options":
            flags += [a for a in args.split() if a.startswith("-") and not a.startswith("-W")]
        elif depth == 0 and cmd == "add_compile_definitions":
            flags += ["-D" + a for a in args.split()]
    std = re.search(r"set\(\s*CMAKE_C_STANDARD\s+(\d+)\s*\)", text)
    ext = re.search(r"set\(\s*CMAKE_C_EXTENSIONS\s+(\w+)\s*\)", text)
    if std:
        gnu = ext and ext.group(1).upper() in ("ON", "TRUE", "1")
        flags.insert(0, "-std=%s%s" % ("gnu" if gnu else "c", std.group(1)))
    return flags


def flags_from_compile_commands(build_dir, source):
    """The exact command CMake uses for `source` in `build_dir`, minus the
    output and dependency-file options (we add our own)."""
    path = os.path.join(build_dir, "compile_commands.json")
    if not os.path.exists(path):
        return None
    src = os.path.realpath(source)
    for e in json.load(open(path)):
        f = e["file"] if os.path.isabs(e["file"]) else os.path.join(e["directory"], e["file"])
        if os.path.realpath(f) != src:
            continue
        args = e.get("arguments") or shlex.split(e["command"])
        cc, out, skip = args[0], [], False
        for a in args[1:]:
            if skip:
                skip = False
                continue
            if a in ("-o", "-MF", "-MT", "-MQ"):
                skip = True
                continue
            if a in ("-c", "-MD", "-MMD") or os.path.realpath(
                    os.path.join(e["directory"], a)) == src:
                continue
            if a.startswith("-I") and len(a) > 2 and not os.path.isabs(a[2:]):
                a = "-I" + os.path.join(e["directory"], a[2:])
            out.append(a)
        return cc, out, e["directory"]
    return None


class Config:
    """Everything that decides what the compiler does: compiler, ISA, flags."""

    def __init__(self, cc, family, version, isa, flags, sources, origin):
        self.cc, self.family, self.version = cc, family, version
        self.isa, self.flags, self.sources, self.origin = isa, flags, sources, origin

    def as_json(self):
        return {"compiler": self.family, "command": self.cc, "version": self.version,
                "isa": self.isa, "flags": [show_flag(f) for f in self.flags],
                "sources": [rel(s) for s in self.sources],
                "flags_from": self.origin}


def kernel_sources(root):
    """Every C file of the CPU launch layer, repository-relative."""
    d = os.path.join(root, KERNEL_DIR)
    found = sorted(os.path.join(KERNEL_DIR, f) for f in os.listdir(d) if f.endswith(".c"))
    if not found:
        die("no C files in %s" % d)
    return found


def make_config(args, root):
    sources = [os.path.join(root, s) for s in (args.source or kernel_sources(root))]
    for s in sources:
        if not os.path.exists(s):
            die("no such source file: %s" % s)
    extra = shlex.split(args.extra_flags or "")
    if args.build_dir:
        got = flags_from_compile_commands(args.build_dir, sources[0])
        if not got:
            die("%s has no compile command for %s (configure it first, with "
                "CMAKE_EXPORT_COMPILE_COMMANDS)" % (args.build_dir, rel(sources[0], root)))
        cc, flags, _ = got
        family, version = compiler_family(cc)
        isa = args.isa_name or guess_isa(flags)
        if "-fopenmp" not in flags and not any(f.startswith("-fopenmp") for f in flags):
            flags.append("-fopenmp")  # OpenMP::OpenMP_C is a link interface
        return Config(cc, family, version, isa, flags + extra, sources,
                      "compile_commands.json in " + rel(args.build_dir, root))
    presets = load_presets(root)
    preset = args.preset
    if not preset:
        comp = args.compiler or "gcc"
        isa = args.isa or "native"
        # the preset that builds exactly this combination, if there is one
        for name, cache in presets.items():
            cc = cache.get("CMAKE_C_COMPILER", "")
            if (cache.get("GALE_ISA_NAME") == isa and cache.get("GALE_OFFLOAD", "none") == "none"
                    and compiler_name_matches(cc, comp)
                    and cache.get("CMAKE_BUILD_TYPE", "Release") == "Release"):
                preset = name
                break
    if preset:
        if preset not in presets:
            die("unknown preset %r (have: %s)" % (preset, ", ".join(sorted(presets))))
        cache = presets[preset]
        cc = args.cc or cache.get("CMAKE_C_COMPILER", "cc")
        isa = cache.get("GALE_ISA_NAME", "native")
        isa_flags = shlex.split(cache.get("GALE_ISA_FLAGS", "-march=native"))
        opt = shlex.split(cache.get("CMAKE_C_FLAGS_RELEASE", "-O3"))
        origin = "preset %s" % preset
    else:
        cc = args.cc or COMPILERS[args.compiler or "gcc"]
        isa = args.isa or "native"
        isa_flags = ISA_FLAGS[isa]
        opt = ["-O3"]
        origin = "--compiler %s --isa %s (no preset builds this)" % (args.compiler, isa)
    if args.isa_flags is not None:
        isa_flags = shlex.split(args.isa_flags)
    if args.opt is not None:
        opt = shlex.split(args.opt)
    if args.isa_name:
        isa = args.isa_name
    family, version = compiler_family(cc)
    flags = opt + cmake_base_flags(root) + isa_flags + ["-fopenmp"]
    flags += ["-I" + os.path.join(root, d) for d in DEFAULT_INCLUDES]
    return Config(cc, family, version, isa, flags + extra, sources, origin + " + CMakeLists.txt")


def compiler_name_matches(cc, family):
    base = os.path.basename(cc)
    return base.startswith("clang") if family == "clang" else (
        base.startswith("gcc") or base == "cc")


def guess_isa(flags):
    s = " ".join(flags)
    if "x86-64-v4" in s or "skylake-avx512" in s:
        return "avx512"
    if "x86-64-v3" in s or "haswell" in s:
        return "avx2"
    if "broadwell" in s:
        return "broadwell"
    if "native" in s:
        return "native"
    return "default"


def show_flag(f):
    """-I/abs/path/to/repo/kernels -> -Ikernels: reports from different
    checkouts should read the same."""
    if f.startswith("-I") and os.path.isabs(f[2:]):
        r = rel(f[2:])
        return "-I" + (r if not os.path.isabs(r) else os.path.basename(r))
    return f
