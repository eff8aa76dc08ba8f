#!/usr/bin/python3
"""gale_ckpt: reads gale's checkpoint files (docs/checkpoint.md "Format").

The one place outside io/checkpoint.c that knows their byte layout: the
tests and bench/ import it (sys.path gets this folder) instead of keeping
offsets of their own. As a command it prints a file's header:

  tools/gale_ckpt.py FILE.ckpt

  import gale_ckpt
  ck = gale_ckpt.read("checkpoint/gale_ckpt_000012.ckpt")
  ck.version, ck.step, ck.writer, ck.config      # header values
  nlev, ncol, values = ck.field("p")             # doubles, columns in gid order

Only the Python standard library. Files are little-endian (every machine
gale runs on); the byte-order mark is checked.
"""
import struct
import sys

MAGIC = b"GALECKPT"
TRAILER_MAGIC = b"GALECKPT_TRAILER"
BYTE_ORDER_MARK = 0x01020304
# the version gale writes (GALE_CKPT_VERSION in io/gale_checkpoint.h) and the
# versions with the layout below (docs/checkpoint.md "Format versions")
VERSION = 2
LAYOUT_VERSIONS = (1, 2)

# The fixed header (head_t in io/checkpoint.c), offsets in bytes
OFF_VERSION = 8          # uint32
OFF_BYTE_ORDER = 12      # uint32
OFF_HEADER_BYTES = 16    # uint64 H: the header region, a multiple of 4096
OFF_FILE_BYTES = 24      # uint64
OFF_MESH = 32            # int64 mesh N, levels, extrusion method, number of fields
OFF_PLANET = 64          # double radius, scaling, extrusion top
OFF_RUN = 88             # int64 step, probe length, configuration text bytes
OFF_STATE = 112          # double time, energy0, energy, max_step_increase,
#                          max|u|, max|w|, run max|u|, run max|w|
OFF_WRITER = 224         # char[64]
OFF_FIELDS = 288         # field table: MAX_FIELDS records of FIELD_BYTES
FIELD_BYTES = 64         # name[8], int64 levels, columns, uint64 offset, bytes, hash, double sumsq, 0
MAX_FIELDS = 8
HEAD_BYTES = 800         # then z_if[levels + 1], probe[n], the configuration text
TRAILER_BYTES = 32       # TRAILER_MAGIC, uint64 file size, header hash + field hashes
STATE_NAMES = ("time", "energy0", "energy", "max_step_increase", "max_u", "max_w",
               "run_max_u", "run_max_w")


class Error(Exception):
    """A file this reader cannot read; the message names the file."""


def header_hash(data, H):
    """The header's hash (io/checkpoint.c hash_words): FNV-1a over the
    64-bit words of bytes [0, H - 8)."""
    h = 0xcbf29ce484222325
    for (w,) in struct.iter_unpack("<Q", data[:H - 8]):
        h = ((h ^ w) * 0x100000001b3) & 0xffffffffffffffff
    return h


class Field:
    def __init__(self, rec):
        name, self.nlev, self.ncol, self.offset, self.nbytes, self.hash, self.sumsq, _ = \
            struct.unpack("<8sqqQQQdq", rec)
        self.name = name.split(b"\0")[0].decode()


class Checkpoint:
    """A checkpoint read whole into memory (`data`); the header's values as
    attributes, the fields by name."""

    def __init__(self, data, path="<bytes>"):
        self.data, self.path = data, path
        if data[:8] != MAGIC:
            raise Error(f"{path} is not a gale checkpoint (it does not begin with {MAGIC.decode()})")
        if len(data) < HEAD_BYTES:
            raise Error(f"{path}: truncated ({len(data)} bytes, shorter than the header)")
        self.version, bom = struct.unpack_from("<II", data, OFF_VERSION)
        if bom != BYTE_ORDER_MARK:
            raise Error(f"{path}: written on a machine of the other byte order")
        if self.version not in LAYOUT_VERSIONS:
            raise Error(f"{path}: checkpoint format version {self.version}; this reader knows "
                        f"versions {', '.join(map(str, LAYOUT_VERSIONS))}")
        self.header_bytes, self.file_bytes = struct.unpack_from("<QQ", data, OFF_HEADER_BYTES)
        self.mesh_n, self.levels, self.ext_method, self.nfield = struct.unpack_from("<4q", data, OFF_MESH)
        self.radius, self.scaling, self.top = struct.unpack_from("<3d", data, OFF_PLANET)
        self.step, self.nprobe, self.config_bytes = struct.unpack_from("<3q", data, OFF_RUN)
        self.state = dict(zip(STATE_NAMES, struct.unpack_from("<8d", data, OFF_STATE)))
        self.writer = data[OFF_WRITER:OFF_WRITER + 64].split(b"\0")[0].decode(errors="replace")
        if not 1 <= self.nfield <= MAX_FIELDS:
            raise Error(f"{path}: {self.nfield} fields in the header")
        self.fields = [Field(data[OFF_FIELDS + FIELD_BYTES * i:OFF_FIELDS + FIELD_BYTES * (i + 1)])
                       for i in range(self.nfield)]
        self.config_offset = HEAD_BYTES + 8 * (self.levels + 1 + self.nprobe)
        text = data[self.config_offset:self.config_offset + self.config_bytes]
        self.config = text.split(b"\0")[0].decode(errors="replace")

    def field(self, name):
        """(levels, columns, values): the field's doubles, column by column
        in global-id order."""
        for f in self.fields:
            if f.name == name:
                if f.offset + f.nbytes > len(self.data):
                    raise Error(f"{self.path}: field {name} runs past the end of the file")
                return f.nlev, f.ncol, struct.unpack_from(f"<{f.nlev * f.ncol}d", self.data, f.offset)
        raise Error(f"{self.path} holds no field {name} (it has {', '.join(f.name for f in self.fields)})")

    def field_data(self):
        """Every field's bytes: what two checkpoints of one state share
        whatever wrote them (the header holds the writer's configuration)."""
        return self.data[self.header_bytes:self.file_bytes - TRAILER_BYTES]

    def rewritten(self, version=None, config=None):
        """The bytes of this file with another format version and/or
        configuration text, its header hash and trailer made consistent
        again: a file as such a writer would have written it (for tests of
        what the reader refuses)."""
        b = bytearray(self.data)
        H = self.header_bytes
        if version is not None:
            struct.pack_into("<I", b, OFF_VERSION, version)
        if config is not None:
            raw = config.encode() + b"\0"
            if self.config_offset + len(raw) > H - 8:
                raise Error(f"{self.path}: the new configuration text does not fit in the header")
            b[self.config_offset:H - 8] = raw + bytes(H - 8 - self.config_offset - len(raw))
            struct.pack_into("<q", b, OFF_RUN + 16, len(raw))
        hh = header_hash(b, H)
        struct.pack_into("<Q", b, H - 8, hh)
        comb = (hh + sum(f.hash for f in self.fields)) & 0xffffffffffffffff
        struct.pack_into("<Q", b, self.file_bytes - TRAILER_BYTES + 24, comb)
        return bytes(b)


def read(path):
    """The checkpoint at path (Error if it is not one this reader knows)."""
    with open(path, "rb") as f:
        return Checkpoint(f.read(), path)


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        sys.exit("usage: tools/gale_ckpt.py FILE.ckpt (prints the checkpoint's header)")
    try:
        ck = read(argv[1])
    except (Error, OSError) as e:
        sys.exit(f"gale_ckpt: {e}")
    print(f"{ck.path}: gale checkpoint, format version {ck.version}, written by {ck.writer}")
    print(f"  mesh C{ck.mesh_n}, {ck.levels} levels, step {ck.step}, time {ck.state['time']:g} s, "
          f"{ck.file_bytes} bytes (header {ck.header_bytes})")
    for f in ck.fields:
        print(f"  field {f.name:8s} {f.ncol} columns x {f.nlev} levels, sum of squares {f.sumsq:.17g}")


if __name__ == "__main__":
    main(sys.argv)
