"""The text of one row's table cells (status, width, loop), shared by the
report, the kernel guard and the diff."""


def width_text(r):
    if r.get("slp"):
        return "SLP"
    if not r["vectorized"] and not r.get("partial"):
        return ""
    s = "%s x" % r["vf"] if r.get("vf") else "? x"
    if r.get("bits"):
        s += " %d b" % r["bits"]
    return s


def status_text(r):
    if r.get("libcall"):
        return "library call"
    if r.get("partial"):
        return "partly (%d of %d copies)" % (r["copies_vectorized"], r["copies"])
    if r.get("slp"):
        return "yes (SLP)"
    return "yes" if r["vectorized"] else "no"


def loop_text(r):
    where = "%s:%s" % (r.get("loop_file"), r.get("loop_line"))
    if r.get("macro"):
        where = "%s:%s (%s)" % (r.get("file"), r.get("remark_line"), r["macro"])
    return where


def md_escape(s):
    return (s or "").replace("|", "\\|").replace("\n", " ")


def shorten(s, n=110):
    s = s or ""
    return s if len(s) <= n else s[:n - 3] + "..."
