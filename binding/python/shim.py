# The shim between reconstruct and a task binding (module:callable). It runs
# in a child of the sandbox harness, never in reconstruct's own process; the
# harness calls one of the reconstruct_* functions below on each input. In
# the oracle's sandbox that child is resident: it imports the binding and
# calls the factory once, then serves every request (_STATE keeps them);
# evaluate and the task's callable tools run in a fresh child of the
# evaluator's sandbox per request, and the candidate they are given runs in
# a process of its own (see _isolated_candidate). The
# binding's modules come from _SPEC["files"] (read by reconstruct when the
# run was bound, so that a run uses one version of them throughout); the
# binding's directories are on sys.path for the rest (data files, modules
# beyond the preloaded ones).

import asyncio
import importlib
import importlib.util
import inspect
import json
import os
import random
import sys
import tempfile
import traceback

_STATE = {}


class BindingError(Exception):
    """A binding that cannot give a task; its message is shown to the user."""


def _install():
    if _STATE.get("installed"):
        return
    base = os.getcwd()
    files = {}
    for name, (rel, src, pkg) in _SPEC["files"].items():
        files[name] = (os.path.join(base, rel), src, pkg)
    sys.meta_path.insert(0, _Preloaded(files))
    for rel in reversed(_SPEC["path"]):
        sys.path.insert(0, os.path.normpath(os.path.join(base, rel)))
    _STATE["installed"] = True


class _Preloaded:
    def __init__(self, files):
        self.files = files

    def find_spec(self, name, path=None, target=None):
        f = self.files.get(name)
        if f is None:
            return None
        spec = importlib.util.spec_from_loader(name, self, origin=f[0], is_package=f[2])
        if f[2]:
            spec.submodule_search_locations = [os.path.dirname(f[0])]
        spec.has_location = True
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        origin, src, _ = self.files[module.__name__]
        module.__file__ = origin
        exec(compile(src, origin, "exec"), module.__dict__)


def _tail(e, n=6):
    """The last n lines of e's traceback, without the shim's own frames."""
    tb = e.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    lines = "".join(traceback.format_exception(type(e), e, tb)).rstrip().splitlines()
    if len(lines) > n:
        lines = ["  ..."] + lines[-n:]
    return "\n".join(lines)


def _module():
    if "module" in _STATE:
        return _STATE["module"]
    _install()
    modname = _SPEC["factory"].partition(":")[0]
    try:
        mod = importlib.import_module(modname)
    except ModuleNotFoundError as e:
        if e.name and (modname == e.name or modname.startswith(e.name + ".")):
            raise BindingError("module %s not found (searched: %s)" % (modname, ", ".join(_SPEC["shown_path"]))) from None
        raise BindingError("importing %s raised:\n%s" % (modname, _tail(e))) from None
    except BaseException as e:  # noqa: BLE001 - anything the module raises
        raise BindingError("importing %s raised:\n%s" % (modname, _tail(e))) from None
    _STATE["module"] = mod
    return mod


def _task():
    if "task" in _STATE:
        return _STATE["task"]
    mod = _module()
    modname, _, attr = _SPEC["factory"].partition(":")
    fn = mod
    for part in attr.split("."):
        fn = getattr(fn, part, None)
        if fn is None:
            raise BindingError("module %s has no callable %s" % (modname, attr))
    if not callable(fn):
        raise BindingError("%s in module %s is a %s, not a callable" % (attr, modname, type(fn).__name__))
    try:
        obj = fn(**_SPEC["args"])
    except BaseException as e:  # noqa: BLE001
        raise BindingError("the factory raised:\n%s" % _tail(e)) from None
    if obj is None:
        raise BindingError("the factory returned None, want an object with the task's fields")
    _STATE["task"] = obj
    return obj


_MISSING = object()


def _get(obj, name):
    try:
        if isinstance(obj, dict):
            return obj.get(name, _MISSING)
        return getattr(obj, name, _MISSING)
    except BaseException as e:  # noqa: BLE001 - a property that raises
        raise BindingError("reading the field %s raised %s" % (name, _tail(e, 2))) from None


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# field: (required, check, wanted)
_FIELDS = [
    ("input_type", True, lambda v: isinstance(v, str) and v != "", "a non-empty string"),
    ("kind", True, lambda v: isinstance(v, str), "a string"),
    ("oracle", True, callable, "a callable oracle(input)"),
    ("input_constraints", False, lambda v: isinstance(v, str), "a string"),
    ("function_name", False, lambda v: isinstance(v, str), "a string"),
    ("name", False, lambda v: isinstance(v, str), "a string"),
    ("level", False, lambda v: isinstance(v, str), "a string"),
    ("family", False, lambda v: isinstance(v, str), "a string"),
    ("lo", False, _is_number, "a number"),
    ("hi", False, _is_number, "a number"),
    ("random_inputs", False, callable, "a callable random_inputs(k, ...)"),
    ("on_example", False, callable, "a callable on_example(input, output, source)"),
    ("evaluate", False, callable, "a callable evaluate(program_path, inputs)"),
    ("tools", False, lambda v: isinstance(v, (list, tuple)) and all(isinstance(x, str) or callable(x) for x in v),
     "a list of tool names and callables"),
    ("workspace", False, lambda v: isinstance(v, (str, os.PathLike)) and str(v) != "", "a path"),
]


def reconstruct_describe(_):
    """The task's description: its plain fields, and which callables it has."""
    obj = _task()
    out = {}
    for name, required, ok, want in _FIELDS:
        v = _get(obj, name)
        if v is _MISSING or v is None:
            if required:
                raise BindingError("the returned %s has no field %s" % (type(obj).__name__, name))
            continue
        if not ok(v):
            raise BindingError("the returned %s's field %s is %s (%s), want %s" % (
                type(obj).__name__, name, type(v).__name__, _short(v), want))
        if name == "tools":
            out[name] = [x for x in v if isinstance(x, str)]
            specs = [_tool_spec(x) for x in v if not isinstance(x, str)]
            if specs:
                out["callable_tools"] = specs
        elif callable(v):
            out[name] = True
        elif name == "workspace":
            out[name] = os.fspath(v)
        else:
            out[name] = v
    out.pop("oracle", None)
    out["heldout"] = callable(getattr(_module(), "heldout", None))
    return out


def _short(v):
    try:
        s = repr(v)
    except BaseException:  # noqa: BLE001
        s = "?"
    return s if len(s) <= 60 else s[:57] + "..."


def _callable(name):
    try:
        fn = _get(_task(), name)
    except BindingError as e:
        # The binding worked when the run was bound: a failure now is the
        # sandbox's (crashed), not a rejected input.
        sys.stderr.write("binding: %s\n" % e)
        os._exit(70)
    if not callable(fn):
        raise BindingError("the task has no %s" % name)
    return fn


def reconstruct_oracle(x):
    return _callable("oracle")(x)


def _positional(fn):
    """The names of fn's positional parameters, and whether it takes *args
    (None when its signature cannot be read)."""
    try:
        ps = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None, True
    names = [p.name for p in ps if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return names, any(p.kind == p.VAR_POSITIONAL for p in ps)


# A second parameter of one of these names is given the seeded random.Random
# (this tool's own older form, random_inputs(k, rng)); any other name is
# given the observed inputs (the contract's random_inputs(k, exclude)).
_RNG_NAMES = ("rng", "random", "rand", "generator", "r")

# How many calls in a row that bring no fresh input make random_inputs
# done: it has no more.
GENERATE_ROUNDS = 8

# The most inputs one call asks for when the calls before brought too few.
GENERATE_MAX_DRAW = 256


def _key(v):
    try:
        return json.dumps(v, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(v)


def reconstruct_generate(k, exclude, rng):
    """At most k fresh inputs of the task's random_inputs, called as
    random_inputs(k, exclude, rng), (k, exclude), (k, rng) or (k) by its
    parameters. Inputs that repeat an observed one or each other are
    dropped and it is asked again for the rest, for twice as many after
    each call that brought nothing fresh (a generator that cannot see the
    observed inputs draws them again and again from a small domain). After
    GENERATE_ROUNDS such calls in a row it has no more: the inputs found so
    far, fewer than k, say so to the run."""
    fn = _callable("random_inputs")
    names, var = _positional(fn)
    if names is None or var or len(names) >= 3:
        call = lambda n, ex: fn(n, ex, rng)
    elif len(names) == 2 and names[1].lower() in _RNG_NAMES:
        call = lambda n, ex: fn(n, rng)
    elif len(names) == 2:
        call = lambda n, ex: fn(n, ex)
    else:
        call = lambda n, ex: fn(n)
    # A generator that draws from the random module (not from rng) is
    # seeded too, so that a run draws the same inputs each time.
    random.seed(rng.random())
    exclude = list(exclude)
    seen = {_key(x) for x in exclude}
    out = []
    fruitless = 0
    while len(out) < k and fruitless < GENERATE_ROUNDS:
        want = k - len(out)
        got = call(min(max(want << fruitless, want), max(GENERATE_MAX_DRAW, want)), exclude)
        if got is None:
            got = []
        elif not isinstance(got, (list, tuple)):
            got = list(got)
        before = len(out)
        for x in got:
            key = _key(x)
            if key not in seen and len(out) < k:
                seen.add(key)
                out.append(x)
                exclude.append(x)
        fruitless = 0 if len(out) > before else fruitless + 1
    return out


def reconstruct_heldout(_):
    fn = getattr(_module(), "heldout", None)
    if not callable(fn):
        raise BindingError("module %s has no heldout callable" % _SPEC["factory"].partition(":")[0])
    try:
        tests = fn(**_SPEC["args"])
    except BaseException as e:  # noqa: BLE001
        raise BindingError("heldout raised:\n%s" % _tail(e)) from None
    out = []
    for i, t in enumerate(tests or []):
        if isinstance(t, dict) and "input" in t and "output" in t:
            out.append({"input": t["input"], "output": t["output"]})
        elif isinstance(t, (list, tuple)) and len(t) == 2:
            out.append({"input": t[0], "output": t[1]})
        else:
            raise BindingError("heldout's test %d is %s, want {\"input\": ..., \"output\": ...} or an (input, output) pair" % (i, _short(t)))
    return out


def reconstruct_on_example(ex):
    """on_example(input, output, source); one taking two parameters gets
    (input, output), one taking one the example as a dict."""
    fn = _callable("on_example")
    names, var = _positional(fn)
    if names is None or var or len(names) >= 3:
        return fn(ex["input"], ex["output"], ex["source"])
    if len(names) == 2:
        return fn(ex["input"], ex["output"])
    return fn(dict(ex))


def _await(v):
    """v, or what it resolves to when it is awaitable (an async hook)."""
    if inspect.isawaitable(v):
        return asyncio.run(_wrap(v))
    return v


async def _wrap(aw):
    return await aw


def _record(v):
    """A record of evaluate's contract ({"ok": true, "output": x} or
    {"ok": false, "error": "..."}, other keys ignored), normalised, or None
    for what is not one."""
    if not isinstance(v, dict) or not isinstance(v.get("ok"), bool):
        return None
    if v["ok"]:
        return {"ok": True, "output": v["output"]} if "output" in v else None
    return {"ok": False, "error": str(v.get("error", ""))[:2000]}


def reconstruct_evaluate(job):
    """The task's evaluate(program_path, inputs), sync or async, on an
    isolated candidate: its results as records, one an input (a list whose
    every item is a record is read as records, anything else as plain
    outputs)."""
    fn = _callable("evaluate")
    path = _isolated_candidate(job["source"], job["function_name"], job.get("output_bytes"))
    outs = _await(fn(path, list(job["inputs"])))
    if outs is None or not isinstance(outs, (list, tuple)) or len(outs) != len(job["inputs"]):
        raise BindingError("evaluate returned %s, want a list of %d outputs" % (_short(outs), len(job["inputs"])))
    recs = [_record(v) for v in outs]
    if all(r is not None for r in recs):
        return recs
    return [{"ok": True, "output": v} for v in outs]


# Parameters of a callable tool that are given the candidate's path.
_PATH_NAMES = ("program_path", "path", "candidate_path")

_JSON_TYPES = {int: "integer", float: "number", str: "string", bool: "boolean", list: "array", dict: "object"}


def _tool_spec(fn):
    """What the LLM agent is told of a callable tool: its name, docstring
    and parameters (the one named program_path, or path, is given the
    candidate's path)."""
    name = getattr(fn, "__name__", "") or type(fn).__name__
    try:
        ps = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        ps = []
    params, path = [], ""
    for p in ps:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if not path and p.name in _PATH_NAMES:
            path = p.name
            continue
        t = _JSON_TYPES.get(p.annotation, "")
        params.append({"name": p.name, "type": t, "required": p.default is p.empty})
    doc = inspect.getdoc(fn) or ""
    return {"name": name, "doc": doc[:4000], "params": params, "path": path}


def reconstruct_tool(job):
    """Calls the task's callable tool job["name"] with the model's
    arguments, and the isolated candidate's path for its path parameter."""
    tools = _get(_task(), "tools")
    fn = None
    for t in tools if isinstance(tools, (list, tuple)) else ():
        if not isinstance(t, str) and _tool_spec(t)["name"] == job["name"]:
            fn = t
    if fn is None:
        raise BindingError("the task has no tool %s" % job["name"])
    spec = _tool_spec(fn)
    args = dict(job.get("args") or {})
    if spec["path"]:
        args[spec["path"]] = _isolated_candidate(job["source"], job["function_name"], job.get("output_bytes"))
    v = _await(fn(**args))
    if v is None or isinstance(v, str):
        return "" if v is None else v
    try:
        return json.dumps(v)
    except (TypeError, ValueError):
        return repr(v)


# -- the candidate, isolated from the hook -----------------------------------
#
# A hook (evaluate, a callable tool) runs in a process that has imported the
# binding: the task's oracle, its registry, heldout. The candidate it is
# given must find none of them, so it runs in a process of its own: the
# program_path a hook receives names a stub module whose functions send
# each call, as JSON, to a fresh interpreter that executed the candidate
# and nothing else. This process is not dumpable (the harness's children
# are not), so that interpreter cannot read its memory either.

_RUNNER = r"""
import builtins, json, os, sys
out = os.fdopen(int(sys.argv[1]), "wb", buffering=0)
inp = sys.stdin.buffer
sys.stdin = None
def reply(obj):
    try:
        data = json.dumps(obj, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as e:
        data = json.dumps({"ok": False, "type": "TypeError", "error": "the result cannot be JSON: %s" % e})
    out.write(data.encode("utf-8", "surrogatepass") + b"\n")
def fail(e):
    try:
        msg = str(e)
    except BaseException:
        msg = "?"
    reply({"ok": False, "type": type(e).__name__, "error": msg[:2000]})
ns = {"__name__": "candidate", "__builtins__": builtins}
try:
    exec(compile(json.loads(inp.readline())["source"], "candidate.py", "exec"), ns)
    reply({"ok": True})
except BaseException as e:
    fail(e)
    sys.exit(0)
for line in inp:
    req = json.loads(line)
    try:
        fn = ns.get(req["f"])
        if not callable(fn):
            raise AttributeError("candidate.py defines no function %s" % req["f"])
        reply({"ok": True, "value": fn(*req["a"])})
    except BaseException as e:
        fail(e)
"""

_STUB = r'''"""candidate.py as this task's hooks see it: each call of one of the
candidate's functions runs in a process of its own, which holds nothing of
the hook's (docs/binding.md). __candidate_source__ is the candidate's text."""
import builtins as _builtins
import json as _json
import os as _os
import subprocess as _subprocess
import sys as _sys

__candidate_source__ = %(source)r
_RUNNER = %(runner)r
_LIMIT = %(limit)d
_proc = None


def _start():
    global _proc
    r, w = _os.pipe()
    try:
        p = _subprocess.Popen([_sys.executable, "-I", "-S", "-c", _RUNNER, str(w)], stdin=_subprocess.PIPE,
                              stdout=_subprocess.DEVNULL, stderr=_subprocess.DEVNULL, pass_fds=(w,),
                              close_fds=True, env={"PATH": _os.environ.get("PATH", "/usr/bin:/bin")})
    finally:
        _os.close(w)
    p.replies = _os.fdopen(r, "rb")
    _proc = p
    _send({"source": __candidate_source__})
    _reply()


def _send(obj):
    try:
        _proc.stdin.write(_json.dumps(obj, allow_nan=False).encode("utf-8", "surrogatepass") + b"\n")
        _proc.stdin.flush()
    except OSError:
        _stop()
        raise RuntimeError("the candidate's process ended") from None


def _reply():
    line = _proc.replies.readline(_LIMIT + 1)
    if not line.endswith(b"\n"):
        _stop()
        if len(line) > _LIMIT:
            raise RuntimeError("the candidate returned more than %%d bytes" %% _LIMIT)
        raise RuntimeError("the candidate's process ended")
    msg = _json.loads(line)
    if msg.get("ok"):
        return msg.get("value")
    cls = getattr(_builtins, str(msg.get("type")), None)
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        cls = RuntimeError
    raise cls(str(msg.get("error"))[:2000])


def _stop():
    global _proc
    if _proc is not None:
        _proc.kill()
        _proc = None


def _call(name, args):
    try:
        req = {"f": name, "a": list(args)}
        _json.dumps(req, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise TypeError("the arguments of %%s cannot reach the candidate as JSON: %%s" %% (name, e)) from None
    if _proc is None:
        _start()
    _send(req)
    return _reply()


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return lambda *args: _call(name, args)


%(functions)s

if __name__ == "__main__":
    if _os.environ.get("RECONSTRUCT_HOOK_PID") == str(_os.getpid()):
        raise RuntimeError("candidate.py cannot run as __main__ in the hook's process; import it, or run it in a process of its own")
    exec(compile(__candidate_source__, "candidate.py", "exec"), {"__name__": "__main__"})
'''


def _functions(source, function_name):
    """The names of the candidate's top-level functions (parsing is not
    running it), function_name always among them."""
    names = [function_name]
    try:
        import ast
        for node in ast.parse(source).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name not in names and node.name.isidentifier():
                names.append(node.name)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass
    return names


def _isolated_candidate(source, function_name, limit=None):
    """The path of a stub candidate.py whose functions call the real
    candidate in a process of its own. Before a hook may see it, this
    process forgets what it does not need: the module's heldout and the
    shim's own module name."""
    mod = _module()
    if hasattr(mod, "heldout"):
        try:
            delattr(mod, "heldout")
        except (AttributeError, TypeError):
            pass
    if sys.modules.get(__name__) is not None and __name__ == "candidate":
        sys.modules.pop(__name__, None)  # the harness's name for this shim
    os.environ["RECONSTRUCT_HOOK_PID"] = str(os.getpid())
    fns = "\n\n".join("def %s(*args):\n    return _call(%r, args)\n" % (n, n) for n in _functions(source, function_name))
    d = tempfile.mkdtemp(prefix="candidate-")
    path = os.path.join(d, "candidate.py")
    with open(path, "w") as f:
        f.write(_STUB % {"source": source, "runner": _RUNNER, "limit": int(limit or (1 << 20)), "functions": fns})
    return path
