package binding

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
	"github.com/reconstruct/reconstruct/sandbox"
)

// spec is the shim's _SPEC of b, decoded.
func spec(t *testing.T, b *Binding) map[string]any {
	t.Helper()
	i := strings.LastIndex(b.source, "_SPEC = _json.loads(")
	var text string
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimSpace(b.source[i+len("_SPEC = _json.loads("):]), ")")), &text); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Load reads the .py files of the path directories and every file of the
// factory's package (namespace packages included, its data too, not a file
// of held-out tests), never a symbolic link or another package, and names
// each file's digest; Stage writes them into a directory of their own.
func TestLoadReadsTheBinding(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.py")
	testenv.WriteFiles(t, dir, map[string]string{
		"helpers.py":               "X = 1\n",
		"bench/tasks/__init__.py":  "",
		"bench/tasks/registry.py":  "def make(): pass\n",
		"bench/data/notes.txt":     "not python",
		"bench/data/heldout.jsonl": "{}",
		"notes.txt":                "beside the path's modules: not the package's",
		"other/module.py":          "# another package: imported from the directory\n",
		"runs/t1/candidate.py":     "def solve(x): return x\n",
		"bench/.hidden/skipped.py": "",
	})
	testenv.WriteFiles(t, filepath.Dir(outside), map[string]string{"secret.py": "TOKEN = 'secret'\n"})
	if err := os.Symlink(outside, filepath.Join(dir, "bench", "link.py")); err != nil {
		t.Fatal(err)
	}
	b, err := Load(Spec{Factory: "bench.tasks.registry:make", Args: map[string]any{"name": "a"}, Root: dir, Path: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"bench/data/notes.txt", "bench/tasks/__init__.py", "bench/tasks/registry.py", "helpers.py"}
	if got := sortedKeys(b.Digests); !reflect.DeepEqual(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
	mods := spec(t, b)["files"].(map[string]any)
	for _, m := range []string{"bench", "bench.tasks", "bench.tasks.registry", "helpers", "reconstruct_binding"} {
		if _, ok := mods[m]; !ok {
			t.Errorf("module %s is not served (have %v)", m, sortedKeys(mods))
		}
	}
	if ns := mods["bench"].([]any); ns[0] != "bench/__init__.py" || ns[1] != "" || ns[2] != true {
		t.Errorf("namespace package bench = %v", ns)
	}
	if strings.Contains(b.source, "TOKEN") {
		t.Error("the file a symbolic link points to was read")
	}
	staged := t.TempDir()
	if err := b.Stage(staged); err != nil {
		t.Fatal(err)
	}
	var copied []string
	filepath.WalkDir(staged, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(staged, p)
			copied = append(copied, filepath.ToSlash(rel))
			if fi, _ := d.Info(); fi.Mode().Perm() != 0o644 {
				t.Errorf("staged %s has mode %v, want 0644", rel, fi.Mode().Perm())
			}
		}
		return nil
	})
	sort.Strings(copied)
	if !reflect.DeepEqual(copied, want) {
		t.Errorf("staged %v, want %v", copied, want)
	}
	if got := b.Changed(b.Digests); got != nil {
		t.Errorf("unchanged binding: %v", got)
	}
	testenv.WriteFiles(t, dir, map[string]string{"helpers.py": "X = 2\n", "new.py": ""})
	b2, err := Load(Spec{Factory: "bench.tasks.registry:make", Root: dir, Path: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	was := map[string]string{"gone.py": "0123456789abcdef"}
	for k, v := range b.Digests {
		was[k] = v
	}
	want = []string{
		"gone.py (gone, was sha256 0123456789ab)",
		"helpers.py (sha256 " + b.Digests["helpers.py"][:12] + " when bound, " + b2.Digests["helpers.py"][:12] + " now)",
		"new.py (new, sha256 " + b2.Digests["new.py"][:12] + ")",
	}
	if b.Digests["helpers.py"] == b2.Digests["helpers.py"] {
		t.Fatalf("helpers.py has the same digest after it changed")
	}
	if got := b2.Changed(was); !reflect.DeepEqual(got, want) {
		t.Errorf("Changed = %v, want %v", got, want)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestCheckFactory(t *testing.T) {
	for s, ok := range map[string]bool{
		"m:f": true, "a.b.c:make_task": true, "pkg.mod:Class.create": true,
		"m": false, "m:": false, ":f": false, "a-b:f": false, "m:f:g": false, "m.:f": false, "1m:f": false,
	} {
		if err := CheckFactory(s); (err == nil) != ok {
			t.Errorf("CheckFactory(%q) = %v", s, err)
		}
	}
	if _, err := Load(Spec{Factory: "nope", Root: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "task.factory nope: ") {
		t.Errorf("Load of a bad factory: %v", err)
	}
}

// A call's outcome is a value, a binding's mistake (*Error, naming the
// factory) or a sandbox failure (ErrInfra).
func TestOutcomeValue(t *testing.T) {
	lim := sandbox.Limits{}
	for _, tc := range []struct {
		o     sandbox.Outcome
		want  string
		infra bool
	}{
		{sandbox.Outcome{Status: sandbox.StatusError, Error: "BindingError: module m not found (searched: /x)"}, "task.factory m:f: module m not found (searched: /x)", false},
		{sandbox.Outcome{Status: sandbox.StatusError, Error: "ValueError: bad"}, "task.factory m:f: the factory raised ValueError: bad", false},
		{sandbox.Outcome{Status: sandbox.StatusTimeout}, "the factory did not return within 2s", false},
		{sandbox.Outcome{Status: sandbox.StatusBadOutput, Error: "the return value cannot be JSON"}, "the factory returned what cannot be passed on", false},
		{sandbox.Outcome{Status: sandbox.StatusLoad, Error: "SyntaxError"}, "the shim did not load", true},
		{sandbox.Outcome{Status: sandbox.StatusCrashed, Error: "signal 9"}, "the factory crashed: signal 9", true},
	} {
		_, err := OutcomeValue("m:f", "the factory", tc.o, lim)
		if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, ErrInfra) != tc.infra {
			t.Errorf("%s: %v, want %q (infrastructure %v)", tc.o.Status, err, tc.want, tc.infra)
		}
	}
	v, err := OutcomeValue("m:f", "the factory", sandbox.Outcome{Status: sandbox.StatusOK, Output: json.RawMessage(`{"a":1}`)}, lim)
	if err != nil || string(v) != `{"a":1}` {
		t.Errorf("ok outcome: %s %v", v, err)
	}
}

// The binding's entries are resident (imported once in the oracle's
// sandbox) but evaluate, which runs candidates in its own process: each
// of its requests must get a fresh child.
func TestProgramResident(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"tasks.py": "def make():\n    return {}\n"})
	b, err := Load(Spec{Factory: "tasks:make", Root: dir, Path: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		entry    string
		resident bool
	}{
		{EntryDescribe, true},
		{EntryOracle, true},
		{EntryGenerate, true},
		{EntryHeldout, true},
		{EntryOnExample, true},
		{EntryEvaluate, false},
		{EntryTool, false},
	} {
		p := b.Program(tc.entry)
		if p.Resident != tc.resident || p.Function != tc.entry {
			t.Errorf("Program(%s) = {Function: %s, Resident: %v}, want resident %v", tc.entry, p.Function, p.Resident, tc.resident)
		}
	}
}

// A binding is copied into its sandbox whole: one with more files than
// the bound is refused, naming the bound.
func TestLoadRefusesAnOversizedBinding(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"bench/__init__.py": ""}
	for i := range maxFiles + 1 {
		files[fmt.Sprintf("bench/data/%04d.txt", i)] = "x"
	}
	testenv.WriteFiles(t, dir, files)
	_, err := Load(Spec{Factory: "bench:make", Root: dir, Path: []string{dir}})
	var be *Error
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "more than 2000 files: a binding is copied into its sandbox whole") {
		t.Errorf("Load: %v", err)
	}
}
