# The shim between reconstruct and a task binding (module:callable). It runs
# in a child of the sandbox harness, never in reconstruct's own process; the
# harness calls one of the reconstruct_* functions below on each input. In
# the oracle's sandbox that child is resident: it imports the binding and
# calls the factory once, then serves every request (_STATE keeps them);
# evaluate runs in a fresh child of the evaluator's sandbox per request. The
# binding's modules come from _SPEC["files"] (read by reconstruct when the
# run was bound, so that a run uses one version of them throughout); the
# binding's directories are on sys.path for the rest (data files, modules
# beyond the preloaded ones).

import importlib
import importlib.util
import inspect
import os
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
    ("tools", False, lambda v: isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v), "a list of strings"),
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
        if callable(v):
            out[name] = True
        elif name == "tools":
            out[name] = list(v)
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


def reconstruct_generate(k, exclude, rng):
    fn = _callable("random_inputs")
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        var = any(p.kind == p.VAR_POSITIONAL for p in inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params, var = [None, None, None], False
    if var or len(params) >= 3:
        out = fn(k, exclude, rng)
    elif len(params) == 2:
        out = fn(k, rng)
    else:
        out = fn(k)
    if out is not None and not isinstance(out, (list, tuple)):
        out = list(out)
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
    return _callable("on_example")(ex["input"], ex["output"], ex["source"])


def reconstruct_evaluate(job):
    fn = _callable("evaluate")
    d = tempfile.mkdtemp(prefix="candidate-")
    path = os.path.join(d, "candidate.py")
    with open(path, "w") as f:
        f.write(job["source"])
    outs = fn(path, list(job["inputs"]))
    if outs is None or not isinstance(outs, (list, tuple)) or len(outs) != len(job["inputs"]):
        raise BindingError("evaluate returned %s, want a list of %d outputs" % (_short(outs), len(job["inputs"])))
    return list(outs)
