"""Shared helpers of the laneql CLI tests (tests/cli/test_cli*.py).

Every test file runs as a script with `--laneql PATH` (or $LANEQL) and calls cli_harness.main(),
which sets LANEQL and runs unittest. The helpers run the binary in a subprocess (laneql, query,
scalar), parse its TSV output, and drive it through a pseudo-terminal (Terminal,
run_with_tty_stderr) for what only happens on a terminal: the REPL, the default table format,
progress bars.
"""
import errno
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
import unittest

LANEQL = None  # set from --laneql in main()
ROWS = 1000


def laneql(*args, check=None, input=None, timeout=300, cwd=None, env=None):
    """Runs laneql with args; returns the CompletedProcess (text). check: expected exit status.
    input: text for stdin (stdin is then a pipe, never the terminal the tests run on)."""
    proc = subprocess.run([LANEQL, *args], capture_output=True, text=True, timeout=timeout,
                          input=input if input is not None else "",
                          cwd=cwd, env=env)
    if check is not None and proc.returncode != check:
        raise AssertionError(
            f"laneql {' '.join(args)!r}: exit {proc.returncode}, wanted {check}\n"
            f"stdout: {proc.stdout[:2000]}\nstderr: {proc.stderr[:2000]}")
    return proc


def parse_tsv(out):
    """One TSV result (header line + rows) -> (header, rows), every field a string."""
    lines = out.split("\n")
    assert lines[-1] == "", f"TSV output must end with a newline: {out!r}"
    table = [line.split("\t") for line in lines[:-1]]
    return table[0], table[1:]


def query(sql, *flags, rows=ROWS):
    """Runs SQL over the generated hits with --format tsv; returns (header, rows)."""
    out = laneql("-c", sql, "--rows", str(rows), "--format", "tsv", *flags, check=0).stdout
    return parse_tsv(out)


def scalar(sql, *flags, rows=ROWS):
    header, body = query(sql, *flags, rows=rows)
    assert len(header) == 1 and len(body) == 1, (header, body)
    return body[0][0]


def nonempty_lines(text):
    """The lines of text without the empty ones: how several results are separated (a blank
    line or not) is not specified, their lines and order are not."""
    return [line for line in text.split("\n") if line.strip()]


def write_text(path, text):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    return path


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


# --- pseudo-terminals -------------------------------------------------------------------------

ANSI = re.compile(rb"\x1b(\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78])")
ANSI_PARTIAL = re.compile(rb"\x1b(\[[0-9;?]*[ -/]*|[()])?\Z")


def openpty_or_skip(test):
    try:
        return pty.openpty()
    except OSError as e:  # a sandbox without /dev/pts
        test.skipTest(f"no pseudo-terminal here: {e}")


def set_winsize(fd, rows=50, cols=250):
    # Wide, so that line editors never wrap (and redraw) a long query line.
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class Terminal:
    """laneql run on a pseudo-terminal (stdin, stdout and stderr), as an interactive user runs it.

    expect(pattern) reads until the regex appears in the output seen since the last match
    (escape sequences and carriage returns removed), with a deadline, never a fixed sleep.
    """

    def __init__(self, args, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: session leader with the pty as controlling terminal
            try:
                os.execve(LANEQL, [LANEQL, *args], env)
            finally:
                os._exit(127)
        set_winsize(self.fd)
        self.text = ""      # everything read, escape sequences and "\r" removed
        self.pos = 0        # where the next expect() starts looking
        self._pending = b""  # an escape sequence cut in two by a read
        self.eof = False
        self.status = None

    def _read(self, timeout):
        if self.eof:
            return False
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 65536)
        except OSError as e:  # EIO: the child closed the terminal (it exited)
            if e.errno != errno.EIO:
                raise
            chunk = b""
        if not chunk:
            self.eof = True
            return False
        data = self._pending + chunk
        partial = ANSI_PARTIAL.search(data)
        if partial and partial.start() < len(data):
            self._pending, data = data[partial.start():], data[:partial.start()]
        else:
            self._pending = b""
        data = ANSI.sub(b"", data).replace(b"\r", b"")
        self.text += data.decode("utf-8", "replace")
        return True

    def expect(self, pattern, timeout=30):
        """Reads until pattern (a regex) matches after pos; returns the match and moves pos past
        it. Fails with everything seen so far when the deadline passes or the program exits."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            m = regex.search(self.text, self.pos)
            if m:
                self.pos = m.end()
                return m
            if self.eof or time.monotonic() > deadline:
                raise AssertionError(
                    f"{'laneql exited' if self.eof else 'timed out'} waiting for {pattern!r}; "
                    f"output since the last match:\n{self.text[self.pos:]!r}\n"
                    f"(the output before it: {self.text[max(0, self.pos - 500):self.pos]!r})")
            self._read(deadline - time.monotonic())

    def since(self, start):
        return self.text[start:self.pos]

    def settle(self, timeout=0.5):
        """Waits (briefly) until the line editor has the terminal in its raw mode. The prompt can
        appear a few milliseconds before that; keys typed in between are read by the kernel's
        line discipline instead (and Ctrl-P, or Ctrl-C mid-line, do not reach the editor)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not termios.tcgetattr(self.fd)[3] & termios.ICANON:
                return True
            time.sleep(0.005)
        return False

    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        os.write(self.fd, data)

    def sendline(self, line):
        self.send(line + "\r")

    def wait(self, timeout=30):
        """Reads to the end of the output, then returns the exit status (or -signal)."""
        deadline = time.monotonic() + timeout
        while not self.eof and time.monotonic() < deadline:
            self._read(deadline - time.monotonic())
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
            time.sleep(0.05)
        raise AssertionError(f"laneql did not exit; output:\n{self.text[-3000:]!r}")

    def close(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)


def run_with_tty_stderr(test, args, timeout=300):
    """Runs laneql with stderr on a pseudo-terminal and stdout a pipe; returns
    (exit status, stdout text, raw terminal bytes)."""
    master, slave = openpty_or_skip(test)
    set_winsize(master, cols=120)
    try:
        proc = subprocess.Popen([LANEQL, *args], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        slave = None
        tty = b""
        deadline = time.monotonic() + timeout
        # Read while it runs: a full terminal buffer would block the program.
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: every writer closed the terminal
                    chunk = b""
                if not chunk:
                    break
                tty += chunk
            elif proc.poll() is not None:
                break
        out = proc.stdout.read().decode()
        proc.stdout.close()
        return proc.wait(timeout=max(1, deadline - time.monotonic())), out, tty
    finally:
        os.close(master)
        if slave is not None:
            os.close(slave)


def main():
    global LANEQL
    argv = sys.argv[1:]
    if "--laneql" in argv:
        i = argv.index("--laneql")
        LANEQL = argv[i + 1]
        del argv[i:i + 2]
    else:
        LANEQL = os.environ.get("LANEQL", "build/native/native-cli/laneql")
    LANEQL = os.path.abspath(LANEQL)  # tests run some commands in a temporary directory
    if not os.access(LANEQL, os.X_OK):
        sys.exit(f"{os.path.basename(sys.argv[0])}: no laneql program at {LANEQL} "
                 "(pass --laneql PATH)")
    unittest.main(module="__main__", argv=[sys.argv[0], *argv], verbosity=2)
