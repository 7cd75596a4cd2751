"""reconstruct sandbox harness: a resident JSON-lines server.

Reads one JSON request per line on stdin and writes one JSON response per line
on the original stdout (the only fd used for the protocol). Every request that
runs untrusted code (call, analyse, generate) runs in a forked child that was
forked ahead of time while the server was idle (two are kept), so the fork is
not on the request path. The child applies rlimits, drops to an unprivileged uid when
asked to (--uid/--gid), runs the inputs one after the other and streams results
back over a pipe; the server enforces the per-input wall-clock timeout and
SIGKILLs the child's process group when it expires. A program marked
"resident" (a task binding) is loaded once by a child that the server keeps
and sends the next requests of that program to, until a timeout, a crash or
a protocol violation kills it.

Python 3.11 standard library only. Started as `python3 -I -u -c <this source>
[--uid N --gid N] [--harden <caller mnt ns>] [--connect <socket path>]`; with
--connect the protocol runs over a Unix socket the client listens on.
"""

import ast
import ctypes
import gc
import json
import mmap
import os
import random
import resource
import select
import signal
import socket
import struct
import sys
import time
import types

HARNESS_VERSION = "2"

DEFAULT_TIMEOUT = 2.0
DEFAULT_MEMORY = 512 << 20
DEFAULT_OUTPUT = 1 << 20
DEFAULT_PROCS = 64
ANALYSE_TIMEOUT = 10.0
# Cap on the sum of the outputs of one call response.
RESPONSE_CAP = 256 << 20
ERROR_CAP = 2000
# The child sends buffered results at least this often (seconds), so that a
# later hang loses little finished work.
FLUSH_INTERVAL_NS = 10_000_000
FLUSH_BYTES = 64 << 10

# Shared progress record: (monotonic start in nanoseconds, index of the
# input being run); index -1 means the program is loading. The child
# writes it through a memoryview of two int64 (see _Child.put), never
# with pack_into, which zeroes the record before it writes the fields:
# the server, reading meanwhile, would see the input start at time 0 and
# kill it at once for overrunning its timeout.
PROGRESS = struct.Struct("<qq")

# One-letter codes of the call statuses on the wire (child to server, server
# to client): a batch's statuses travel as one string.
CODES = {
    "ok": "o",
    "error": "e",
    "timeout": "t",
    "memory": "m",
    "output_limit": "l",
    "bad_output": "b",
    "crashed": "c",
    "load_error": "L",
}
# The codes a child may report; the others are the server's verdicts.
_CHILD_CODES = frozenset("oemlbx")
_INT_TYPE = frozenset((int,))

# Set in a child's forked descendants (os.fork in a program): code that
# returns into the harness there exits instead of talking to the server.
_FORKED = []

_dumps = json.dumps
_loads = json.loads
# json.dumps builds a new encoder per call when given options; these are
# built once.
_encode = json.JSONEncoder(allow_nan=False, separators=(",", ":")).encode
_encode_str = json.encoder.encode_basestring_ascii
_encode_job = json.JSONEncoder(separators=(",", ":")).encode
_INF = float("inf")


class _Encoded(str):
    """A result's JSON text (or its error's), in a child's buffer of
    results beside values not encoded yet."""


# The types of results a child keeps as they are until it flushes its
# results, then encodes all at once (one call of the C encoder rather
# than one per result): immutable, so that the program cannot change
# what it returned after the fact. Other results are encoded at once.
_DEFERRED = frozenset((int, float, str, bool, type(None)))


# The recursion limit under which results are encoded: a program may raise
# its own, but a value nested deeper than this is no output (bad_output),
# not a message the server cannot decode (its own limit is the default).
ENCODE_DEPTH = 900


def _bounded(encode, v):
    """encode(v) under ENCODE_DEPTH, the program's own limit restored."""
    limit = sys.getrecursionlimit()
    if limit == ENCODE_DEPTH:
        return encode(v)
    sys.setrecursionlimit(ENCODE_DEPTH)
    try:
        return encode(v)
    finally:
        sys.setrecursionlimit(limit)


def _to_json(v):
    """_encode(v), with the common scalars done without building an encoder."""
    t = type(v)
    if t is int:
        return int.__repr__(v)
    if t is str:
        return _encode_str(v)
    if t is float and v == v and v != _INF and v != -_INF:
        return float.__repr__(v)
    return _bounded(_encode, v)


def _err(msg):
    try:
        os.write(2, ("harness: " + msg + "\n").encode("utf-8", "replace"))
    except OSError:
        pass


def _safe_str(obj):
    try:
        s = str(obj)
    except BaseException:  # noqa: BLE001 - a hostile __str__
        s = "<unprintable>"
    if len(s) > ERROR_CAP:
        s = s[:ERROR_CAP] + "..."
    return s


def _exc_text(e):
    name = type(e).__name__
    msg = _safe_str(e)
    return name + ": " + msg if msg else name


def _rejects(e, names):
    """Whether e is an instance of a class named in names (a bare name,
    such as ValueError, or one qualified by its module): a call request
    that lists the exceptions rejecting an input (a hidden program's) gets
    status "x" for any other, an error of the program rather than a
    rejection. The names are matched along the class's MRO, so that a
    subclass (json.JSONDecodeError of ValueError) counts as its base."""
    try:
        for c in type(e).__mro__:
            if c.__name__ in names or "%s.%s" % (c.__module__, c.__qualname__) in names:
                return True
    except BaseException:  # noqa: BLE001 - a hostile class
        pass
    return False


def _traceback_text(e):
    """The traceback of e, its end kept when it is long (the innermost
    frames say where it was raised)."""
    try:
        import traceback

        # The first frame is the harness's own call of the function.
        tb = e.__traceback__
        text = "".join(traceback.format_exception(type(e), e, tb.tb_next if tb is not None else None)).rstrip()
    except BaseException:  # noqa: BLE001 - a hostile __str__ etc.
        return _exc_text(e)
    if len(text) > ERROR_CAP:
        text = "..." + text[-ERROR_CAP:]
    return text


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


# ---------------------------------------------------------------- analysis


def _walk(tree):
    return ast.walk(tree)


def _literal_reprs(tree):
    """L: reprs of the ast.Constant values counted by the hard-coding penalty."""
    out = set()
    for node in _walk(tree):
        if not isinstance(node, ast.Constant):
            continue
        v = node.value
        if v is None or v is Ellipsis or isinstance(v, bool):
            continue
        if isinstance(v, (int, float, complex)) and abs(v) <= 2:
            continue
        try:
            r = repr(v)
        except (ValueError, MemoryError):
            continue
        if len(r) > 120:
            continue
        out.add(r)
    return out


def _observed_reprs(values):
    """E: reprs of every observed value and, recursively, of its elements."""
    out = set()
    stack = list(values)
    while stack:
        v = stack.pop()
        try:
            out.add(repr(v))
        except (ValueError, RecursionError, MemoryError):
            pass
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
    return out


class _NotLiteral(Exception):
    pass


def _display_value(node, signed_operands):
    """The JSON-normalisable value of a constant or a display of constants."""
    if isinstance(node, ast.Constant):
        v = node.value
        if v is None or isinstance(v, (bool, str, int, float)):
            return v
        raise _NotLiteral
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, (ast.USub, ast.UAdd))
        and isinstance(node.operand, ast.Constant)
        and isinstance(node.operand.value, (int, float))
        and not isinstance(node.operand.value, bool)
    ):
        signed_operands.add(id(node.operand))
        v = node.operand.value
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_display_value(e, signed_operands) for e in node.elts]
    if isinstance(node, ast.Dict):
        out = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                raise _NotLiteral
            out[_display_value(k, signed_operands)] = _display_value(v, signed_operands)
        return out
    raise _NotLiteral


def _canonical(value):
    return _dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _embedded_literals(tree):
    """Canonical JSON of every literal that can embed an observed input:
    a non-empty string, a number with |v| > 2 (sign included), or a non-empty
    list/tuple/dict display made only of constants (tuples as lists)."""
    found = set()
    signed = set()
    nodes = list(_walk(tree))
    for node in nodes:
        if isinstance(node, ast.UnaryOp) or isinstance(node, (ast.List, ast.Tuple, ast.Dict)):
            try:
                v = _display_value(node, signed)
            except (_NotLiteral, RecursionError, TypeError):
                # TypeError: a dict display keyed by tuples (unhashable as
                # lists); its keys are still examined on their own.
                continue
            if isinstance(v, (list, dict)) and not v:
                continue
            if isinstance(v, (int, float)) and abs(v) <= 2:
                continue
            try:
                found.add(_canonical(v))
            except (TypeError, ValueError, RecursionError):
                continue
    for node in nodes:
        if not isinstance(node, ast.Constant) or id(node) in signed:
            continue
        v = node.value
        if isinstance(v, bool) or v is None:
            continue
        if isinstance(v, str):
            if v:
                found.add(_canonical(v))
        elif isinstance(v, (int, float)) and abs(v) > 2:
            try:
                found.add(_canonical(v))
            except ValueError:
                pass
    return found


def _defines(tree, name):
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
            return True
        if isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                if isinstance(t, ast.Name) and t.id == name:
                    return True
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == name:
            return True
    return False


def analyse(source, function_name, inputs, outputs):
    size = min(1.0, max(0.0, (len(source) - 400) / 1600))
    result = {
        "parses": False,
        "defines_function": False,
        "size": size,
        "structure": 0.0,
        "complexity": 1.0,
        "hardcoding": 0.0,
        "literals": [],
        "embedded": [],
    }
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        result["parse_error"] = "SyntaxError: %s (line %s)" % (_safe_str(e.msg), e.lineno)
        return result
    except (ValueError, RecursionError, MemoryError) as e:
        result["parse_error"] = _exc_text(e)
        return result
    branches = loops = funcs = 0
    for node in _walk(tree):
        if isinstance(node, (ast.If, ast.IfExp, ast.Match)):
            branches += 1
        elif isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            loops += 1
        elif isinstance(node, ast.FunctionDef):
            funcs += 1
    structure = min(1.0, 0.03 * branches + 0.04 * loops + 0.02 * max(0, funcs - 1))
    lits = _literal_reprs(tree)
    observed = _observed_reprs(list(inputs) + list(outputs))
    hardcoding = min(1.0, len(lits & observed) / max(4, len(lits)))
    embeddable = _embedded_literals(tree)
    embedded = []
    seen = set()
    for i, v in enumerate(inputs):
        try:
            c = _canonical(v)
        except (TypeError, ValueError, RecursionError):
            continue
        if c in seen:
            continue
        seen.add(c)
        if c in embeddable:
            embedded.append(i)
    result.update(
        parses=True,
        defines_function=_defines(tree, function_name),
        structure=structure,
        complexity=min(1.0, size + structure),
        hardcoding=hardcoding,
        literals=sorted(lits),
        embedded=embedded,
    )
    return result


# ------------------------------------------------------------------- child


class OutputLimitExceeded(BaseException):
    """Raised from print() when a call prints more than its output limit."""


class _Capture:
    """Counts what a call prints and drops it; over the limit it raises."""

    encoding = "utf-8"
    errors = "strict"
    newlines = None
    closed = False

    def __init__(self, limit, binary=False, shared=None):
        self.limit = limit
        self.binary = binary
        self.state = shared if shared is not None else {"n": 0, "over": False}
        if not binary:
            self.buffer = _Capture(limit, True, self.state)

    def write(self, s):
        n = len(s)
        self.state["n"] += n
        if self.state["n"] > self.limit:
            self.state["over"] = True
            raise OutputLimitExceeded("printed more than %d bytes" % self.limit)
        return n

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def fileno(self):
        return 1

    def isatty(self):
        return False

    def writable(self):
        return True

    def readable(self):
        return False

    def reset(self):
        self.state["n"] = 0
        self.state["over"] = False


# The limits a child sets (see _Child.sandbox).
_LIMITED = (resource.RLIMIT_CORE, resource.RLIMIT_FSIZE, resource.RLIMIT_NPROC, resource.RLIMIT_AS, resource.RLIMIT_NOFILE)


class _Child:
    def __init__(self, res_fd, progress, cfg):
        self.res_fd = res_fd
        self.progress = progress
        # The progress record as two aligned int64: each is written with
        # one store (see PROGRESS).
        self.slots = memoryview(progress).cast("q")
        self.cfg = cfg
        self.pid = os.getpid()
        # Results not sent yet: status codes, nanoseconds, and the output
        # (or the error as a JSON string: see vals).
        self.codes = []
        self.nanos = []
        # One entry per result: the value itself while its JSON can wait
        # for the flush (see _DEFERRED), else its JSON text as an _Encoded.
        self.vals = []
        self.encoded = 0  # entries of vals that are _Encoded
        self.out_limit = DEFAULT_OUTPUT
        self.buf_bytes = 0
        self.last_flush = time.monotonic_ns()
        # The program's module, once exec_program ran it.
        self.module = None
        # The exception class names that reject an input (see _rejects),
        # or None: every exception is the call's error.
        self.rejects = None

    def mark(self, index):
        # Start time first, index second: the server never reads a start
        # time older than the real start of the input it reads (see
        # _Worker.current).
        slots = self.slots
        slots[0] = time.monotonic_ns()
        slots[1] = index

    def send(self, obj):
        """Send one message now (after any buffered results)."""
        self.flush()
        _write_all(self.res_fd, (_dumps(obj, separators=(",", ":"), allow_nan=False) + "\n").encode())

    def flush(self, now=None):
        """Send the buffered results as one message: the results of the
        next inputs of the job, in order, as three parallel columns."""
        if self.codes:
            # The values first: encoding one may change its status code.
            values = self.values()
            data = '{"t":"outs","s":"%s","ns":%s,"v":%s}\n' % ("".join(self.codes), _encode(self.nanos), values)
            _write_all(self.res_fd, data.encode())
            # Cleared in place: the call loop holds these lists.
            self.codes.clear()
            self.nanos.clear()
            self.vals.clear()
            self.encoded = 0
            self.buf_bytes = 0
        self.last_flush = now if now is not None else time.monotonic_ns()

    def values(self):
        """The JSON array of the buffered results. When every one is a
        deferred value, one call of the C encoder makes it; if that fails
        (a float that is not JSON) or is longer than the output limit (so
        that one of them may be), or some are encoded already, each value
        is encoded on its own as the loop would have, and a value that
        cannot be gets its status and error text in place."""
        vals = self.vals
        if not self.encoded:
            try:
                text = _bounded(_encode, vals)
            except (TypeError, ValueError, RecursionError, MemoryError):
                text = None
            if text is not None and len(text) <= self.out_limit:
                return text
        codes = self.codes
        texts = []
        for j, v in enumerate(vals):
            if type(v) is not _Encoded:
                status, v, error = _encode_output(v, self.out_limit)
                if status != "o":
                    codes[j] = status
                    v = _dumps(error)
            texts.append(v)
        return "[" + ",".join(texts) + "]"

    def guard(self):
        # A program that forked returns into this code in the grandchild too;
        # only the real child may talk to the server. (A program that forks
        # behind os.fork's back can write to the result pipe anyway: it
        # spoils only its own results.)
        if _FORKED or os.getpid() != self.pid:
            os._exit(0)

    def sandbox(self, limits, procs=DEFAULT_PROCS):
        mem = int(limits.get("memory_bytes") or DEFAULT_MEMORY)
        out = int(limits.get("output_bytes") or DEFAULT_OUTPUT)
        pre = bool(_PRESANDBOXED)
        for res, val in zip(_LIMITED, (0, max(out, 1 << 20), procs, mem, MAX_FILES)):
            if pre and _PRESET.get(res) == val:
                continue  # set by _presandbox
            try:
                resource.setrlimit(res, (val, val))
            except (ValueError, OSError) as e:
                _err("setrlimit %s: %s" % (res, e))
        drop_privileges(_libc(), self.cfg.get("uid"), self.cfg.get("gid"), no_new_privs=pre)

    def read_program(self, program):
        """Read the program, as the sandbox's user (after sandbox(): a
        task's files are never read as root, so a link in a task directory
        to a file only root may read gives nothing). Returns (source,
        details for exec_program) or (None, error text)."""
        fname = program.get("function") or ""
        path = program.get("path")
        source = program.get("source")
        if path:
            try:
                with open(path, "rb") as f:
                    raw = f.read()
            except OSError as e:
                return None, _exc_text(e)
            filename = path
            modname = os.path.splitext(os.path.basename(path))[0] or "program"
        else:
            raw = source if source is not None else ""
            filename = "<candidate>"
            modname = "candidate"
        return raw, (filename, modname, fname)

    def exec_program(self, raw, meta):
        """Run the program's module code; returns (function, None) or (None,
        error text)."""
        filename, modname, fname = meta
        if filename != "<candidate>":
            sys.path.insert(0, os.path.dirname(os.path.abspath(filename)))
        mod = types.ModuleType(modname)
        mod.__file__ = filename
        sys.modules[modname] = mod
        try:
            code = compile(raw, filename, "exec")
            exec(code, mod.__dict__)
        except SyntaxError as e:
            return None, "SyntaxError: %s (line %s)" % (_safe_str(e.msg), e.lineno)
        except OutputLimitExceeded:
            return None, "the program printed more than the output limit while loading"
        except BaseException as e:  # noqa: BLE001 - anything the program raises
            self.guard()
            return None, _exc_text(e)
        self.guard()
        self.module = mod
        fn = getattr(mod, fname, None) if fname else None
        if not callable(fn):
            return None, "the program does not define a function named %r" % fname
        return fn, None


def _encode_output(result, limit):
    """(status code, output JSON text or None, error)."""
    try:
        text = _to_json(result)
    except RecursionError:
        return "b", None, "the return value is nested too deeply for JSON"
    except MemoryError:
        return "m", None, "MemoryError while encoding the return value"
    except (TypeError, ValueError) as e:
        return "b", None, "the return value cannot be JSON: " + _safe_str(e)
    except BaseException as e:  # noqa: BLE001 - a hostile __repr__ etc.
        return "b", None, "the return value cannot be JSON: " + _exc_text(e)
    if len(text) > limit:
        return "l", None, "the return value is %d bytes of JSON, over the limit of %d" % (len(text), limit)
    return "o", text, ""


def _run_call(child, job):
    limits = job.get("limits") or {}
    out_limit = int(limits.get("output_bytes") or DEFAULT_OUTPUT)
    capture = _Capture(out_limit)
    child.mark(-1)
    child.sandbox(limits)
    raw, meta = child.read_program(job["program"])
    if raw is None:
        child.send({"t": "load", "ok": False, "error": meta})
        return
    sys.stdout = sys.__stdout__ = capture
    sys.stderr = sys.__stderr__ = _Capture(out_limit, shared=capture.state)
    fn, err = child.exec_program(raw, meta)
    if fn is None:
        child.send({"t": "load", "ok": False, "error": err})
        return
    inputs = job["inputs"]
    child.rejects = job.get("rejects")
    _call_inputs(child, fn, job.get("positions") or range(len(inputs)), inputs, out_limit, capture.state)


def _call_inputs(child, fn, positions, inputs, out_limit, state):
    """Call fn on each input and buffer the results in child (flushed as
    they go and at the end). The loop runs once per input: everything it
    uses is local, and it makes no system call of its own (the clock is
    the vDSO's). A result of a type in _DEFERRED is kept as it is, and
    encoded with the others when they are flushed."""
    slots = child.slots
    clock = time.monotonic_ns
    forked = _FORKED
    deferred = _DEFERRED
    codes, nanos, vals = child.codes, child.nanos, child.vals
    rejects = child.rejects
    child.out_limit = out_limit
    for pos, value in zip(positions, inputs):
        if state["n"]:
            state["n"] = 0
            state["over"] = False
        # Start time first, index second: the server never reads a start
        # time older than the real start of the input it reads (see
        # _Worker.current).
        t0 = clock()
        slots[0] = t0
        slots[1] = pos
        status = "o"
        result = None
        try:
            result = fn(value)
        except OutputLimitExceeded:
            pass
        except RecursionError as e:
            status, error = "e", _exc_text(e)
            if rejects is not None and not _rejects(e, rejects):
                status, error = "x", _traceback_text(e)
        except MemoryError as e:
            status, error = "m", _exc_text(e)
        except SystemExit as e:
            status, error = "e", "SystemExit: %s (the program called sys.exit)" % _safe_str(e.code)
            if rejects is not None and not _rejects(e, rejects):
                status, error = "x", _traceback_text(e)
        except BaseException as e:  # noqa: BLE001 - anything the program raises
            status, error = "e", _exc_text(e)
            if rejects is not None and not _rejects(e, rejects):
                status, error = "x", _traceback_text(e)
        t1 = clock()
        if forked:
            os._exit(0)
        t = type(result)
        if status == "o" and t in deferred and not state["over"]:
            vals.append(result)
            child.buf_bytes += len(result) if t is str else 16
        else:
            if state["over"]:
                status, error = "l", "the call printed more than %d bytes" % out_limit
            elif status == "o":
                status, text, error = _encode_output(result, out_limit)
            if status != "o":
                text = _dumps(error)
            vals.append(_Encoded(text))
            child.encoded += 1
            child.buf_bytes += len(text)
        result = None
        codes.append(status)
        nanos.append(t1 - t0)
        if child.buf_bytes >= FLUSH_BYTES or t1 - child.last_flush >= FLUSH_INTERVAL_NS:
            child.flush(t1)
    child.flush()


def _run_generate(child, job):
    limits = job.get("limits") or {}
    out_limit = int(limits.get("output_bytes") or DEFAULT_OUTPUT)
    capture = _Capture(out_limit)
    child.mark(-1)
    child.sandbox(limits)
    raw, meta = child.read_program(job["program"])
    if raw is None:
        child.send({"t": "gen", "ok": False, "error": "cannot load the generator: " + meta})
        return
    sys.stdout = sys.__stdout__ = capture
    sys.stderr = sys.__stderr__ = _Capture(out_limit, shared=capture.state)
    fn, err = child.exec_program(raw, meta)
    if fn is None:
        child.send({"t": "gen", "ok": False, "error": "cannot load the generator: " + err})
        return
    _generate_with(child, fn, job, out_limit)


def _generate_with(child, fn, job, out_limit):
    """Run the loaded generator fn on job and send its one message."""
    k = int(job.get("k") or 0)
    child.mark(0)
    try:
        result = fn(k, job.get("exclude") or [], random.Random(job.get("seed") or 0))
    except OutputLimitExceeded:
        child.guard()
        child.send({"t": "gen", "ok": False, "error": "the generator printed more than %d bytes" % out_limit})
        return
    except BaseException as e:  # noqa: BLE001
        child.guard()
        child.send({"t": "gen", "ok": False, "error": "the generator raised " + _exc_text(e)})
        return
    child.guard()
    if isinstance(result, tuple):
        result = list(result)
    if not isinstance(result, list):
        child.send({"t": "gen", "ok": False, "error": "the generator returned %s, not a list" % type(result).__name__})
        return
    if len(result) > k:
        # Fewer than k is a generator with no more inputs; more is a mistake.
        child.send({"t": "gen", "ok": False, "error": "the generator returned %d inputs when asked for %d" % (len(result), k)})
        return
    texts = []
    for j, v in enumerate(result):
        status, text, error = _encode_output(v, out_limit)
        if status != "o":
            child.send({"t": "gen", "ok": False, "error": "input %d: %s" % (j, error)})
            return
        texts.append(text)
    child.send({"t": "gen", "ok": True, "inputs": texts})


def _run_resident(child, job, req_fd):
    """Body of a resident child: load the program of its first job once,
    then serve that job and every next one (call or generate, on any
    function of the program) read from req_fd, until the server closes it
    or kills the child. The server sends a resident child only jobs of
    the program and limits it was started with, one at a time."""
    limits = job.get("limits") or {}
    out_limit = int(limits.get("output_bytes") or DEFAULT_OUTPUT)
    capture = _Capture(out_limit)
    child.mark(-1)
    child.sandbox(limits)
    raw, meta = child.read_program(job["program"])
    if raw is not None:
        sys.stdout = sys.__stdout__ = capture
        sys.stderr = sys.__stderr__ = _Capture(out_limit, shared=capture.state)
        fn, err = child.exec_program(raw, meta)
        raw = None
    else:
        err = meta
    if child.module is None:
        _resident_load_failed(child, job, err)
        return
    state = capture.state
    pending = bytearray()
    while True:
        fname = (job.get("program") or {}).get("function") or ""
        fn = getattr(child.module, fname, None) if fname else None
        if not callable(fn):
            _resident_load_failed(child, job, "the program does not define a function named %r" % fname)
            return
        state["n"] = 0
        state["over"] = False
        if job.get("op") == "call":
            child.rejects = job.get("rejects")
            _call_inputs(child, fn, job["positions"], job["inputs"], out_limit, state)
        else:
            _generate_with(child, fn, job, out_limit)
        child.guard()
        child.flush()
        job = None
        while True:
            nl = pending.find(b"\n")
            if nl >= 0:
                job = _loads(bytes(pending[:nl]))
                del pending[: nl + 1]
                break
            data = os.read(req_fd, 1 << 20)
            if not data:
                os._exit(0)
            pending += data


def _resident_load_failed(child, job, err):
    """Report a resident child's load failure; the server then kills it."""
    if job.get("op") == "call":
        child.send({"t": "load", "ok": False, "error": err})
    else:
        child.send({"t": "gen", "ok": False, "fatal": True, "error": "cannot load the generator: " + err})


def _run_analyse(child, job):
    child.sandbox({})
    child.mark(0)
    try:
        a = analyse(job.get("source") or "", job.get("function_name") or "", job.get("inputs") or [], job.get("outputs") or [])
    except BaseException as e:  # noqa: BLE001
        child.send({"t": "analysis", "ok": False, "error": "analyse: " + _exc_text(e)})
        return
    child.send({"t": "analysis", "ok": True, "analysis": a})


# The job a spare child runs while idle (see _warm).
_WARM_SOURCE = """
def f(x):
    if x == "raise":
        raise ValueError("warm")
    if x == "print":
        print("warm")
    return [x, 2.5, "s"] if type(x) is int else x
"""
WARM_INPUTS = 1000


def _warm(out_fd, cfg):
    """Run, while idle, a job like the ones that come, its results written
    to out_fd (/dev/null): the pages a job touches are copied (copy-on-write
    after the fork) or allocated now, rather than on the request path (a
    page fault costs tens of microseconds on some virtual machines). Only
    what cannot be undone (the limits, the privilege drop) is left out; the
    calls it makes are exercised with a harmless request."""
    inputs = list(range(WARM_INPUTS - 3)) + ["raise", "print", "s"]
    line = _dumps({"op": "call", "program": {"source": _WARM_SOURCE, "function": "f"},
                   "positions": list(range(len(inputs))), "inputs": inputs, "limits": {}})
    job = _loads(line.encode())
    child = _Child(out_fd, mmap.mmap(-1, PROGRESS.size), {})
    out = sys.stdout
    capture = _Capture(DEFAULT_OUTPUT)
    sys.stdout = capture
    try:
        child.mark(-1)
        raw, meta = child.read_program(job["program"])
        fn, err = child.exec_program(raw, meta)
        _call_inputs(child, fn, job["positions"], job["inputs"], DEFAULT_OUTPUT, capture.state)
        child.send({"t": "load", "ok": False, "error": "warm"})
    finally:
        sys.stdout = out
        sys.modules.pop(meta[1], None)
    child.slots.release()
    child.progress.close()
    _presandbox()
    # What sandbox() calls still, with no effect: the other limits, the
    # groups, gid and uid (when the job's child changes them) and the
    # capabilities set to what they are. A fork leaves out of the child's
    # page tables the pages of the interpreter's and libc's code, and each
    # first touch of one is a page fault (20-100 us on some virtual
    # machines): these calls make the job's sandbox() touch none.
    for res in _LIMITED:
        if res not in _PRESET:
            resource.setrlimit(res, resource.getrlimit(res))
    if cfg.get("uid") is not None:
        for f, arg in ((os.setgroups, os.getgroups), (os.setgid, os.getgid), (os.setuid, os.getuid)):
            try:
                f(arg())
            except OSError:
                pass
    hdr, data = _cap_structs()
    libc = _libc()
    if libc.capget(hdr, data) == 0:
        libc.capset(hdr, data)


# Set in a spare child once _presandbox ran.
_PRESANDBOXED = []


def _presandbox():
    """What a spare child can do of sandbox() before it knows its job, off
    the request path: the limits that are the same for every job, and
    no_new_privs (with the ambient capabilities cleared). It runs no code
    but the harness's until its job; the uid and the memory and file-size
    limits, which depend on the job, are set when it comes, before its
    program is read."""
    for res, val in _PRESET.items():
        resource.setrlimit(res, (val, val))
    libc = _libc()
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    _PRESANDBOXED.append(True)


def _child_main(req_fd, res_fd, progress, cfg, warm):
    """Body of a child: wait for one job, run it, exit. A spare child (warm)
    first runs a job of its own, while the sandbox is idle."""
    os.setsid()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT,
                signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM, signal.SIGVTALRM, signal.SIGPROF):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    hi = max(req_fd, res_fd)
    for fd in range(3, hi):
        if fd not in (req_fd, res_fd):
            try:
                os.close(fd)
            except OSError:
                pass
    os.closerange(hi + 1, 1 << 16)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    sys.stdin = open(os.devnull)
    if warm:
        _warm(1, cfg)
    os.register_at_fork(after_in_child=lambda: _FORKED.append(True))
    chunks = []
    while True:
        data = os.read(req_fd, 1 << 20)
        if not data:
            os._exit(0)
        chunks.append(data)
        if data.endswith(b"\n"):
            break
    job = _loads(b"".join(chunks))
    req = job.get("req")
    if req is not None:
        # The client's call request as it came (see Server.call): every
        # input, in order.
        job = {"op": "call", "program": req.get("program"), "inputs": req.get("inputs"), "limits": req.get("limits"), "rejects": req.get("rejects")}
    child = _Child(res_fd, progress, cfg)
    op = job.get("op")
    if job.get("resident") and op in ("call", "generate"):
        _run_resident(child, job, req_fd)
        child.guard()
        child.flush()
        os._exit(0)
    os.close(req_fd)
    if op == "call":
        _run_call(child, job)
    elif op == "generate":
        _run_generate(child, job)
    elif op == "analyse":
        _run_analyse(child, job)
    child.guard()
    child.flush()
    os._exit(0)


# ------------------------------------------------------------------ zygote

# How long the server waits for the zygote to hand over a child before it
# replaces the zygote (a program running as the zygote's uid may have
# stopped or killed it).
ZYGOTE_TIMEOUT = 5.0
# Spare children kept forked and warmed up. Requests come in pairs with
# nothing between them (a candidate's analysis, then its call; an oracle's
# query, then the check of a sample): with two spares the second finds one
# ready, instead of waiting for a fork and a warm-up (a tenth of a second
# or more on a loaded machine).
SPARES = 2
# After a response, how long the server waits for the next request before
# it forks the spares it lacks: a request that follows at once is served
# first, by a spare left over, not kept waiting for a fork.
REFILL_GRACE = 0.02


def _zygote_main(sock, cfg):
    """Body of the zygote: the process that forks every child that runs a
    request. It is forked before the server reads its first request (or
    started as a fresh interpreter to replace one that died), and it never
    receives anything but "fork" messages, so no child ever inherits a byte
    of request data: the server's memory holds every request it handled,
    the observed outputs of analyse requests among them.

    Each message ("w" for a spare child, which warms up before it waits
    for its job, "f" for one needed at once) carries the child's three
    descriptors (job pipe, result pipe, progress memory); the zygote forks
    twice so that the child, once its intermediate parent has exited, is
    the server's child (the server is PID 1 or a subreaper) and the server
    can wait for it. The reply is the child's pid (0 when it could not be
    forked)."""
    libc = _libc()
    # A fresh interpreter is dumpable again: not this one (its memory is
    # what every child starts from).
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    # Once here rather than in every child (it keeps the capabilities the
    # zygote holds; a child drops them before it reads its job's program).
    drop_bounding_set(libc)
    _BOUNDING_SET_EMPTY.append(True)
    # Python's objects for the standard streams close their descriptors
    # when collected: let that happen now, not in a child where the same
    # numbers are its pipes.
    for name in ("stdin", "__stdin__", "stdout", "__stdout__"):
        setattr(sys, name, None)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        if fd != null:
            os.dup2(null, fd)
    if null > 1:
        os.close(null)
    keep = sock.fileno()
    os.closerange(3, keep)
    os.closerange(keep + 1, 1 << 16)
    for sig in _IGNORED:
        signal.signal(sig, signal.SIG_IGN)
    gc.collect()
    gc.freeze()
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 16, 4)
        except OSError:
            os._exit(0)
        if not msg:
            os._exit(0)
        pid = _spawn(fds, cfg, msg == b"w") if len(fds) == 3 else 0
        for fd in fds:
            os.close(fd)
        try:
            sock.send(struct.pack("<q", pid))
        except OSError:
            os._exit(0)


def _spawn(fds, cfg, warm):
    """Fork a child through an intermediate process; returns its pid."""
    req_r, res_w, pfd = fds
    r, w = os.pipe()
    try:
        mid = os.fork()
    except OSError:
        os.close(r)
        os.close(w)
        return 0
    if mid == 0:
        try:
            os.close(r)
            pid = os.fork()
            if pid == 0:
                try:
                    os.close(w)
                    progress = mmap.mmap(pfd, PROGRESS.size)
                    _child_main(req_r, res_w, progress, cfg, warm)
                except BaseException as e:  # noqa: BLE001
                    try:
                        _err("child: " + _exc_text(e))
                    finally:
                        os._exit(70)
                os._exit(0)
            os.write(w, struct.pack("<q", pid))
        finally:
            os._exit(0)
    os.close(w)
    try:
        os.waitpid(mid, 0)
    except ChildProcessError:
        pass
    data = os.read(r, 8)
    os.close(r)
    return struct.unpack("<q", data)[0] if len(data) == 8 else 0


class _Zygote:
    """The server's handle on its zygote."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.sock = None
        self.pid = None
        self.command = _own_command()

    def start(self, fresh):
        """Start the zygote: forked (only before any request was read) or,
        when fresh, as a new interpreter."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            try:
                ours.close()
                if not fresh:
                    _zygote_main(theirs, self.cfg)
                elif self.command:
                    os.set_inheritable(theirs.fileno(), True)
                    os.execv(self.command[0], self.command + ["--zygote", str(theirs.fileno()), _dumps(self.cfg)])
            except BaseException as e:  # noqa: BLE001
                _err("zygote: " + _exc_text(e))
            os._exit(70)
        theirs.close()
        self.sock, self.pid = ours, pid

    def stop(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (OSError, ChildProcessError):
                pass
            self.pid = None

    def spawn(self, fds, warm):
        """A new child holding fds (a spare one, which warms up, when warm);
        returns its pid, or 0."""
        for _ in range(2):
            if self.sock is None:
                self.start(fresh=True)
            try:
                os.kill(self.pid, signal.SIGCONT)
                socket.send_fds(self.sock, [b"w" if warm else b"f"], fds)
                r, _, _ = select.select([self.sock], [], [], ZYGOTE_TIMEOUT)
                data = self.sock.recv(16) if r else b""
            except OSError:
                data = b""
            if len(data) == 8:
                return struct.unpack("<q", data)[0]
            _err("the zygote did not answer; starting a fresh one")
            self.stop()
        return 0


# ------------------------------------------------------------------ server


class _Worker:
    """A forked child as the server sees it."""

    def __init__(self, pid, req_fd, res_fd, progress):
        self.pid = pid
        self.req_fd = req_fd
        self.res_fd = res_fd
        self.progress = progress
        self.buf = bytearray()
        self.eof = False
        self.bytes_read = 0
        self.seen_idx = None
        self.seen_at = 0.0

    def send(self, obj, keep=False):
        """Send a job (an object, or its line already encoded); the job
        pipe stays open for the next one when keep (a resident child), else
        it is closed."""
        try:
            _write_all(self.req_fd, obj if type(obj) is bytes else (_encode_job(obj) + "\n").encode())
            return True
        except OSError:
            keep = False
            return False
        finally:
            if not keep:
                os.close(self.req_fd)
                self.req_fd = -1

    def current(self):
        """(index being run, its start). The start is never later than when
        the server first saw that index: a child that writes a start time in
        the future does not get more time."""
        while True:
            idx = struct.unpack_from("<q", self.progress, 8)[0]
            start = struct.unpack_from("<q", self.progress, 0)[0] / 1e9
            if struct.unpack_from("<q", self.progress, 8)[0] == idx:
                break
        if idx != self.seen_idx:
            self.seen_idx, self.seen_at = idx, time.monotonic()
        return idx, min(start, self.seen_at)

    def read_messages(self, timeout, cap):
        """Wait up to timeout for data; returns the decoded messages. Sets
        self.eof when the child closed its end. Raises ValueError on a
        protocol violation."""
        r, _, _ = select.select([self.res_fd], [], [], max(0.0, timeout))
        if not r:
            return []
        data = os.read(self.res_fd, 1 << 20)
        if not data:
            self.eof = True
        self.bytes_read += len(data)
        self.buf += data
        msgs = []
        while True:
            nl = self.buf.find(b"\n")
            if nl < 0:
                break
            line = bytes(self.buf[:nl])
            del self.buf[: nl + 1]
            try:
                msg = _loads(line)
            except (ValueError, RecursionError, MemoryError) as e:
                raise ValueError("undecodable message from the child: " + _exc_text(e))
            if not isinstance(msg, dict):
                raise ValueError("the child sent a message that is not an object")
            msgs.append(msg)
        if len(self.buf) > cap:
            raise ValueError("the child sent a message over %d bytes" % cap)
        return msgs

    def signal(self):
        """SIGKILL the child's process group and close the pipes; the
        caller reaps it (wait) now or later."""
        for f in (lambda: os.killpg(self.pid, signal.SIGKILL), lambda: os.kill(self.pid, signal.SIGKILL)):
            try:
                f()
            except OSError:
                pass
        for fd in (self.req_fd, self.res_fd):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.req_fd = self.res_fd = -1

    def wait(self):
        """Reap the child; returns its wait status (None if unknown)."""
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            status = None
        return status

    def kill(self):
        self.signal()
        return self.wait()

    def release(self):
        try:
            self.progress.close()
        except (BufferError, ValueError):
            pass


def _describe_status(status):
    if status is None:
        return "the process running the call died"
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = "signal %d" % sig
        return "the process running the call was killed by %s" % name
    code = os.waitstatus_to_exitcode(status)
    return "the process running the call exited with status %d (os._exit or a crash)" % code


class Server:
    def __init__(self, proto_fd, cfg):
        self.proto_fd = proto_fd
        self.cfg = cfg
        # Spare children, oldest (the most likely warmed up) first.
        self.spares = []
        self.pidns = os.getpid() == 1
        # Children signalled on the request path, reaped once it is answered.
        self.dead = []
        # Pids finish killed, whose request's leftovers clean has yet to
        # sweep (None: nothing to sweep).
        self.unswept = None
        # The resident child (a program marked "resident", loaded once and
        # kept between requests) and the key of its program and limits.
        self.resident = None
        self.resident_key = None
        # The limits the harness started with: its zygote's and its spare
        # children's too (but those a spare sets while idle, _PRESET).
        self.limits = _limits(0)
        # Forked now, before the first request is read: clean.
        self.zygote = _Zygote(cfg)
        self.zygote.start(fresh=False)

    # -- children

    def fork(self, warm=False):
        # A zygote whose limits a program lowered would hand them to every
        # child: it is replaced by a fresh one, which gets the harness's.
        if self.zygote.pid and self.limits is not None:
            bad = _lowered(_limits(self.zygote.pid), self.limits)
            if bad:
                _err("the zygote's limits were changed (%s): starting a fresh one" % bad)
                self.zygote.stop()
        req_r, req_w = os.pipe()
        res_r, res_w = os.pipe()
        pfd = os.memfd_create("progress", os.MFD_CLOEXEC)
        try:
            os.ftruncate(pfd, PROGRESS.size)
            progress = mmap.mmap(pfd, PROGRESS.size)
            progress[0:16] = PROGRESS.pack(time.monotonic_ns(), -1)
            pid = self.zygote.spawn([req_r, res_w, pfd], warm)
        finally:
            for fd in (req_r, res_w, pfd):
                os.close(fd)
        if pid <= 0:
            os.close(req_w)
            os.close(res_r)
            progress.close()
            raise RuntimeError("cannot start a child process")
        return _Worker(pid, req_w, res_r, progress)

    def take(self, job, key=None):
        """Hand job to a spare child (or a fresh one); returns the worker.
        With a key (a resident program's), to the resident child of that
        key if there is one, else to a new child that becomes the resident
        one (replacing a resident child of another key)."""
        self.clean()
        if key is not None:
            job["resident"] = True
            w = self.resident
            if w is not None and self.resident_key == key:
                PROGRESS.pack_into(w.progress, 0, time.monotonic_ns(), -1)
                w.seen_idx = None
                if w.send(job, keep=True):
                    return w
            self.drop_resident()
        for _ in range(2):
            w = self.intact_spare() or self.fork()
            # The clock of the load starts now, not when the spare was forked.
            PROGRESS.pack_into(w.progress, 0, time.monotonic_ns(), -1)
            w.seen_idx = None
            if w.send(job, keep=key is not None):
                if key is not None:
                    self.resident, self.resident_key = w, key
                return w
            w.kill()
            w.release()
        raise RuntimeError("cannot start a child process")

    def intact_spare(self):
        """The oldest spare child still as the server left it, or None.
        A spare lives while the requests before its own run, and where those
        programs share its uid (in a container, the harness's) they may have
        killed or stopped it: such a spare is killed (reaped after the
        response) rather than handed a job it would never run."""
        while self.spares:
            w = self.spares.pop(0)
            if _intact(w.pid) and not self.changed_limits(w.pid):
                return w
            w.signal()
            w.release()
            self.dead.append(w)
        return None

    def changed_limits(self, pid):
        """What of a spare child's limits differs from what the harness
        gave it ("" when nothing does): a program sharing its uid may have
        lowered them with prlimit, and they would then be the next job's."""
        if self.limits is None:
            return ""
        bad = _lowered(_limits(pid), self.limits, _PRESET)
        if bad:
            _err("a spare child's limits were changed (%s): it is replaced" % bad)
        return bad

    def check_limits(self):
        """Restore the harness's own soft limits if a program changed them;
        raise _Poisoned if it lowered a hard limit, which nothing can raise
        again."""
        if self.limits is None:
            return
        have = _limits(0)
        if have is None:
            raise _Poisoned("its limits cannot be read")
        hard = []
        for r, (soft, cap) in self.limits.items():
            h_soft, h_cap = have[r]
            if h_cap != cap:
                hard.append("%s %s, was %s" % (_RLIMIT_NAMES.get(r, r), (h_soft, h_cap), (soft, cap)))
            elif h_soft != soft:
                try:
                    resource.setrlimit(r, (soft, cap))
                except (OSError, ValueError) as e:
                    hard.append("%s: %s" % (_RLIMIT_NAMES.get(r, r), e))
        if hard:
            raise _Poisoned("; ".join(hard))

    def drop_resident(self):
        """Kill the resident child, if any (reaped after the response)."""
        w, self.resident, self.resident_key = self.resident, None, None
        if w is not None:
            w.signal()
            w.release()
            self.dead.append(w)

    def finish(self, w, ok=False):
        """Kill a worker, without waiting: the body is reaped after the
        response is written. Whatever the request left behind is killed
        by the sweep that clean runs, after the response is written or
        before another child gets a job, whichever comes first: the
        response waits for neither. The resident child is spared when its
        request went well (ok); after a timeout, a crash or a protocol
        violation it is killed too, and the next request starts a fresh
        one."""
        if self.unswept is None:
            self.unswept = set()
        if w is self.resident:
            # Anything the child sent beyond its answer would be read as
            # the next request's.
            if ok and not w.buf:
                return
            self.resident, self.resident_key = None, None
        w.signal()
        w.release()
        self.dead.append(w)
        self.unswept.add(w.pid)

    def clean(self):
        """Run the sweep that finish deferred, if any. Until it ran no
        child gets a job and no request is read: the processes a request
        left live on only while its response is written."""
        if self.unswept is not None:
            killed, self.unswept = self.unswept, None
            self.sweep(killed=killed)

    def sweep(self, killed=()):
        """SIGKILL every process but the server, the zygote, the spares and
        the resident child, until none is left: in a PID namespace (the
        harness is PID 1) every process in it, else the server's
        descendants (the resident child's among them). Processes forked while
        a pass runs are caught by the next: a process with a pending SIGKILL
        cannot fork, so once a pass finds no process that it has not killed
        already, none is left that can run. (Nothing is reaped meanwhile, so
        no pid is reused.) killed: pids already sent SIGKILL."""
        keep = {os.getpid()}
        if self.zygote.pid:
            keep.add(self.zygote.pid)
        keep.update(w.pid for w in self.spares)
        if self.resident is not None:
            keep.add(self.resident.pid)
        killed = set(killed)
        for _ in range(1000):
            if self.pidns:
                pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
            else:
                pids = _descendants(os.getpid(), skip=keep)
                if self.resident is not None:
                    pids += _descendants(self.resident.pid)
            alive = [p for p in pids if p not in keep and p not in killed and not _zombie(p)]
            if not alive:
                return
            for pid in alive:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
                killed.add(pid)
        _err("warning: processes left by a request survive the clean-up")

    def reap(self):
        for w in self.dead:
            w.wait()
        self.dead = []
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            spare = next((w for w in self.spares if w.pid == pid), None)
            if spare is not None:
                spare.signal()
                spare.release()
                self.spares.remove(spare)
            elif self.resident is not None and pid == self.resident.pid:
                self.resident.signal()
                self.resident.release()
                self.resident, self.resident_key = None, None
            elif pid == self.zygote.pid:
                self.zygote.pid = None
                self.zygote.stop()

    # -- requests

    def call(self, req, line=None):
        """A call request (line: its text, as it came)."""
        program = req.get("program")
        inputs = req.get("inputs")
        if not isinstance(program, dict) or not isinstance(inputs, list):
            raise ValueError("call needs a program object and an inputs list")
        limits = req.get("limits") or {}
        timeout = float(limits.get("timeout") or DEFAULT_TIMEOUT)
        out_limit = int(limits.get("output_bytes") or DEFAULT_OUTPUT)
        key = _resident_key(program, limits)
        n = len(inputs)
        # The outcomes, as columns: status code, nanoseconds, and the output
        # value (status "o") or the error text.
        res = ([None] * n, [0] * n, [None] * n)
        total = 0
        while True:
            todo = [i for i in range(n) if res[0][i] is None]
            if not todo:
                break
            if len(todo) == n and key is None and type(line) is bytes:
                # Every input, to a child of its own: the request as it
                # came, rather than its inputs decoded and encoded again.
                job = b'{"op":"call","req":' + line.strip() + b"}\n"
            else:
                job = {
                    "op": "call",
                    "program": program,
                    "positions": todo,
                    "inputs": [inputs[i] for i in todo] if len(todo) < n else inputs,
                    "limits": limits,
                    "rejects": req.get("rejects"),
                }
            w = self.take(job, key)
            got = 0  # results received from this child: todo[:got]
            failure = None  # (status code, error, index, or None for all left)
            # However the child reports its progress, the whole batch gets
            # no more than every input's timeout plus the load's.
            hard = time.monotonic() + (len(todo) + 1) * timeout + 1.0
            try:
                while got < len(todo):
                    idx, start = w.current()
                    now = time.monotonic()
                    wait = min(start + timeout, hard) - now
                    if wait <= 0:
                        if idx < 0:
                            failure = ("t", "loading the program took longer than %gs" % timeout, None)
                        else:
                            failure = ("t", "the call took longer than %gs and was killed" % timeout, idx)
                        break
                    before = w.bytes_read
                    msgs = w.read_messages(min(wait, 1.0), 4 * out_limit + (1 << 16))
                    total += w.bytes_read - before
                    if total > RESPONSE_CAP:
                        failure = ("l", "the outputs of this batch exceed %d bytes in total" % RESPONSE_CAP, None)
                        break
                    for msg in msgs:
                        t = msg.get("t")
                        if t == "outs":
                            got += self.record(res, todo, got, msg)
                        elif t == "load" and not msg.get("ok"):
                            failure = ("L", _safe_str(msg.get("error")), None)
                            break
                        else:
                            raise ValueError("unexpected message from the child")
                    if failure:
                        break
                    if w.eof and got < len(todo):
                        idx, _ = w.current()
                        failure = ("c", _describe_status(w.kill()), idx if idx >= 0 else None)
                        break
            except ValueError as e:
                idx, _ = w.current()
                failure = ("c", "protocol violation: %s" % e, idx if idx >= 0 else None)
            nanos = int((time.monotonic() - w.current()[1]) * 1e9)
            self.finish(w, ok=failure is None and not w.eof)
            if failure:
                code, error, idx = failure
                codes, ns, vals = res
                if idx is None or not 0 <= idx < n or codes[idx] is not None:
                    for i in todo:
                        if codes[i] is None:
                            codes[i], ns[i], vals[i] = code, 0, error
                else:
                    codes[idx], ns[idx], vals[idx] = code, nanos, error
        return self.encode_outcomes(req.get("id"), res)

    def record(self, res, todo, got, msg):
        """Store a message of results from the child, for the inputs
        todo[got:got+k]; returns k. Everything the response depends on is
        checked here: a child that sends anything else is a protocol
        violation."""
        s, ns, v = msg.get("s"), msg.get("ns"), msg.get("v")
        if type(s) is not str or type(ns) is not list or type(v) is not list or len(msg) != 4:
            raise ValueError("malformed results")
        k = len(s)
        if len(ns) != k or len(v) != k or got + k > len(todo):
            raise ValueError("results for unexpected inputs")
        if k == 0:
            return 0
        # The times must fit the client's int64.
        if not set(s) <= _CHILD_CODES or not set(map(type, ns)) <= _INT_TYPE or min(ns) < 0 or max(ns) >= 1 << 62:
            raise ValueError("malformed results")
        if s.count("o") != k:
            for code, text in zip(s, v):
                if code != "o" and type(text) is not str:
                    raise ValueError("malformed error text")
        codes, nanos, vals = res
        first, last = todo[got], todo[got + k - 1]
        if last - first == k - 1:
            # Consecutive inputs (always, but after a timeout or a crash).
            codes[first : last + 1] = s
            nanos[first : last + 1] = ns
            vals[first : last + 1] = v
        else:
            for j, i in enumerate(todo[got : got + k]):
                codes[i], nanos[i], vals[i] = s[j], ns[j], v[j]
        return k

    def encode_outcomes(self, rid, res):
        """The response line of a call: its outcomes as columns."""
        codes, nanos, vals = res
        resp = {"id": rid, "ok": True, "s": "".join(codes), "ns": nanos, "v": vals}
        try:
            return _encode(resp)
        except (TypeError, ValueError, RecursionError):
            # Only a tampered child can get here (json.loads accepts NaN).
            for i, v in enumerate(vals):
                try:
                    _encode(v)
                except (TypeError, ValueError, RecursionError):
                    codes[i], vals[i] = "c", "protocol violation: unencodable outcome"
            resp["s"] = "".join(codes)
            return _encode(resp)

    def single(self, job, timeout, kind, key=None):
        """Run a one-shot job (analyse, generate); returns the child's message
        or raises RuntimeError with the reason. key: see take."""
        w = self.take(job, key)
        # The deadline runs from the request, not from when the spare child
        # was forked (it may have waited idle for a long time).
        start = time.monotonic()
        ok = False
        try:
            while True:
                wait = start + timeout - time.monotonic()
                if wait <= 0:
                    raise RuntimeError("%s took longer than %gs and was killed" % (kind, timeout))
                try:
                    msgs = w.read_messages(min(wait, 1.0), RESPONSE_CAP)
                except ValueError as e:
                    raise RuntimeError("%s: protocol violation: %s" % (kind, e))
                if key is not None and (len(msgs) > 1 or (msgs and w.buf)):
                    raise RuntimeError("%s: protocol violation: more than one message from the child" % kind)
                for msg in msgs:
                    ok = not msg.get("fatal") and not w.eof
                    return msg
                if w.eof:
                    raise RuntimeError("%s: %s" % (kind, _describe_status(w.kill())))
        finally:
            self.finish(w, ok)

    def analyse(self, req):
        inputs = req.get("inputs") or []
        outputs = req.get("outputs") or []
        source = req.get("source")
        if not isinstance(source, str) or not isinstance(inputs, list) or not isinstance(outputs, list):
            raise ValueError("analyse needs source, inputs and outputs")
        job = {"op": "analyse", "source": source, "function_name": req.get("function_name") or "", "inputs": inputs, "outputs": outputs}
        msg = self.single(job, ANALYSE_TIMEOUT, "analyse")
        if msg.get("t") != "analysis":
            raise RuntimeError("analyse: unexpected message from the child")
        if not msg.get("ok"):
            return {"id": req.get("id"), "ok": False, "error": _safe_str(msg.get("error"))}
        return {"id": req.get("id"), "ok": True, "analysis": msg.get("analysis")}

    def generate(self, req):
        program = req.get("program")
        if not isinstance(program, dict):
            raise ValueError("generate needs a program object")
        k = req.get("k")
        if not isinstance(k, int) or k < 0:
            raise ValueError("generate needs k >= 0")
        limits = req.get("limits") or {}
        timeout = float(limits.get("timeout") or DEFAULT_TIMEOUT)
        job = {"op": "generate", "program": program, "k": k, "exclude": req.get("exclude") or [], "seed": req.get("seed") or 0, "limits": limits}
        msg = self.single(job, timeout, "generate", _resident_key(program, limits))
        if msg.get("t") != "gen":
            raise RuntimeError("generate: unexpected message from the child")
        if not msg.get("ok"):
            # The generator's own failure (it raised, returned no list, could
            # not be loaded), not the sandbox's.
            return {"id": req.get("id"), "ok": False, "error": _safe_str(msg.get("error")), "program": True}
        texts = msg.get("inputs")
        if not isinstance(texts, list) or len(texts) > k or not all(isinstance(t, str) for t in texts):
            raise RuntimeError("generate: malformed inputs from the child")
        try:
            values = [_loads(t) for t in texts]
        except (ValueError, RecursionError) as e:
            raise RuntimeError("generate: undecodable input from the child: " + _exc_text(e))
        return {"id": req.get("id"), "ok": True, "inputs": values}

    def handle(self, line):
        try:
            req = _loads(line)
        except (ValueError, RecursionError) as e:
            return {"id": None, "ok": False, "error": "malformed request: " + _exc_text(e)}
        if not isinstance(req, dict):
            return {"id": None, "ok": False, "error": "malformed request: not a JSON object"}
        rid = req.get("id")
        op = req.get("op")
        try:
            if op == "ping":
                return {
                    "id": rid,
                    "ok": True,
                    "version": HARNESS_VERSION,
                    # What isolation the harness itself set up (informative).
                    "uid": self.cfg.get("uid"),
                    "readonly": bool(self.cfg.get("readonly")),
                    "private_root": bool(self.cfg.get("private_root")),
                    "pid_namespace": self.pidns,
                }
            if op == "call":
                return self.call(req, line)
            if op == "analyse":
                return self.analyse(req)
            if op == "generate":
                return self.generate(req)
            return {"id": rid, "ok": False, "error": "unknown op %r" % (op,)}
        except Exception as e:  # noqa: BLE001 - the server must stay up
            return {"id": rid, "ok": False, "error": _exc_text(e)}

    def respond(self, resp):
        if isinstance(resp, str):
            line = resp
        else:
            try:
                line = _dumps(resp, separators=(",", ":"), allow_nan=False)
            except (TypeError, ValueError, RecursionError) as e:
                line = _dumps({"id": resp.get("id"), "ok": False, "error": "unencodable response: " + _exc_text(e)})
        _write_all(self.proto_fd, (line + "\n").encode())

    def serve(self, stdin):
        self.refill(stdin, 0.0)
        try:
            while True:
                line = stdin.readline()
                if not line:
                    break
                if not line.strip():
                    continue
                self.respond(self.handle(line))
                try:
                    self.clean()
                finally:
                    self.check_limits()
                self.reap()
                self.refill(stdin, REFILL_GRACE)
        except _Poisoned as e:
            # The next request finds the harness gone, and the client runs
            # it on a fresh one that no program has touched.
            _err("warning: the harness's limits were lowered by a program (%s): it exits, to be replaced" % e)
        finally:
            for w in self.spares:
                w.kill()
                w.release()
            self.spares = []
            self.drop_resident()
            self.zygote.stop()
            self.sweep()
            self.reap()

    def refill(self, stdin, grace):
        """Fork the spare children that are missing, one at a time, while no
        request is waiting: a request that arrives within grace seconds, or
        while a spare is forked, is served first (by a spare left over, or a
        child forked for it). Requests are read from stdin, a buffered
        reader: a line already in its buffer is not seen here, so that
        request waits for the fork in progress; the client sends a request
        only once it has the previous response, so there is none."""
        fd = stdin.fileno()
        while len(self.spares) < SPARES:
            r, _, _ = select.select([fd], [], [], grace)
            if r:
                return
            grace = 0.0
            w = self.prepare()
            if w is None:
                return
            self.spares.append(w)

    def prepare(self):
        """A spare child for the next request, or None (the next request
        forks one itself and reports the failure)."""
        try:
            return self.fork(warm=True)
        except (OSError, RuntimeError) as e:
            _err("cannot fork a spare child: " + _exc_text(e))
            return None


def _resident_key(program, limits):
    """The key of the resident child that serves a program marked
    "resident" (None for any other program): the program but its function,
    and the limits the child sets once (its rlimits and output cap)."""
    if program.get("resident") is not True:
        return None
    prog = {k: v for k, v in program.items() if k != "function"}
    return _dumps([prog, limits.get("memory_bytes"), limits.get("output_bytes")], sort_keys=True)


def _intact(pid):
    """Whether process pid is alive, not stopped or traced, and has no
    signal pending (a pending SIGKILL is a process about to die)."""
    try:
        with open("/proc/%d/status" % pid, "rb") as f:
            status = f.read()
    except OSError:
        return False
    for line in status.split(b"\n"):
        key, _, value = line.partition(b":")
        if key == b"State" and value.split()[:1] not in ([b"R"], [b"S"], [b"D"]):
            return False
        if key in (b"SigPnd", b"ShdPnd") and int(value.strip() or b"0", 16) != 0:
            return False
    return True


# Every resource limit a process has; a program sharing the harness's uid
# (in a container, or the caller's in the process sandbox when it is not
# root) can lower any of them for the harness, its zygote and its spare
# children with prlimit, and nothing can raise a hard limit again.
_RLIMITS = tuple(getattr(resource, n) for n in sorted(dir(resource)) if n.startswith("RLIMIT_"))


def _limits(pid):
    """{resource: (soft, hard)} of process pid (0: this one); None when they
    cannot be read (the process is gone)."""
    try:
        return {r: resource.prlimit(pid, r) for r in _RLIMITS}
    except (OSError, ValueError):
        return None


def _lowered(have, want, preset=None):
    """The limits in have that differ from want (for a resource of preset,
    its preset value is right too), as text; "" when none does."""
    if have is None:
        return "unreadable"
    bad = []
    for r, w in want.items():
        h = have.get(r)
        if h == w or (preset and r in preset and h == (preset[r], preset[r])):
            continue
        bad.append("%s %s, was %s" % (_RLIMIT_NAMES.get(r, r), h, w))
    return "; ".join(bad)


_RLIMIT_NAMES = {getattr(resource, n): n for n in dir(resource) if n.startswith("RLIMIT_")}


class _Poisoned(Exception):
    """The harness's own limits were lowered by a program: it can no longer
    serve as it did, and exits so that a fresh one replaces it."""


def _zombie(pid):
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            stat = f.read()
    except OSError:
        return True
    return stat[stat.rfind(b")") + 2 : stat.rfind(b")") + 3] in (b"Z", b"X")


def _descendants(root, skip=()):
    """Every descendant of root, but those under a pid in skip."""
    out = []
    stack = [root]
    while stack:
        pid = stack.pop()
        try:
            tasks = os.listdir("/proc/%d/task" % pid)
        except OSError:
            continue
        for tid in tasks:
            try:
                with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                    kids = [int(x) for x in f.read().split()]
            except (OSError, ValueError):
                continue
            kids = [k for k in kids if k not in skip]
            out.extend(kids)
            stack.extend(kids)
    return out


# ---------------------------------------------------------------- hardening

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_NOATIME = 1024
MS_NODIRATIME = 2048
MS_BIND = 4096
MS_MOVE = 8192
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_RELATIME = 1 << 21
MS_STRICTATIME = 1 << 24
MNT_DETACH = 2
_KEEP = {
    "nosuid": MS_NOSUID,
    "nodev": MS_NODEV,
    "noexec": MS_NOEXEC,
    "noatime": MS_NOATIME,
    "nodiratime": MS_NODIRATIME,
    "relatime": MS_RELATIME,
    "strictatime": MS_STRICTATIME,
}
# pivot_root has no libc wrapper: its system call number per machine.
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217, "armv7l": 218, "i686": 217}
# What a sandbox sees of the host: the system directories, read-only. The
# rest (/home, /root, /var, /run, /tmp, /srv, /mnt, /opt, /sys, ...) is
# not there at all.
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
_DEVICES = ("null", "zero", "full", "random", "urandom")
# Capabilities, prctl options.
PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_GET_NO_NEW_PRIVS = 39
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_PDEATHSIG = 1
_CAP_VERSION_3 = 0x20080522
MAX_FILES = 1024
# The limits every job's child sets to the same value (see _Child.sandbox).
_PRESET = {resource.RLIMIT_CORE: 0, resource.RLIMIT_NPROC: DEFAULT_PROCS, resource.RLIMIT_NOFILE: MAX_FILES}


def _unescape(path):
    return path.encode().decode("unicode_escape").encode("latin-1")


_LIBC = []


def _libc():
    if _LIBC:
        return _LIBC[0]
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    _LIBC.append(libc)
    return libc


def _check(ret, what):
    if ret != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e), what)


def _mount(libc, src, target, fstype, flags, data):
    enc = lambda s: s.encode() if isinstance(s, str) else s  # noqa: E731
    _check(libc.mount(enc(src), enc(target), enc(fstype), flags, enc(data)), target)


def _mounts():
    """(target, options) of every mount, from the mount table."""
    with open("/proc/self/mountinfo") as f:
        lines = f.read().splitlines()
    out = []
    for line in lines:
        fields = line.split()
        if len(fields) >= 6:
            out.append((_unescape(fields[4]), fields[5]))
    return out


def _remount(libc, target, opts, extra):
    flags = MS_REMOUNT | MS_BIND | extra
    for opt in opts.split(","):
        flags |= _KEEP.get(opt, 0)
    if "ro" in opts.split(","):
        flags |= MS_RDONLY
    _mount(libc, None, target, None, flags, None)


def private_root(cfg, spec):
    """Give the sandbox a root of its own: a tmpfs on which the system
    directories (read-only), the interpreter's prefix (read-only), the
    sandbox's directory (read-only, or read-write for the agent's shell) and
    a few devices are mounted; the host's root is then detached. The
    harness is PID 1 of a new PID namespace and in a private mount
    namespace. Everything is nosuid. Raises OSError when the kernel refuses
    a step; the caller then falls back to read_only_host."""
    libc = _libc()
    machine = os.uname().machine
    _mount(libc, None, "/", None, MS_REC | MS_PRIVATE, None)
    # Host paths, resolved before the host's root goes away.
    work = os.path.realpath(spec["dir"]) if spec.get("dir") else None
    exposed = []  # (path, "ro" | "rw" | symlink target)
    for p in _SYSTEM_DIRS:
        if os.path.islink(p):
            exposed.append((p, "->" + os.readlink(p)))
        elif os.path.isdir(p):
            exposed.append((os.path.realpath(p), "ro"))
    covered = lambda p: any(p == d or p.startswith(d + "/") for d, how in exposed if how == "ro")  # noqa: E731
    for p in _prefixes() + [os.path.dirname(os.path.realpath(sys.executable))]:
        if not covered(p):
            exposed.append((p, "ro"))
    hide = []
    for rel in spec.get("hide") if work else []:
        p = os.path.normpath(os.path.join(work, rel))
        if p.startswith(work + "/") and os.path.lexists(p):
            hide.append(p)
    staging = "/tmp" if os.path.isdir("/tmp") else "/mnt"
    _mount(libc, "tmpfs", staging, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=4m")
    os.mkdir(staging + "/.host", 0o700)
    try:
        _build_root(libc, machine, staging, work, exposed, hide, spec)
    except OSError as e:
        # Past this point the host's root is gone from this namespace:
        # there is nothing to fall back to.
        raise RuntimeError("cannot build the sandbox's root: %s" % e)
    cfg["readonly"] = True
    cfg["private_root"] = True


def _build_root(libc, machine, staging, work, exposed, hide, spec):
    if machine in _SYS_PIVOT_ROOT:
        _check(libc.syscall(_SYS_PIVOT_ROOT[machine], staging.encode(), (staging + "/.host").encode()), "pivot_root")
        os.chdir("/")
    else:
        os.chdir(staging)
        _mount(libc, staging, "/", None, MS_MOVE, None)
        os.chroot(".")
        os.chdir("/")
        # Without pivot_root the host's root stays underneath, out of any
        # path; bind it for the copies below, then detach it.
        _mount(libc, "/", "/.host", None, MS_BIND | MS_REC, None)
    host = "/.host"

    def bind(path, rw=False, dev=False):
        src = host + path
        if os.path.isdir(src):
            os.makedirs(path, 0o755, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(path), 0o755, exist_ok=True)
            if not os.path.lexists(path):
                os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o644))
        kept = _kept_flags(src)
        _mount(libc, src, path, None, MS_BIND | MS_REC, None)
        extra = MS_NOSUID | (0 if rw else MS_RDONLY) | (0 if dev else MS_NODEV)
        _mount(libc, None, path, None, MS_REMOUNT | MS_BIND | extra | kept, None)

    for path, how in exposed:
        if how.startswith("->"):
            os.symlink(how[2:], path)
        else:
            bind(path)
    os.makedirs("/dev", 0o755, exist_ok=True)
    _mount(libc, "tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k")
    for name in _DEVICES:
        if os.path.exists(host + "/dev/" + name):
            bind("/dev/" + name, rw=True, dev=True)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(target, "/dev/" + name)
    os.mkdir("/dev/shm", 0o1777)
    _mount(libc, "tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=16m,mode=1777")
    os.makedirs("/proc", 0o755, exist_ok=True)
    if os.getpid() == 1:
        _mount(libc, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
    else:
        bind("/proc", rw=True)
    os.makedirs("/tmp", 0o755, exist_ok=True)
    if spec.get("rw"):
        # The agent's shell gets a small writable /tmp (shells put here
        # documents there); untrusted candidates get only /dev/shm.
        _mount(libc, "tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=64m,mode=1777")
    # The sandbox's directory last: it may lie under any of the above.
    if work:
        bind(work, rw=bool(spec.get("rw")))
    else:
        work = "/tmp" if spec.get("rw") else spec["scratch"]
        os.makedirs(work, 0o755, exist_ok=True)
    for p in hide:
        _mount(libc, host + "/dev/null", p, None, MS_BIND, None)
    _check(libc.umount2(host.encode(), MNT_DETACH), host)
    os.rmdir(host)
    # The root's own tmpfs holds only mount points: read-only too.
    _mount(libc, None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, None)
    # Submounts of the system directories came along with them: make every
    # one of them read-only and nosuid as well.
    writable = {b"/dev/shm", b"/proc", b"/tmp"} if spec.get("rw") else {b"/dev/shm", b"/proc"}
    if spec.get("rw"):
        writable.add(work.encode())
    for target, opts in _mounts():
        if target == b"/" or target.startswith(b"/dev/") and target[5:].decode() in _DEVICES:
            continue
        try:
            _remount(libc, target, opts, MS_NOSUID | (0 if target in writable else MS_RDONLY))
        except OSError as e:
            raise OSError(e.errno, "cannot make %s read-only and nosuid: %s" % (target.decode("utf-8", "replace"), e.strerror))
    os.chdir(work)


def _kept_flags(path):
    """The flags of the mount holding path that a bind of it must keep (a
    remount in a user namespace may not clear them)."""
    f = os.statvfs(path).f_flag
    flags = 0
    for st, ms in ((os.ST_RDONLY, MS_RDONLY), (os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV), (os.ST_NOEXEC, MS_NOEXEC),
                   (os.ST_NOATIME, MS_NOATIME), (os.ST_NODIRATIME, MS_NODIRATIME), (os.ST_RELATIME, MS_RELATIME)):
        if f & st:
            flags |= ms
    return flags


def read_only_host(cfg):
    """The fallback when a private root cannot be built: every mount of the
    host read-only (in the private mount namespace), a private /proc and
    /dev/shm. The host's files stay visible. Returns warnings."""
    warnings = []
    libc = _libc()
    try:
        _mount(libc, None, "/", None, MS_REC | MS_PRIVATE, None)
    except OSError as e:
        return ["cannot make mounts private, filesystem left writable: %s" % e]
    failed = []
    try:
        mounts = _mounts()
    except OSError as e:
        return ["cannot read mountinfo: %s" % e]
    for target, opts in mounts:
        try:
            _remount(libc, target, opts, MS_RDONLY | MS_NOSUID)
        except OSError:
            failed.append(target.decode("utf-8", "replace"))
    if "/" in failed:
        warnings.append("could not make / read-only: the filesystem stays writable")
    else:
        cfg["readonly"] = True
    if failed and "/" not in failed:
        _err("note: could not make %d mounts read-only: %s" % (len(failed), ", ".join(failed[:5])))
    if os.getpid() == 1:
        try:
            _mount(libc, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
        except OSError as e:
            warnings.append("cannot mount a private /proc: %s" % e)
    if os.path.isdir("/dev/shm"):
        try:
            _mount(libc, "tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=16m,mode=1777")
        except OSError as e:
            warnings.append("cannot mount a private /dev/shm: %s" % e)
    return warnings


def _prefixes():
    out = []
    for p in (sys.base_prefix, sys.prefix, sys.base_exec_prefix, sys.exec_prefix):
        p = os.path.realpath(p)
        if p not in out:
            out.append(p)
    return out


def _reachable_by_others(path):
    """Whether a user with no special rights can list path and read in it."""
    path = os.path.realpath(path)
    parts = path.split(os.sep)
    cur = "/"
    for part in parts:
        if part:
            cur = os.path.join(cur, part)
        try:
            mode = os.stat(cur).st_mode
        except OSError:
            return False
        if not mode & 0o001:
            return False
    try:
        return bool(os.stat(path).st_mode & 0o004)
    except OSError:
        return False


# Set in the zygote once it emptied its capability bounding set: the
# children it forks inherit the empty set and skip the 41 system calls.
_BOUNDING_SET_EMPTY = []


def drop_bounding_set(libc):
    """Empty the capability bounding set (what an exec could gain back).
    The capabilities the process holds now are not affected."""
    for cap in range(64):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() == 22:
            break  # EINVAL: past the last capability


def drop_privileges(libc, uid=None, gid=None, no_new_privs=False):
    """What untrusted code keeps: no new privileges on exec, an empty
    capability bounding set, and either another uid (the caller is root) or
    no capability at all (a user namespace's root is the caller's own uid).
    no_new_privs: that flag is set and the ambient set cleared already
    (_presandbox)."""
    if not no_new_privs:
        libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    if not _BOUNDING_SET_EMPTY:
        drop_bounding_set(libc)
    if uid is not None:
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
    libc.capset(*_cap_structs())


def _cap_structs():
    """capset's header and an empty data (no capability in any set)."""
    return (ctypes.c_uint32 * 2)(_CAP_VERSION_3, 0), (ctypes.c_uint32 * 6)()


def _own_command():
    """The command line that starts this harness again (a fresh
    interpreter): the script's path, or the -c source from /proc."""
    if sys.argv and sys.argv[0] not in ("-c", ""):
        return [sys.executable, "-I", "-u", "-B", os.path.abspath(sys.argv[0])]
    try:
        with open("/proc/self/cmdline", "rb") as f:
            args = f.read().split(b"\0")
        i = args.index(b"-c")
        return [sys.executable, "-I", "-u", "-B", "-c", args[i + 1].decode()]
    except (OSError, ValueError, IndexError):
        return None


def main(argv):
    cfg = {}
    harden_fs = False
    spec = {"dir": os.getcwd(), "hide": []}
    shell = None
    zygote_fd = None
    connect = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--uid", "--gid") and i + 1 < len(argv):
            cfg[a[2:]] = int(argv[i + 1])
            i += 2
            continue
        if a == "--harden" and i + 1 < len(argv):
            # The mount namespace the harness must NOT be in (the caller's):
            # hardening remounts everything read-only, which must never
            # happen outside a private mount namespace.
            harden_fs = argv[i + 1]
            i += 2
            continue
        if a == "--scratch" and i + 1 < len(argv):
            # No host directory: work in an empty directory of the private
            # root (the shell in its private /tmp).
            spec["dir"] = None
            spec["scratch"] = argv[i + 1]
            i += 2
            continue
        if a == "--hide" and i + 1 < len(argv):
            spec["hide"].append(argv[i + 1])
            i += 2
            continue
        if a == "--ready" and i + 1 < len(argv):
            # Closed once the shell is about to start (its caller times the
            # command, not this set-up).
            spec["ready"] = int(argv[i + 1])
            i += 2
            continue
        if a == "--shell" and i + 1 < len(argv):
            shell = argv[i + 1]
            spec["rw"] = True
            i += 2
            continue
        if a == "--connect" and i + 1 < len(argv):
            # The protocol runs over a Unix socket the client listens on
            # (the Docker sandbox: see docker.Sandbox), not stdin/stdout.
            connect = argv[i + 1]
            i += 2
            continue
        if a == "--zygote" and i + 2 < len(argv):
            zygote_fd = int(argv[i + 1])
            cfg = _loads(argv[i + 2])
            i += 3
            continue
        i += 1
    if zygote_fd is not None:
        _zygote_main(socket.socket(fileno=zygote_fd), cfg)
        return
    if "uid" in cfg and "gid" not in cfg:
        cfg["gid"] = cfg["uid"]
    try:
        sys.set_int_max_str_digits(0)
    except AttributeError:
        pass
    if harden_fs:
        try:
            mine = os.readlink("/proc/self/ns/mnt")
        except OSError:
            mine = harden_fs
        if mine == harden_fs:
            _err("warning: not in a private mount namespace; filesystem left writable")
        else:
            try:
                private_root(cfg, spec)
            except OSError as e:
                _err("warning: cannot give the sandbox a root of its own (%s): the host's files stay visible, read-only" % e)
                for w in read_only_host(cfg):
                    _err("warning: " + w)
    libc = _libc()
    if shell is not None:
        # The agent's shell tool: the same private root, its workspace
        # writable, as the caller's uid with no capability.
        resource.setrlimit(resource.RLIMIT_NOFILE, (MAX_FILES, MAX_FILES))
        drop_privileges(libc)
        if "ready" in spec:
            try:
                os.write(spec["ready"], b"1")
                os.close(spec["ready"])
            except OSError:
                pass
        os.execv("/bin/sh", ["sh", "-c", shell])
    if "uid" in cfg:
        hidden = [p for p in _prefixes() if not _reachable_by_others(p)]
        if hidden:
            _err("warning: the interpreter under %s is not readable by uid %d; untrusted code keeps the harness's uid" % (", ".join(hidden), cfg["uid"]))
            del cfg["uid"]
            cfg.pop("gid", None)
    requests = sys.stdin.buffer
    # The real stdout is the protocol (or the socket given by --connect);
    # anything else that writes to fd 1 (nothing should) goes to /dev/null.
    proto = os.dup(1)
    if connect is not None:
        # Connected before any request is read, so before any untrusted
        # code runs; the client takes this one connection and stops
        # listening. The socket is not inheritable, and the zygote closes
        # every descriptor but its own: no child holds it.
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(connect)
        except OSError as e:
            _err("cannot connect to %s: %s" % (connect, _exc_text(e)))
            sys.exit(1)
        os.close(proto)
        proto = sock.fileno()
        requests = sock.makefile("rb")
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.close(null)
    sys.stdout = open(os.devnull, "w")
    if os.getpid() != 1:
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # Not dumpable: a program running as the harness's uid can neither
    # open the harness's /proc/PID/fd (and forge its replies on the
    # protocol pipe) nor ptrace it nor read its memory. Children inherit it.
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    # Programs that share the harness's uid (no --uid) could otherwise stop
    # it with a signal; the orchestrator stops it by closing stdin or with
    # SIGKILL. Children restore the defaults.
    for sig in _IGNORED:
        signal.signal(sig, signal.SIG_IGN)
    Server(proto, cfg).serve(requests)


_IGNORED = (signal.SIGPIPE, signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT,
            signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM, signal.SIGVTALRM, signal.SIGPROF)


if __name__ == "__main__":
    main(sys.argv[1:])
