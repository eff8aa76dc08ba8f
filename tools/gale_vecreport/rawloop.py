"""The parsers' output: one loop as one compiler analysed it, before it is
mapped to the source (merge.py). Its own module so that the two parsers and
merge share it without importing each other."""


class RawLoop:
    """One loop as one compiler analysed it, before mapping to source."""

    def __init__(self, **kw):
        self.file = self.line = self.col = None
        self.caller = self.body = None     # compiled function, innermost inlined body
        self.chain = []                    # gcc: inlining chain [(fndecl, site)]
        self.vectorized = False
        self.vf = self.bytes = self.interleave = self.epilogue_bytes = None
        self.reason = None
        self.reasons = []
        self.notes = []
        self.generated = False             # gcc's OpenMP simd-reduction merge loop
        self.outer = False
        self.slp = False
        self.libcall = None                # gcc: replaced by N library calls
        self.__dict__.update(kw)
