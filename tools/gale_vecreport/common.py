"""What every module of vecreport needs: the repository root, the error
exit, and repository-relative paths."""

import os
import sys

# tools/gale_vecreport/common.py -> the repository root, as tools/vecreport
# itself computed it (abspath, not realpath: printed paths stay as they were)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def die(msg, code=2):
    print("vecreport: error: " + msg, file=sys.stderr)
    sys.exit(code)


def rel(path, root=None):
    """Paths in reports are relative to the repository root, so reports made
    in different checkouts (or a git worktree for --ref) compare equal."""
    root = root or ROOT
    p = os.path.normpath(os.path.abspath(path))
    r = os.path.normpath(root)
    if p == r or p.startswith(r + os.sep):
        return os.path.relpath(p, r)
    return p
