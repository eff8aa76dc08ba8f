#!/usr/bin/python3
"""A private one-node Slurm cluster on this machine, for the tests
(docs/slurm.md "The local Slurm").

Debian 12's munged, slurmctld and slurmd (Slurm 22.05), started as children
of the calling process with everything under a new temporary folder: the
munge key and socket, slurm.conf, the state and spool folders, pid and log
files. The daemons listen on free ports picked at start, so neither a system
Slurm nor another test's cluster collides with this one; client commands find
it through SLURM_CONF (LocalSlurm.env()). One node, this machine's hostname,
cores and memory (`slurmd -C`), ProctrackType=proctrack/linuxproc,
TaskPlugin=task/none, SelectType=select/cons_tres, no accounting.

The hostname must resolve (Hydra's proxies and srun connect back to it by
name): where it does not (a new chroot without /etc/hosts), a line
"127.0.0.1 HOST" marked with this process's id is added to /etc/hosts and
removed again at the end, and the log says so.

Every daemon is stopped at the end, also on an exception, SIGTERM, SIGINT,
SIGHUP or the watchdog (SIGALRM): jobs are cancelled, the daemons get
SIGTERM and then SIGKILL, and any process left below this one (slurmstepd
and job steps, which this process adopts as a child subreaper) is killed by
its id. stop() then checks with pgrep that no process names the cluster's
folder and that no descendant is left, and fails if one is.

As a module:

    with LocalSlurm(deadline=80) as slurm:
        subprocess.run(["srun", "-n", "2", "hostname"], env=slurm.env())

As a command (exit 77 and SKIPPED where it cannot run):

    tests/slurm_local.py [--keep] [--timeout S] -- COMMAND [ARGS...]

runs COMMAND with SLURM_CONF set and returns its exit status.
"""
import ctypes
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
import benchlib  # noqa: E402  (Slurm's job records, read as bench/campaign reads them)

SKIP = 77
PLUGIN_DIR = "/usr/lib/x86_64-linux-gnu/slurm-wlm"
HOSTS = "/etc/hosts"
PR_SET_CHILD_SUBREAPER = 36


class SlurmError(RuntimeError):
    pass


class Interrupted(BaseException):
    """A signal or the watchdog: unwinds through every finally."""


def why_not():
    """None when a local Slurm can be started here, else the reason."""
    if os.geteuid() != 0:
        return "not root (slurmd runs jobs as their user and must be root; munged and slurmctld run as root here)"
    found = {"munged": shutil.which("munged"), "slurmctld": shutil.which("slurmctld"),
             "slurmd": shutil.which("slurmd"), "srun": shutil.which("srun"),
             "sbatch": shutil.which("sbatch"), "salloc": shutil.which("salloc"),
             "sinfo": shutil.which("sinfo"), "squeue": shutil.which("squeue"),
             "scontrol": shutil.which("scontrol"), "scancel": shutil.which("scancel"),
             "pgrep": shutil.which("pgrep")}
    missing = [p for p, path in found.items() if not path]
    if missing:
        return ("missing " + ", ".join(missing) + " (Debian packages slurmctld, slurmd, "
                "slurm-client, munge and procps: tools/install-deps)")
    for plugin in ("select_cons_tres", "proctrack_linuxproc", "auth_munge", "mpi_pmi2"):
        if not os.path.exists(os.path.join(PLUGIN_DIR, plugin + ".so")):
            return f"no Slurm plugin {plugin} in {PLUGIN_DIR}"
    return None


def free_ports(n):
    """n TCP ports nobody listens on now (bound once, then released)."""
    socks, ports = [], []
    try:
        for _ in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("", 0))
            socks.append(s)
            ports.append(s.getsockname()[1])
    finally:
        for s in socks:
            s.close()
    return ports


def _children(pid):
    """Direct children of pid, from /proc."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                st = f.read()
        except OSError:
            continue
        # the command name (field 2) may hold spaces and parentheses
        fields = st[st.rfind(")") + 2:].split()
        if len(fields) > 1 and int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(d))
    return out


def descendants(pid=None):
    """Every live process below pid (default: this one)."""
    todo, seen = [pid or os.getpid()], []
    while todo:
        for c in _children(todo.pop()):
            seen.append(c)
            todo.append(c)
    return seen


def _reap():
    """Collects exited children (adopted orphans included)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


class LocalSlurm:
    """A one-node cluster under a new temporary folder; see the module's
    docstring. deadline: seconds after start() at which the watchdog stops
    everything (keep it below the CTest TIMEOUT so that the clean-up runs)."""

    def __init__(self, deadline=None, partition="gale", keep=False, log=print):
        self.deadline, self.partition, self.keep, self.log = deadline, partition, keep, log
        self.dir = None
        self.procs = {}
        self.host = socket.gethostname().split(".")[0]
        self.hosts_line = None
        self._old_handlers = {}

    # ---- start ----

    def start(self):
        reason = why_not()
        if reason:
            raise SlurmError(reason)
        t0 = time.time()
        self._install_handlers()
        # orphans (slurmstepd, job processes) become our children, so that
        # stop() finds them and a test runner's kill of our tree reaches them
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        except (OSError, AttributeError):
            pass
        self._remove_stale()
        # munged wants every folder above its socket searchable by all
        self.dir = tempfile.mkdtemp(prefix="gale-slurm.")
        os.chmod(self.dir, 0o755)
        for d in ("state", "spool", "log"):
            os.makedirs(os.path.join(self.dir, d))
        self._hostname_resolves()
        self._start_munge()
        self._write_conf()
        self._spawn("slurmctld", ["slurmctld", "-D", "-f", self.conf])
        self._spawn("slurmd", ["slurmd", "-D", "-f", self.conf, "-N", self.host])
        self._wait_idle(30)
        self.log(f"slurm_local: cluster up in {time.time() - t0:.1f} s: node {self.host}, "
                 f"{self.cpus} CPUs, {self.memory_mb} MB, partition {self.partition}, "
                 f"ports {self.ports[0]}/{self.ports[1]}, SLURM_CONF={self.conf}")
        return self

    def _install_handlers(self):
        def handler(signum, frame):
            raise Interrupted(f"signal {signal.Signals(signum).name}"
                              + (f" (the watchdog: {self.deadline} s)" if signum == signal.SIGALRM else ""))
        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGALRM):
            self._old_handlers[s] = signal.signal(s, handler)
        if self.deadline:
            signal.alarm(int(self.deadline))

    @staticmethod
    def _remove_stale(age=3600):
        """Folders of clusters killed before their clean-up could run (a test
        runner's SIGKILL): over an hour old and named by no process."""
        for d in glob.glob(os.path.join(tempfile.gettempdir(), "gale-slurm.*")):
            try:
                if time.time() - os.path.getmtime(d) < age:
                    continue
            except OSError:
                continue
            r = subprocess.run(["pgrep", "-f", d], capture_output=True, text=True)
            if not r.stdout.strip():
                shutil.rmtree(d, ignore_errors=True)

    def _hostname_resolves(self):
        try:
            socket.gethostbyname(self.host)
            return
        except OSError:
            pass
        line = f"127.0.0.1 {self.host} # gale slurm_local {os.getpid()} (removed when the test ends)\n"
        with open(HOSTS, "a") as f:
            f.write(line)
        self.hosts_line = line
        self.log(f"slurm_local: hostname {self.host} did not resolve: added '127.0.0.1 {self.host}' "
                 f"to {HOSTS} for this test (removed at the end)")

    def _start_munge(self):
        key = os.path.join(self.dir, "munge.key")
        with open(os.open(key, os.O_WRONLY | os.O_CREAT, 0o400), "wb") as f:
            f.write(os.urandom(1024))
        self.munge_socket = os.path.join(self.dir, "munge.socket")
        self._spawn("munged", ["munged", "-F", "-f", "--socket=" + self.munge_socket,
                               "--key-file=" + key,
                               "--pid-file=" + os.path.join(self.dir, "munged.pid"),
                               "--seed-file=" + os.path.join(self.dir, "munged.seed"),
                               "--log-file=" + os.path.join(self.dir, "log", "munged.log")])
        t0 = time.time()
        while not os.path.exists(self.munge_socket):
            self._check_alive()
            if time.time() - t0 > 15:
                raise SlurmError("munged made no socket in 15 s" + self._tails())
            time.sleep(0.05)

    def _hardware(self):
        """CPUs, sockets, cores, threads and memory as slurmd sees them."""
        r = subprocess.run(["slurmd", "-C"], capture_output=True, text=True, timeout=30)
        hw = {}
        for word in r.stdout.split():
            k, _, v = word.partition("=")
            hw[k] = v
        if "CPUs" not in hw:
            raise SlurmError(f"slurmd -C printed no CPUs: {r.stdout}{r.stderr}")
        return hw

    def _write_conf(self):
        hw = self._hardware()
        self.cpus = int(hw["CPUs"])
        # some memory stays with the system; memory is not a consumable here
        self.memory_mb = max(1, int(hw.get("RealMemory", "1024")) * 9 // 10)
        self.ports = free_ports(2)
        d = self.dir
        self.conf = os.path.join(d, "slurm.conf")
        conf = f"""# generated by tests/slurm_local.py
ClusterName=gale-local
SlurmctldHost={self.host}
SlurmctldPort={self.ports[0]}
SlurmdPort={self.ports[1]}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={self.munge_socket}
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
# start the next queued job as soon as one ends (the default waits up to 3 s)
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
SlurmdParameters=config_overrides
MinJobAge=600
KillWait=5
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName={self.host} CPUs={hw['CPUs']} Boards={hw.get('Boards', 1)} SocketsPerBoard={hw.get('SocketsPerBoard', 1)} CoresPerSocket={hw.get('CoresPerSocket', hw['CPUs'])} ThreadsPerCore={hw.get('ThreadsPerCore', 1)} RealMemory={self.memory_mb} State=UNKNOWN
PartitionName={self.partition} Nodes={self.host} Default=YES MaxTime=INFINITE State=UP
"""
        with open(self.conf, "w") as f:
            f.write(conf)

    def _spawn(self, name, cmd):
        out = open(os.path.join(self.dir, "log", name + ".out"), "w")
        # a session of its own: a terminal's Ctrl-C (or `timeout`'s signal to
        # the process group) reaches this process, which stops the daemons in
        # order, not the daemons themselves half-way through the clean-up
        self.procs[name] = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, cwd=self.dir,
                                            env=self.env(), start_new_session=True)
        out.close()

    def _check_alive(self):
        for name, p in self.procs.items():
            if p.poll() is not None:
                raise SlurmError(f"{name} exited with status {p.returncode}" + self._tails())

    def _tails(self, n=15):
        text = ""
        for f in sorted(os.listdir(os.path.join(self.dir, "log"))):
            with open(os.path.join(self.dir, "log", f), errors="replace") as fh:
                lines = fh.read().splitlines()[-n:]
            if lines:
                text += f"\n--- {f} (last {len(lines)} lines) ---\n" + "\n".join(lines)
        return text

    def _wait_idle(self, timeout):
        t0, state = time.time(), ""
        while time.time() - t0 < timeout:
            self._check_alive()
            r = subprocess.run(["sinfo", "-h", "-N", "-n", self.host, "-o", "%T"],
                               capture_output=True, text=True, env=self.env(), timeout=20)
            state = r.stdout.strip()
            if state == "idle":
                return
            time.sleep(0.2)
        raise SlurmError(f"node {self.host} not idle after {timeout} s (sinfo: '{state}')"
                         + self._tails())

    # ---- use ----

    def env(self, base=None):
        """The environment for Slurm's commands: SLURM_CONF set, and no SLURM_*
        or PMI* variable of an enclosing job (this may run inside a real
        Slurm job, whose ids mean nothing to this cluster)."""
        e = {k: v for k, v in (base if base is not None else os.environ).items()
             if not k.startswith(("SLURM_", "SLURMD_", "SRUN_", "SBATCH_", "SALLOC_", "PMI_", "PMIX_"))}
        if self.dir:
            e["SLURM_CONF"] = os.path.join(self.dir, "slurm.conf")
        return e

    def run(self, cmd, timeout=60, **kw):
        """subprocess.run of a client command against this cluster."""
        kw.setdefault("env", self.env())
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)

    def jobs(self):
        """{job id: state} of the jobs queued or running."""
        return benchlib.squeue(env=self.env())

    def wait_jobs(self, ids, timeout):
        """Waits until none of ids is queued or running; their records
        (benchlib.job_records: id, name, state, exit_code, tasks, ...)."""
        ids = [str(i) for i in ids]
        t0 = time.time()
        while True:
            live = [i for i in ids if i in self.jobs()]
            if not live:
                recs = benchlib.job_records(ids, env=self.env())
                return {i: recs.get(i, {}) for i in ids}
            if time.time() - t0 > timeout:
                raise SlurmError(f"jobs {' '.join(live)} still queued or running after {timeout} s:\n"
                                 + self.run(["squeue"]).stdout + self._tails())
            time.sleep(0.3)

    def tails(self, n=15):
        return self._tails(n) if self.dir else ""

    # ---- stop ----

    def stop(self):
        """Stops everything; returns the processes that survived (empty)."""
        signal.alarm(0)
        # a second signal must not cut the clean-up short
        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            if s in self._old_handlers:
                signal.signal(s, signal.SIG_IGN)
        left = []
        try:
            if self.dir and "slurmctld" in self.procs and self.procs["slurmctld"].poll() is None:
                try:
                    ids = list(self.jobs())
                    if ids:
                        self.run(["scancel", *ids], timeout=20)
                        t0 = time.time()
                        while self.jobs() and time.time() - t0 < 10:
                            time.sleep(0.2)
                except (subprocess.SubprocessError, OSError, ValueError):
                    pass
            for name in ("slurmd", "slurmctld", "munged"):
                p = self.procs.get(name)
                if p and p.poll() is None:
                    p.terminate()
                    try:
                        p.wait(10)
                    except subprocess.TimeoutExpired:
                        p.kill()
                        p.wait(5)
            # slurmstepd, job steps, anything else started below us
            for pid in descendants():
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            t0 = time.time()
            while descendants() and time.time() - t0 < 5:
                _reap()
                time.sleep(0.05)
            _reap()
            left = self.leftovers()
        finally:
            self._remove_hosts_line()
            for s, h in self._old_handlers.items():
                signal.signal(s, h)
            self._old_handlers = {}
            if self.dir and not self.keep and not left:
                shutil.rmtree(self.dir, ignore_errors=True)
                if os.path.exists(self.dir):  # a file written while it was removed
                    time.sleep(0.2)
                    shutil.rmtree(self.dir, ignore_errors=True)
        return left

    def leftovers(self):
        """Processes that name this cluster's folder (pgrep -f) or live below
        this process: none once stop() has run."""
        out = []
        if self.dir:
            r = subprocess.run(["pgrep", "-a", "-f", self.dir], capture_output=True, text=True)
            out += [line for line in r.stdout.splitlines() if line.strip()]
        out += [f"{pid} {_cmdline(pid)}" for pid in descendants()]
        return out

    def _remove_hosts_line(self):
        if not self.hosts_line:
            return
        try:
            with open(HOSTS) as f:
                lines = f.readlines()
            with open(HOSTS, "w") as f:
                f.writelines(l for l in lines if l != self.hosts_line)
            self.log(f"slurm_local: removed the line for {self.host} from {HOSTS}")
        except OSError as e:
            self.log(f"slurm_local: could not remove '{self.hosts_line.strip()}' from {HOSTS}: {e}")
        self.hosts_line = None

    def __enter__(self):
        try:
            return self.start()
        except BaseException:
            self._finish(failed=True)
            raise

    def __exit__(self, et, ev, tb):
        self._finish(failed=et is not None)
        return False

    def _finish(self, failed):
        if failed and self.dir:
            self.log("slurm_local: daemon logs:" + self._tails(25))
        left = self.stop()
        if left:
            raise SlurmError("processes left running after the local Slurm was stopped:\n  "
                             + "\n  ".join(left))
        self.log("slurm_local: stopped munged, slurmctld and slurmd; no process left (pgrep)")


def main(argv):
    import argparse
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--keep", action="store_true", help="keep the cluster's folder (logs) at the end")
    p.add_argument("--timeout", type=float, default=None, help="stop everything after S seconds")
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args(argv)
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        p.error("no COMMAND")
    reason = why_not()
    if reason:
        print(f"SKIPPED: no local Slurm here: {reason}")
        return SKIP
    try:
        with LocalSlurm(deadline=a.timeout, keep=a.keep) as s:
            return subprocess.run(cmd, env=s.env()).returncode
    except Interrupted as e:
        print(f"slurm_local: interrupted: {e}")
        return 124
    except SlurmError as e:
        print(f"slurm_local: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
