#!/usr/bin/env python3
"""(Re)generate and check the held-out tests of reconstruct task directories.

Usage:
    make_heldout.py DIR...           write heldout.jsonl in every task directory
    make_heldout.py --check DIR...   validate every task directory, write nothing
    make_heldout.py --table DIR...   print a Markdown table of the tasks (for README.md)

A DIR is a task directory (it holds task.yaml) or a directory of task directories.

Held-out inputs come from the task's own generator.py, seeded with
HELDOUT_SEED_BASE + crc32(task name): far away from the small seeds (1..100)
that runs use, so the agent never sees them. Outputs come from hidden.py. The
file is deterministic: running this script twice writes the same bytes.

--check validates, for every task: task.yaml has exactly the task section of
RECONSTRUCT.md; the generator returns k fresh, distinct, JSON-able inputs of
the task's kind inside its domain for several k, seeds and exclude sets, and is
deterministic for a seed; hidden.py accepts every generated input, is
deterministic, returns JSON-able output, and raises ValueError on invalid
input (null, an out-of-domain number) and nothing but ValueError on inputs
broken on purpose (a junk value planted in a valid input, a wrapped or
repeated input); heldout.jsonl has HELDOUT_SIZE distinct lines that this script
reproduces byte for byte. Missing coverage categories are reported as notes.

Only the Python standard library is needed (PyYAML is used when present).
"""
import argparse
import copy
import importlib.util
import json
import math
import os
import random
import sys
import time
import zlib

sys.dont_write_bytecode = True  # importing task files must not leave __pycache__ in task directories

HELDOUT_SIZE = 15
HELDOUT_SEED_BASE = 1_000_003
MIN_HELDOUT_EDGES = 2
KINDS = ("list", "two_lists", "int", "pair", "string", "points", "other")
TASK_KEYS_REQUIRED = ("name", "level", "input_type", "input_constraints", "function_name",
                      "kind", "oracle", "random_inputs")
TASK_KEYS_OPTIONAL = ("family", "domain")
SLOW_CALL_SECONDS = 0.5
LEVEL_ORDER = ("base", "algorithm", "geometry", "hard")


class TaskError(Exception):
    """A task directory that breaks the format or its own promises."""


# ---- a reader for the plain YAML subset task.yaml files use -----------------

def _scalar(text):
    text = text.strip()
    if text.startswith('"'):
        if not text.endswith('"') or len(text) < 2:
            raise TaskError(f"unterminated string {text!r}")
        return json.loads(text)
    if text.startswith("'"):
        if not text.endswith("'") or len(text) < 2:
            raise TaskError(f"unterminated string {text!r}")
        return text[1:-1].replace("''", "'")
    if text.startswith("{"):
        if not text.endswith("}"):
            raise TaskError(f"unterminated flow mapping {text!r}")
        out = {}
        inner = text[1:-1].strip()
        for item in filter(None, (p.strip() for p in inner.split(","))):
            key, sep, value = item.partition(":")
            if not sep:
                raise TaskError(f"flow mapping item without ':' in {text!r}")
            out[key.strip()] = _scalar(value)
        return out
    if text in ("true", "false"):
        return text == "true"
    if text in ("null", "~", ""):
        return None
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def read_simple_yaml(text):
    """Parse block mappings of scalars and flow mappings, 2-space indented."""
    root = {}
    stack = [(-1, root)]
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split(" #")[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent % 2:
            raise TaskError(f"line {lineno}: indentation must be a multiple of 2")
        key, sep, value = line.strip().partition(":")
        if not sep:
            raise TaskError(f"line {lineno}: expected 'key: value'")
        while stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        if key in parent:
            raise TaskError(f"line {lineno}: duplicate key {key!r}")
        if value.strip():
            parent[key] = _scalar(value)
        else:
            parent[key] = {}
            stack.append((indent, parent[key]))
    return root


def load_yaml(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        import yaml  # noqa: PLC0415 - optional dependency
    except ImportError:
        return read_simple_yaml(text)
    doc = yaml.safe_load(text)
    simple = read_simple_yaml(text)
    if doc != simple:
        raise TaskError(f"{path}: uses YAML beyond the plain subset (PyYAML and the simple reader disagree)")
    return doc


# ---- loading a task ----------------------------------------------------------

class Task:
    def __init__(self, path):
        self.path = os.path.abspath(path)
        doc = load_yaml(os.path.join(self.path, "task.yaml"))
        if not isinstance(doc, dict) or set(doc) != {"task"}:
            raise TaskError("task.yaml must hold exactly one top-level section, 'task'")
        t = doc["task"]
        missing = [k for k in TASK_KEYS_REQUIRED if k not in t]
        extra = [k for k in t if k not in TASK_KEYS_REQUIRED + TASK_KEYS_OPTIONAL]
        if missing or extra:
            raise TaskError(f"task section: missing {missing}, unknown {extra}")
        for k in ("name", "level", "input_type", "input_constraints", "function_name", "kind"):
            if not isinstance(t[k], str) or not t[k]:
                raise TaskError(f"task.{k} must be a non-empty string")
        if "family" in t and (not isinstance(t["family"], str) or not t["family"].strip()):
            raise TaskError("task.family must be a non-empty string when present")
        if t["kind"] not in KINDS:
            raise TaskError(f"task.kind {t['kind']!r} is not one of {KINDS}")
        if t["function_name"] != "solve":
            raise TaskError("task.function_name must be solve")
        if os.path.basename(self.path) != t["name"]:
            raise TaskError(f"directory name differs from task.name {t['name']!r}")
        if not os.path.basename(self.path).startswith(t["level"] + "_"):
            raise TaskError(f"directory name does not start with the level {t['level']!r}")
        self.domain = None
        if "domain" in t:
            d = t["domain"]
            if not isinstance(d, dict) or set(d) != {"lo", "hi"} or not all(_is_num(d[k]) for k in d) or d["lo"] > d["hi"]:
                raise TaskError("task.domain must be {lo: number, hi: number} with lo <= hi")
            self.domain = (d["lo"], d["hi"])
        for sect, key in (("oracle", "function"), ("random_inputs", "function")):
            s = t[sect]
            if not isinstance(s, dict) or set(s) != {"python", key} or not all(isinstance(v, str) for v in s.values()):
                raise TaskError(f"task.{sect} must be {{python: FILE, function: NAME}}")
        self.name, self.level, self.kind = t["name"], t["level"], t["kind"]
        self.family = t.get("family", "")
        self.hidden = self._function(t["oracle"], "hidden")
        self.generate = self._function(t["random_inputs"], "generator")
        self.generator_module = sys.modules[f"_task_{self.name}_generator"]

    def _function(self, sect, role):
        file = os.path.join(self.path, sect["python"])
        if not os.path.isfile(file):
            raise TaskError(f"{sect['python']} not found")
        modname = f"_task_{self.name}_{role}"
        spec = importlib.util.spec_from_file_location(modname, file)
        mod = importlib.util.module_from_spec(spec)
        sys.path.insert(0, self.path)
        try:
            spec.loader.exec_module(mod)
        finally:
            sys.path.remove(self.path)
        sys.modules[modname] = mod
        fn = getattr(mod, sect["function"], None)
        if not callable(fn):
            raise TaskError(f"{sect['python']} defines no function {sect['function']!r}")
        return fn

    def heldout_seed(self):
        return HELDOUT_SEED_BASE + zlib.crc32(self.name.encode())

    def run_hidden(self, x):
        return self.hidden(copy.deepcopy(x))


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def norm(x):
    """JSON normalisation: tuples become lists, 1 and 1.0 compare equal."""
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    if isinstance(x, (int, float)):
        return float(x)
    if isinstance(x, dict):
        return {str(k): norm(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [norm(v) for v in x]
    raise TaskError(f"value {x!r} of type {type(x).__name__} is not JSON")


def key(x):
    return json.dumps(norm(x), sort_keys=True)


def same(a, b, atol=1e-9):
    """The workflow's output comparison: floats within atol, everything else exactly."""
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None or isinstance(a, str):
        return a == b and type(a) is type(b)
    if _is_num(a) and _is_num(b):
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        return abs(a - b) <= atol
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y, atol) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], atol) for k in a)
    return False


def to_json(x, what):
    try:
        return json.loads(json.dumps(x, allow_nan=False))
    except (TypeError, ValueError) as e:
        raise TaskError(f"{what} is not JSON-able: {e}") from e


def numbers(x):
    if _is_num(x):
        yield x
    elif isinstance(x, list):
        for v in x:
            yield from numbers(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from numbers(v)


def check_shape(kind, x):
    num_list = lambda v: isinstance(v, list) and all(_is_num(e) for e in v)  # noqa: E731
    ok = {
        "list": lambda: num_list(x),
        "two_lists": lambda: isinstance(x, list) and len(x) == 2 and all(num_list(v) for v in x),
        "int": lambda: isinstance(x, int) and not isinstance(x, bool),
        "pair": lambda: num_list(x) and len(x) == 2,
        "string": lambda: isinstance(x, str),
        "points": lambda: isinstance(x, list) and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(c, int) and not isinstance(c, bool) for c in p)
            for p in x),
        "other": lambda: True,
    }[kind]()
    if not ok:
        raise TaskError(f"input {x!r} does not have the shape of kind {kind}")


# ---- coverage categories (mirrors task/categories.go) -----------------------

def categories_possible(kind, domain):
    lo, hi = domain if domain else (-math.inf, math.inf)
    neg, zero = lo < 0, lo <= 0 <= hi
    return {
        "list": ["empty", "single", "long"] + ["has_zero"] * zero + ["has_negative"] * neg
        + ["repeated_value", "all_equal"] + ["ascending", "descending"] * (hi - lo >= 2),
        "two_lists": ["both_empty", "one_empty", "equal_lengths", "unequal_lengths", "shared_value"]
        + ["has_negative"] * neg,
        "int": ["zero"] * zero + ["one"] * (lo <= 1 <= hi) + ["negative"] * neg + ["positive"] * (hi > 0)
        + ["large", "even", "odd"],
        "pair": ["equal"] + ["first_less", "first_greater"] * (hi > lo) + ["has_zero"] * zero + ["has_negative"] * neg,
        "string": ["empty", "single_char", "repeated_char", "has_space", "mixed_case", "has_digit", "palindrome", "long"],
        "points": ["single_point", "two_points", "collinear", "duplicate_point"] + ["negative_coordinate"] * neg
        + ["axis_aligned"],
        "other": [],
    }[kind]


def categories_of(kind, domain, x):
    c = set()
    if kind == "list":
        c |= {"empty"} if not x else set()
        c |= {"single"} if len(x) == 1 else set()
        c |= {"long"} if len(x) >= 8 else set()
        c |= {"has_zero"} if 0 in x else set()
        c |= {"has_negative"} if any(v < 0 for v in x) else set()
        c |= {"repeated_value"} if len(set(x)) < len(x) else set()
        c |= {"all_equal"} if len(x) >= 2 and len(set(x)) == 1 else set()
        c |= {"ascending"} if len(x) >= 3 and all(a < b for a, b in zip(x, x[1:])) else set()
        c |= {"descending"} if len(x) >= 3 and all(a > b for a, b in zip(x, x[1:])) else set()
    elif kind == "two_lists":
        a, b = x
        c |= {"both_empty"} if not a and not b else set()
        c |= {"one_empty"} if (not a) != (not b) else set()
        c |= {"equal_lengths"} if len(a) == len(b) >= 1 else set()
        c |= {"unequal_lengths"} if len(a) != len(b) else set()
        c |= {"shared_value"} if set(a) & set(b) else set()
        c |= {"has_negative"} if any(v < 0 for v in a + b) else set()
    elif kind == "int":
        lo, hi = domain if domain else (-math.inf, math.inf)
        m = max(abs(lo), abs(hi))
        large = 100 if not domain or m >= 200 else max(1, math.ceil(m / 2))
        c |= {"zero"} if x == 0 else set()
        c |= {"one"} if x == 1 else set()
        c |= {"negative"} if x < 0 else {"positive"} if x > 0 else set()
        c |= {"large"} if abs(x) >= large else set()
        c |= {"even"} if x % 2 == 0 else {"odd"}
    elif kind == "pair":
        a, b = x
        c |= {"equal"} if a == b else {"first_less"} if a < b else {"first_greater"}
        c |= {"has_zero"} if 0 in (a, b) else set()
        c |= {"has_negative"} if a < 0 or b < 0 else set()
    elif kind == "string":
        c |= {"empty"} if not x else set()
        c |= {"single_char"} if len(x) == 1 else set()
        c |= {"repeated_char"} if len(set(x)) < len(x) else set()
        c |= {"has_space"} if any(ch.isspace() for ch in x) else set()
        c |= {"mixed_case"} if any(ch.isupper() for ch in x) and any(ch.islower() for ch in x) else set()
        c |= {"has_digit"} if any(ch.isdigit() for ch in x) else set()
        c |= {"palindrome"} if len(x) >= 2 and x == x[::-1] else set()
        c |= {"long"} if len(x) >= 10 else set()
    elif kind == "points":
        pts = [tuple(p) for p in x]
        c |= {"single_point"} if len(pts) == 1 else set()
        c |= {"two_points"} if len(pts) == 2 else set()
        c |= {"negative_coordinate"} if any(v < 0 for p in pts for v in p) else set()
        for i, p in enumerate(pts):
            for j in range(i + 1, len(pts)):
                q = pts[j]
                if p == q:
                    c.add("duplicate_point")
                elif p[0] == q[0] or p[1] == q[1]:
                    c.add("axis_aligned")
                for r in pts[j + 1:]:
                    if (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]) == 0:
                        c.add("collinear")
    return c


# ---- held-out file -------------------------------------------------------------

def heldout_lines(task):
    """The held-out file's lines: the first seed whose draw has enough edge cases."""
    edges = {key(e) for e in getattr(task.generator_module, "EDGE_CASES", [])}
    need = min(MIN_HELDOUT_EDGES, len(edges))
    for attempt in range(100):
        rng = random.Random(task.heldout_seed() + 7919 * attempt)
        inputs = task.generate(HELDOUT_SIZE, [], rng)
        if sum(key(x) in edges for x in inputs) >= need:
            break
    else:
        raise TaskError(f"no seed gave {need} edge cases among {HELDOUT_SIZE} held-out inputs")
    lines = []
    for x in inputs:
        x = to_json(x, "generated input")
        y = to_json(task.run_hidden(x), f"hidden output for {x!r}")
        lines.append(json.dumps({"input": x, "output": y}))
    return lines


def write_heldout(task):
    lines = heldout_lines(task)
    path = os.path.join(task.path, "heldout.jsonl")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


# ---- checks --------------------------------------------------------------------

def check_input(task, x, where):
    x = to_json(x, f"{where}: input")
    check_shape(task.kind, x)
    if task.domain:
        lo, hi = task.domain
        bad = [v for v in numbers(x) if not lo <= v <= hi]
        if bad:
            raise TaskError(f"{where}: input {x!r} has {bad[0]} outside the domain [{lo}, {hi}]")
    start = time.perf_counter()
    try:
        y = task.run_hidden(x)
    except Exception as e:  # noqa: BLE001 - any failure is the task's fault here
        raise TaskError(f"{where}: hidden program rejected generated input {x!r}: {type(e).__name__}: {e}") from e
    took = time.perf_counter() - start
    if took > SLOW_CALL_SECONDS:
        raise TaskError(f"{where}: hidden program took {took:.2f}s on {x!r}")
    y = to_json(y, f"{where}: output for {x!r}")
    if not same(y, to_json(task.run_hidden(x), "output")):
        raise TaskError(f"{where}: hidden program is not deterministic on {x!r}")
    return y


def out_of_domain_variant(task, x):
    """x with its first number pushed just past the domain, or None."""
    if not task.domain:
        return None
    bump = task.domain[1] + 1

    def walk(v, done):
        if done[0]:
            return v
        if _is_num(v):
            done[0] = True
            return type(v)(bump)
        if isinstance(v, list):
            return [walk(e, done) for e in v]
        if isinstance(v, dict):
            return {k: walk(e, done) for k, e in v.items()}
        return v

    done = [False]
    y = walk(copy.deepcopy(x), done)
    return y if done[0] else None


def expect_invalid(task, x, why):
    try:
        task.run_hidden(x)
    except ValueError:
        return
    except Exception as e:  # noqa: BLE001
        raise TaskError(f"hidden program raised {type(e).__name__} instead of ValueError on {why} {x!r}") from e
    raise TaskError(f"hidden program accepted {why} {x!r}")


# Values planted into valid inputs to make them malformed: wrong types, huge
# numbers, operator-like strings, characters outside the usual alphabets.
JUNK = (None, True, 1.5, "s", "", {}, [], [None], 10**12, -10**12, "+", "push", "A", "\u00e9", "\t")
MALFORMED_PER_INPUT = 12


def _paths(x, path=()):
    """The paths (tuples of indices and keys) to every leaf and empty list of x."""
    if isinstance(x, list) and x:
        for i, v in enumerate(x):
            yield from _paths(v, path + (i,))
    elif isinstance(x, dict) and x:
        for k, v in x.items():
            yield from _paths(v, path + (k,))
    else:
        yield path


def _replace(x, path, value):
    """A copy of x with the leaf at path replaced by value (an empty list gains it as its element)."""
    if not path:
        return [value] if x == [] else value
    x = copy.deepcopy(x)
    parent = x
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = _replace(parent[path[-1]], (), value)
    return x


def malformed_variants(x, rng):
    """Inputs made from the valid input x by breaking it: a planted junk leaf, a wrapping, a repetition."""
    out = [[x], {"input": x}]
    paths = list(_paths(x))
    for _ in range(MALFORMED_PER_INPUT):
        out.append(_replace(x, rng.choice(paths), rng.choice(JUNK)))
    if isinstance(x, list):
        out += [x * 5, x[:-1], x[1:]]
        out += [_replace(x, (i,), v * 5) for i, v in enumerate(x) if isinstance(v, (list, str))]
    if isinstance(x, str):
        out += [x * 10, x + "\t", x.upper(), " " + x + " ", x + "\u00e9"]
    return out


def check_malformed(task, inputs):
    """The hidden program answers (with JSON) or raises ValueError on broken inputs, never anything else."""
    rng = random.Random(0)
    for x in [copy.deepcopy(v) for v in JUNK] + [m for x in inputs for m in malformed_variants(x, rng)]:
        try:
            y = task.run_hidden(x)
        except ValueError:
            continue
        except Exception as e:  # noqa: BLE001 - any other failure is what this check looks for
            raise TaskError(f"hidden program raised {type(e).__name__} instead of ValueError on malformed input "
                            f"{json.dumps(x)[:200]}: {e}") from e
        to_json(y, f"hidden output for malformed input {json.dumps(x)[:200]}")


def check_task(task):
    notes = []
    pool = []
    for seed in (1, 2, 3, 42):
        for k in (1, 2, 10):
            exclude = copy.deepcopy(pool[: 5 * seed])
            got = task.generate(k, copy.deepcopy(exclude), random.Random(seed * 1000 + k))
            again = task.generate(k, copy.deepcopy(exclude), random.Random(seed * 1000 + k))
            where = f"generate(k={k}, seed={seed})"
            if not isinstance(got, list) or len(got) != k:
                raise TaskError(f"{where} returned {len(got) if isinstance(got, list) else type(got).__name__} inputs")
            if key(got) != key(again):
                raise TaskError(f"{where} is not deterministic for its rng")
            keys = [key(x) for x in got]
            if len(set(keys)) != k:
                raise TaskError(f"{where} returned repeated inputs")
            if set(keys) & {key(x) for x in exclude}:
                raise TaskError(f"{where} returned an input from exclude")
            for x in got:
                check_input(task, x, where)
            pool.extend(got)
    for i, x in enumerate(getattr(task.generator_module, "EDGE_CASES", [])):
        check_input(task, x, f"EDGE_CASES[{i}]")
    if task.generate(0, [], random.Random(0)) != []:
        raise TaskError("generate(k=0) must return []")

    expect_invalid(task, None, "null input")
    check_malformed(task, pool[:12] + list(getattr(task.generator_module, "EDGE_CASES", [])))
    for x in pool[:10]:
        bad = out_of_domain_variant(task, x)
        if bad is not None:
            expect_invalid(task, bad, "out-of-domain input")
            break

    wide = task.generate(80, [], random.Random(7))
    covered = set()
    for x in wide:
        covered |= categories_of(task.kind, task.domain, x)
    missing = [c for c in categories_possible(task.kind, task.domain) if c not in covered]
    if missing:
        notes.append(f"80 generated inputs miss categories {missing}")

    path = os.path.join(task.path, "heldout.jsonl")
    if not os.path.isfile(path):
        raise TaskError("heldout.jsonl is missing (run make_heldout.py without --check)")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    if len(rows) != HELDOUT_SIZE:
        raise TaskError(f"heldout.jsonl has {len(rows)} lines, want {HELDOUT_SIZE}")
    if len({key(r["input"]) for r in rows}) != HELDOUT_SIZE:
        raise TaskError("heldout.jsonl repeats an input")
    for i, r in enumerate(rows, 1):
        if set(r) != {"input", "output"}:
            raise TaskError(f"heldout.jsonl line {i} must have exactly input and output")
        y = check_input(task, r["input"], f"heldout.jsonl line {i}")
        if not same(y, r["output"]):
            raise TaskError(f"heldout.jsonl line {i}: stored output {r['output']!r}, hidden program gives {y!r}")
    if text != "\n".join(heldout_lines(task)) + "\n":
        raise TaskError("heldout.jsonl differs from what make_heldout.py generates; regenerate it")
    return notes


def describe(task):
    """The one-line description: the summary of hidden.py's docstring after the task name."""
    doc = (sys.modules[f"_task_{task.name}_hidden"].__doc__ or "").strip().split("\n")[0]
    return doc.split(": ", 1)[-1].rstrip(".")


def print_table(dirs):
    print("| task | level | family | kind | computes |")
    print("|---|---|---|---|---|")
    tasks = [Task(d) for d in dirs]
    order = {level: i for i, level in enumerate(LEVEL_ORDER)}
    tasks.sort(key=lambda t: (order.get(t.level, len(order)), t.level, t.name))
    for task in tasks:
        text = describe(task).replace("|", "\\|")
        print(f"| `{task.name}` | {task.level} | {task.family or '—'} | {task.kind} | {text} |")


def task_dirs(paths):
    out = []
    for p in paths:
        if os.path.isfile(os.path.join(p, "task.yaml")):
            out.append(p)
        elif os.path.isdir(p):
            out.extend(os.path.join(p, d) for d in sorted(os.listdir(p))
                       if os.path.isfile(os.path.join(p, d, "task.yaml")))
        else:
            raise SystemExit(f"make_heldout: {p} is neither a task directory nor a directory of them")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="validate the task directories; write nothing")
    ap.add_argument("--table", action="store_true", help="print a Markdown table of the tasks; write nothing")
    ap.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    ap.add_argument("dirs", nargs="+", metavar="DIR")
    args = ap.parse_args(argv)
    dirs = task_dirs(args.dirs)
    if args.table:
        print_table(dirs)
        return 0
    failed = 0
    for d in dirs:
        try:
            task = Task(d)
            if args.check:
                notes = check_task(task)
                if not args.quiet:
                    print(f"ok    {task.name}" + "".join(f"\n      note: {n}" for n in notes))
            else:
                write_heldout(task)
                if not args.quiet:
                    print(f"wrote {task.name}/heldout.jsonl")
        except (TaskError, ValueError, OSError, SyntaxError) as e:
            failed += 1
            print(f"FAIL  {os.path.basename(os.path.normpath(d))}: {e}")
    print(f"{len(dirs) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
