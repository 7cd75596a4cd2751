"""Tests of make_heldout.py: python3 -m unittest discover -s benchmarks/tools"""
import io
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_heldout  # noqa: E402

TASKS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tasks", "io2code-style")
SAMPLE = "base_prefix_sum"


def run(*argv):
    out = io.StringIO()
    with redirect_stdout(out):
        code = make_heldout.main(list(argv))
    return code, out.getvalue()


class SimpleYAMLTest(unittest.TestCase):
    def test_reads_the_task_subset(self):
        text = ('task:\n  name: t\n  input_type: "list of \\"pairs\\""\n  domain: {lo: -5, hi: 2.5}\n'
                '  oracle:\n    python: hidden.py\n    function: f  # comment\n')
        got = make_heldout.read_simple_yaml(text)
        want = {"task": {"name": "t", "input_type": 'list of "pairs"', "domain": {"lo": -5, "hi": 2.5},
                         "oracle": {"python": "hidden.py", "function": "f"}}}
        self.assertEqual(got, want)

    def test_rejects_duplicate_keys_and_odd_indentation(self):
        for text in ("task:\n  a: 1\n  a: 2\n", "task:\n   a: 1\n", "task:\n  just text\n"):
            with self.subTest(text=text), self.assertRaises(make_heldout.TaskError):
                make_heldout.read_simple_yaml(text)


class CheckTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.dir = os.path.join(self.tmp, SAMPLE)
        shutil.copytree(os.path.join(TASKS, SAMPLE), self.dir)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def edit(self, name, old, new):
        path = os.path.join(self.dir, name)
        with open(path) as f:
            text = f.read()
        self.assertIn(old, text)
        with open(path, "w") as f:
            f.write(text.replace(old, new))

    def test_sample_task_passes(self):
        code, out = run("--check", self.dir)
        self.assertEqual(code, 0, out)

    def test_family_is_optional_text(self):
        self.edit("task.yaml", "  level: base\n", "  level: base\n  family: window\n")
        code, out = run("--check", self.dir)
        self.assertEqual(code, 0, out)
        code, out = run("--table", self.dir)
        self.assertEqual(code, 0, out)
        self.assertIn("| `base_prefix_sum` | base | window | list |", out)

    def test_regenerating_is_byte_identical(self):
        path = os.path.join(self.dir, "heldout.jsonl")
        with open(path) as f:
            before = f.read()
        self.assertEqual(run(self.dir)[0], 0)
        with open(path) as f:
            self.assertEqual(f.read(), before)
        self.assertEqual(len(before.splitlines()), make_heldout.HELDOUT_SIZE)

    def test_broken_tasks_fail(self):
        cases = [
            ("short generator", "generator.py", "    return out\n", "    return out[1:]\n", "returned"),
            ("generator repeats exclude", "generator.py", "        if key not in seen:", "        if True:", "exclude"),
            ("hidden ignores the domain", "hidden.py", "not lo <= v <= hi", "False", "out-of-domain"),
            ("extra section", "task.yaml", "    function: generate\n",
             "    function: generate\nworkflow: {random_share: 0.5}\n", "exactly one top-level section"),
            ("wrong name", "task.yaml", "name: base_prefix_sum", "name: prefix_sum", "directory name"),
            ("stale held-out", "hidden.py", "total += x", "total += x + 1", "heldout.jsonl"),
            ("hidden trusts element types", "hidden.py", "isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi",
             "not lo <= v <= hi", "raised TypeError instead of ValueError on malformed input"),
            ("empty family", "task.yaml", "  level: base\n", '  level: base\n  family: ""\n', "task.family"),
            ("family not text", "task.yaml", "  level: base\n", "  level: base\n  family: 3\n", "task.family"),
        ]
        for what, file, old, new, want in cases:
            with self.subTest(what=what):
                self.tearDown()
                self.setUp()
                self.edit(file, old, new)
                code, out = run("--check", self.dir)
                self.assertEqual(code, 1, out)
                self.assertIn(want, out)


if __name__ == "__main__":
    unittest.main()
