package binding

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/reconstruct/reconstruct/sandbox"
)

//go:embed python/shim.py
var shim string

// TaskModule is reconstruct_binding.py: the ReconstructionTask dataclass,
// put on every binding's path.
//
//go:embed python/reconstruct_binding.py
var TaskModule string

// BankClient is reconstruct_bank.py: a client of `reconstruct bank serve
// --stdio` for the user's own Python.
//
//go:embed python/reconstruct_bank.py
var BankClient string

// Modules are the pure-Python files `reconstruct binding modules` writes
// for users to import from their own Python, by name.
var Modules = map[string]string{"reconstruct_binding.py": TaskModule, "reconstruct_bank.py": BankClient}

// The shim's entry points, as sandbox.Program functions.
const (
	EntryDescribe  = "reconstruct_describe"
	EntryOracle    = "reconstruct_oracle"
	EntryGenerate  = "reconstruct_generate"
	EntryHeldout   = "reconstruct_heldout"
	EntryOnExample = "reconstruct_on_example"
	EntryEvaluate  = "reconstruct_evaluate"
	EntryTool      = "reconstruct_tool"
)

// Bounds of what Load reads: a binding is copied into its sandbox whole,
// so one that holds more is refused.
const (
	maxFiles = 2000
	maxBytes = 64 << 20
	maxDepth = 4
)

// HeldoutFile is the name of held-out tests in a task directory: a file of
// that name is never copied into a sandbox with the binding.
const HeldoutFile = "heldout.jsonl"

// MinTimeout is the least time a factory or heldout call is given.
const MinTimeout = 30 * time.Second

var factoryRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// CheckFactory reports whether s has the form module:callable.
func CheckFactory(s string) error {
	if !factoryRE.MatchString(s) {
		return fmt.Errorf("%q is not module:callable (a dotted module name, a colon, a dotted attribute name)", s)
	}
	return nil
}

// Spec names a factory and where its modules are.
type Spec struct {
	// Factory is module:callable.
	Factory string
	// Args are the factory's keyword arguments.
	Args map[string]any
	// Root is the host directory the oracle's sandbox binds as its working
	// directory; every Path entry lies under it.
	Root string
	// Path are the host directories put on the binding's sys.path, in order.
	Path []string
}

// Error is a binding that cannot give a task; it names the factory.
type Error struct {
	Factory string
	Msg     string
}

func (e *Error) Error() string { return "task.factory " + e.Factory + ": " + e.Msg }

// Binding is a factory with its files read: its modules' sources (served
// to the shim from memory) and its package's other files (data, copied
// into the oracle's sandbox with the modules by Stage).
type Binding struct {
	spec Spec
	// Digests maps every file read (relative to Root) to its SHA-256.
	Digests map[string]string
	source  string
	// files are the bytes of every file read, by path relative to Root.
	files map[string][]byte
}

type pyFile struct {
	rel, src string
	pkg      bool
}

// Load reads the binding's files — the .py files directly in each
// spec.Path directory and every file of the factory's top-level package
// (its data too), regular files only (a symbolic link could make this
// process read a file the sandbox must not see), hidden ones and
// __pycache__ left out — and makes the shim's program. A run imports the
// sources read here throughout, and its oracle's sandbox sees the files
// read here (Stage), whatever the directory's mode; Digests identifies
// them. A binding over the bounds (2,000 files, 64 MiB) is refused.
func Load(spec Spec) (*Binding, error) {
	if err := CheckFactory(spec.Factory); err != nil {
		return nil, &Error{Factory: spec.Factory, Msg: err.Error()}
	}
	if spec.Args == nil {
		spec.Args = map[string]any{}
	}
	b := &Binding{spec: spec, Digests: map[string]string{}, files: map[string][]byte{}}
	files := map[string]pyFile{}
	total := 0
	// Read: the .py files of each path directory and the factory's
	// top-level package.
	topPackage, _, _ := strings.Cut(spec.Factory, ".")
	topPackage, _, _ = strings.Cut(topPackage, ":")
	for _, dir := range spec.Path {
		base := filepath.Clean(dir)
		root, err := os.OpenRoot(base)
		if err != nil {
			return nil, &Error{Factory: spec.Factory, Msg: fmt.Sprintf("read the binding's modules in %s: %v", dir, err)}
		}
		err = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == base {
					return err
				}
				return nil // an unreadable corner: the sandbox sees the same
			}
			rel, _ := filepath.Rel(base, p)
			top := !strings.Contains(rel, string(filepath.Separator))
			name := d.Name()
			if d.IsDir() {
				if p != base && (strings.HasPrefix(name, ".") || name == "__pycache__" || (top && name != topPackage) ||
					strings.Count(rel, string(filepath.Separator)) >= maxDepth) {
					return filepath.SkipDir
				}
				return nil
			}
			py := strings.HasSuffix(name, ".py")
			if !d.Type().IsRegular() || strings.HasPrefix(name, ".") || (top && !py) || name == HeldoutFile {
				return nil
			}
			mod, pkg := "", false
			if py {
				if mod, pkg = moduleName(rel); mod != "" {
					if _, seen := files[mod]; seen {
						return nil // an earlier path entry wins, as in Python
					}
				}
			}
			rootRel, err := filepath.Rel(spec.Root, p)
			if err != nil || strings.HasPrefix(rootRel, "..") {
				return fmt.Errorf("%s is outside %s", p, spec.Root)
			}
			rootRel = filepath.ToSlash(rootRel)
			if _, seen := b.files[rootRel]; seen {
				return nil
			}
			if len(b.files) >= maxFiles {
				return fmt.Errorf("more than %d files: a binding is copied into its sandbox whole", maxFiles)
			}
			data, err := readRegular(root, rel)
			if err != nil {
				return nil // unreadable or replaced since it was listed: the sandbox sees nothing either
			}
			if total += len(data); total > maxBytes {
				return fmt.Errorf("more than %d MiB: a binding is copied into its sandbox whole", maxBytes>>20)
			}
			b.files[rootRel] = data
			sum := sha256.Sum256(data)
			b.Digests[rootRel] = hex.EncodeToString(sum[:])
			if mod != "" {
				files[mod] = pyFile{rel: rootRel, src: string(data), pkg: pkg}
			}
			return nil
		})
		root.Close()
		if err != nil {
			return nil, &Error{Factory: spec.Factory, Msg: fmt.Sprintf("read the binding's files in %s: %v", dir, err)}
		}
	}
	// Directories without __init__.py are namespace packages.
	for mod, f := range files {
		for i := strings.LastIndex(mod, "."); i > 0; i = strings.LastIndex(mod[:i], ".") {
			parent := mod[:i]
			if _, ok := files[parent]; !ok {
				dir := f.rel
				for range strings.Count(mod[i:], ".") + boolInt(f.pkg) {
					dir = pathDir(dir)
				}
				files[parent] = pyFile{rel: dir + "/__init__.py", pkg: true}
			}
		}
	}
	if _, ok := files["reconstruct_binding"]; !ok {
		files["reconstruct_binding"] = pyFile{rel: "reconstruct_binding.py", src: TaskModule}
	}
	shown := make([]string, len(spec.Path))
	rels := make([]string, len(spec.Path))
	for i, p := range spec.Path {
		shown[i] = p
		r, err := filepath.Rel(spec.Root, p)
		if err != nil || strings.HasPrefix(r, "..") {
			return nil, &Error{Factory: spec.Factory, Msg: fmt.Sprintf("python_path %s is outside %s", p, spec.Root)}
		}
		rels[i] = filepath.ToSlash(r)
	}
	fileSpec := map[string][3]any{}
	for mod, f := range files {
		fileSpec[mod] = [3]any{f.rel, f.src, f.pkg}
	}
	data, err := json.Marshal(map[string]any{"factory": spec.Factory, "args": spec.Args, "path": rels, "shown_path": shown, "files": fileSpec})
	if err != nil {
		return nil, &Error{Factory: spec.Factory, Msg: fmt.Sprintf("task.args cannot be JSON: %v", err)}
	}
	quoted, _ := json.Marshal(string(data))
	b.source = shim + "\nimport json as _json\n_SPEC = _json.loads(" + string(quoted) + ")\n"
	return b, nil
}

// readRegular reads the regular file rel inside root, following no link
// out of it.
func readRegular(root *os.Root, rel string) ([]byte, error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", rel)
	}
	return io.ReadAll(io.LimitReader(f, maxBytes+1))
}

// Stage writes the binding's files, as Load read them, into dir (which
// must exist) at their places relative to the binding's root: the oracle's
// sandbox works in such a copy, so that the directory's own mode and
// anything else in it do not matter. Directories are made 0755 and files
// 0644, readable by the sandbox's user.
func (b *Binding) Stage(dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("stage the binding: %w", err)
	}
	defer root.Close()
	for rel, data := range b.files {
		// Every directory on the way is made readable whatever the umask.
		for d := path.Dir(rel); d != "."; d = path.Dir(d) {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("stage the binding: %w", err)
			}
			if err := root.Chmod(d, 0o755); err != nil {
				return fmt.Errorf("stage the binding: %w", err)
			}
		}
		f, err := root.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("stage the binding: %w", err)
		}
		_, werr := f.Write(data)
		if err := errors.Join(werr, f.Chmod(0o644), f.Close()); err != nil {
			return fmt.Errorf("stage the binding: %s: %w", rel, err)
		}
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func pathDir(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[:i]
	}
	return "."
}

// moduleName is the module a .py file (relative to a path entry) defines:
// a/b/c.py is a.b.c, a/__init__.py the package a.
func moduleName(rel string) (string, bool) {
	parts := strings.Split(filepath.ToSlash(strings.TrimSuffix(rel, ".py")), "/")
	pkg := false
	if parts[len(parts)-1] == "__init__" {
		parts, pkg = parts[:len(parts)-1], true
	}
	if len(parts) == 0 {
		return "", false
	}
	for _, p := range parts {
		if !isIdent(p) {
			return "", false
		}
	}
	return strings.Join(parts, "."), pkg
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func isIdent(s string) bool { return identRE.MatchString(s) }

// Factory is module:callable.
func (b *Binding) Factory() string { return b.spec.Factory }

// Program is the shim's function entry, for a sandbox request. Every entry
// but evaluate and tool is resident: the oracle's sandbox imports the
// binding once, in one process that serves the oracle, random-input and
// on_example requests. evaluate and the callable tools are given a
// candidate, in the evaluator's sandbox: each of their requests gets a
// fresh child, so that nothing a candidate did lasts to the next request,
// and the candidate itself runs in a process of its own (the shim's
// _isolated_candidate), away from the binding.
func (b *Binding) Program(entry string) sandbox.Program {
	return sandbox.Program{Source: b.source, Function: entry, Resident: entry != EntryEvaluate && entry != EntryTool}
}

// Changed lists the files whose digests differ between was and b (changed,
// new or gone), sorted, each with its SHA-256 recorded in was and its
// SHA-256 now (shortened); nil when none.
func (b *Binding) Changed(was map[string]string) []string {
	var out []string
	for f, d := range b.Digests {
		switch old, ok := was[f]; {
		case !ok:
			out = append(out, fmt.Sprintf("%s (new, sha256 %s)", f, short(d)))
		case old != d:
			out = append(out, fmt.Sprintf("%s (sha256 %s when bound, %s now)", f, short(old), short(d)))
		}
	}
	for f, d := range was {
		if _, ok := b.Digests[f]; !ok {
			out = append(out, fmt.Sprintf("%s (gone, was sha256 %s)", f, short(d)))
		}
	}
	sort.Strings(out)
	return out
}

// short is the first 12 hex digits of a digest, enough to tell two apart.
func short(digest string) string { return digest[:min(len(digest), 12)] }

// Caller is the part of a sandbox a binding needs.
type Caller interface {
	Call(ctx context.Context, req sandbox.CallRequest) ([]sandbox.Outcome, error)
}

// Description is what a factory's task says of itself: its plain fields,
// and which optional callables it has.
type Description struct {
	Name             string   `json:"name,omitempty"`
	Level            string   `json:"level,omitempty"`
	Family           string   `json:"family,omitempty"`
	InputType        string   `json:"input_type"`
	InputConstraints string   `json:"input_constraints,omitempty"`
	FunctionName     string   `json:"function_name,omitempty"`
	Kind             string   `json:"kind"`
	Lo               *float64 `json:"lo,omitempty"`
	Hi               *float64 `json:"hi,omitempty"`
	RandomInputs     bool     `json:"random_inputs,omitempty"`
	OnExample        bool     `json:"on_example,omitempty"`
	Evaluate         bool     `json:"evaluate,omitempty"`
	// Tools are the names of the built-in tools the task offers the LLM
	// agent (none: all of them); CallableTools are its own tools.
	Tools         []string   `json:"tools,omitempty"`
	CallableTools []ToolSpec `json:"callable_tools,omitempty"`
	// Workspace is where the task wants its runs' files, as it returned it.
	Workspace string `json:"workspace,omitempty"`
	// Heldout: the module has a heldout(**args) callable.
	Heldout bool `json:"heldout,omitempty"`
}

// ToolSpec is a callable of the task's tools as the LLM agent is told of
// it: its name, its docstring and the parameters the model gives; Path
// names the parameter that receives the candidate's path ("" for none).
type ToolSpec struct {
	Name   string      `json:"name"`
	Doc    string      `json:"doc,omitempty"`
	Params []ToolParam `json:"params,omitempty"`
	Path   string      `json:"path,omitempty"`
}

// ToolParam is one parameter of a callable tool; Type is a JSON schema
// type from its annotation ("" for any value).
type ToolParam struct {
	Name     string `json:"name"`
	Type     string `json:"type,omitempty"`
	Required bool   `json:"required"`
}

// Describe calls the factory in box and returns the task it describes.
func (b *Binding) Describe(ctx context.Context, box Caller, lim sandbox.Limits) (*Description, error) {
	out, err := b.callOne(ctx, box, EntryDescribe, json.RawMessage("null"), lim, "the factory")
	if err != nil {
		return nil, err
	}
	var d Description
	if err := json.Unmarshal(out, &d); err != nil {
		return nil, &Error{Factory: b.spec.Factory, Msg: fmt.Sprintf("the task's description: %v", err)}
	}
	return &d, nil
}

// Heldout calls the module's heldout(**args) in box: its tests, each a
// JSON object {"input": ..., "output": ...}.
func (b *Binding) Heldout(ctx context.Context, box Caller, lim sandbox.Limits) ([]json.RawMessage, error) {
	out, err := b.callOne(ctx, box, EntryHeldout, json.RawMessage("null"), lim, "heldout")
	if err != nil {
		return nil, err
	}
	var tests []json.RawMessage
	if err := json.Unmarshal(out, &tests); err != nil {
		return nil, &Error{Factory: b.spec.Factory, Msg: fmt.Sprintf("heldout's tests: %v", err)}
	}
	if len(tests) == 0 {
		return nil, &Error{Factory: b.spec.Factory, Msg: "heldout returned no tests"}
	}
	return tests, nil
}

// callOne runs entry on one input; what names the call in errors.
func (b *Binding) callOne(ctx context.Context, box Caller, entry string, in json.RawMessage, lim sandbox.Limits, what string) (json.RawMessage, error) {
	lim.Timeout = max(lim.Timeout, MinTimeout)
	outs, err := box.Call(ctx, sandbox.CallRequest{Program: b.Program(entry), Inputs: []json.RawMessage{in}, Limits: lim})
	if err != nil {
		return nil, fmt.Errorf("task.factory %s: %w", b.spec.Factory, err)
	}
	if len(outs) != 1 {
		return nil, fmt.Errorf("task.factory %s: %d outcomes for one call", b.spec.Factory, len(outs))
	}
	return OutcomeValue(b.spec.Factory, what, outs[0], lim)
}

// ErrInfra marks a failure of the sandbox rather than of the binding.
var ErrInfra = errors.New("the binding's sandbox failed")

// OutcomeValue is the value of one shim call, or an *Error saying what
// went wrong (what names the call: "the factory", "heldout", a hook).
func OutcomeValue(factory, what string, o sandbox.Outcome, lim sandbox.Limits) (json.RawMessage, error) {
	msg := strings.TrimPrefix(o.Error, "BindingError: ")
	switch o.Status {
	case sandbox.StatusOK:
		return o.Output, nil
	case sandbox.StatusError:
		if msg == o.Error {
			msg = what + " raised " + msg
		}
	case sandbox.StatusTimeout:
		msg = fmt.Sprintf("%s did not return within %s", what, lim.WithDefaults().Timeout)
	case sandbox.StatusMemory:
		msg = fmt.Sprintf("%s ran out of memory (%d MiB, sandbox.memory_mb)", what, lim.WithDefaults().MemoryBytes>>20)
	case sandbox.StatusBadOutput, sandbox.StatusOutputLimit:
		msg = fmt.Sprintf("%s returned what cannot be passed on: %s", what, o.Error)
	case sandbox.StatusLoad:
		return nil, fmt.Errorf("%w: task.factory %s: the shim did not load: %s", ErrInfra, factory, o.Error)
	default:
		return nil, fmt.Errorf("%w: task.factory %s: %s %s: %s", ErrInfra, factory, what, o.Status, o.Error)
	}
	return nil, &Error{Factory: factory, Msg: msg}
}

// Record is one result of the task's evaluate hook, as the contract has
// it: {"ok": true, "output": x} or {"ok": false, "error": "..."}.
type Record struct {
	OK     bool            `json:"ok"`
	Output json.RawMessage `json:"output,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// Evaluate runs the task's evaluate(program_path, inputs) on a candidate
// (its source, defining function) in box, a fresh process of the
// evaluator's sandbox, and returns one outcome an input: a record that
// failed is an error outcome with the hook's message. lim bounds each
// input; the hook is given them all at once.
func (b *Binding) Evaluate(ctx context.Context, box Caller, source, function string, inputs []json.RawMessage, lim sandbox.Limits) ([]sandbox.Outcome, error) {
	lim = lim.WithDefaults()
	job, err := json.Marshal(map[string]any{"source": source, "function_name": function, "inputs": inputs, "output_bytes": lim.OutputBytes})
	if err != nil {
		return nil, err
	}
	lim.Timeout *= time.Duration(max(1, len(inputs)))
	lim.OutputBytes *= int64(max(1, len(inputs)))
	outs, err := box.Call(ctx, sandbox.CallRequest{Program: b.Program(EntryEvaluate), Inputs: []json.RawMessage{job}, Limits: lim})
	if err != nil {
		return nil, err
	}
	if len(outs) != 1 {
		return nil, fmt.Errorf("%d outcomes for one call", len(outs))
	}
	v, err := OutcomeValue(b.spec.Factory, "evaluate", outs[0], lim)
	if err != nil {
		return nil, err
	}
	var recs []Record
	if err := json.Unmarshal(v, &recs); err != nil || len(recs) != len(inputs) {
		return nil, &Error{Factory: b.spec.Factory, Msg: fmt.Sprintf("evaluate returned %d records for %d inputs (%v)", len(recs), len(inputs), err)}
	}
	res := make([]sandbox.Outcome, len(recs))
	per := outs[0].Seconds / float64(len(recs))
	for i, r := range recs {
		switch {
		case r.OK && len(r.Output) > 0:
			res[i] = sandbox.Outcome{Status: sandbox.StatusOK, Output: r.Output, Seconds: per}
		case r.OK:
			res[i] = sandbox.Outcome{Status: sandbox.StatusOK, Output: json.RawMessage("null"), Seconds: per}
		default:
			res[i] = sandbox.Outcome{Status: sandbox.StatusError, Error: r.Error, Seconds: per}
		}
	}
	return res, nil
}

// Tool calls the task's callable tool name with the model's arguments
// (a JSON object) and the candidate (its source, defining function) in
// box, a fresh process of the evaluator's sandbox, and returns what it
// returned as text. The tool's own failure is an *Error, shown to the
// model; a sandbox failure wraps ErrInfra.
func (b *Binding) Tool(ctx context.Context, box Caller, name, source, function string, args json.RawMessage, lim sandbox.Limits) (string, error) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	lim = lim.WithDefaults()
	job, err := json.Marshal(map[string]any{"name": name, "source": source, "function_name": function, "args": args, "output_bytes": lim.OutputBytes})
	if err != nil {
		return "", err
	}
	lim.Timeout = max(lim.Timeout, MinTimeout)
	outs, err := box.Call(ctx, sandbox.CallRequest{Program: b.Program(EntryTool), Inputs: []json.RawMessage{job}, Limits: lim})
	if err != nil {
		return "", fmt.Errorf("%w: task.factory %s: tool %s: %w", ErrInfra, b.spec.Factory, name, err)
	}
	if len(outs) != 1 {
		return "", fmt.Errorf("%w: task.factory %s: tool %s: %d outcomes for one call", ErrInfra, b.spec.Factory, name, len(outs))
	}
	if outs[0].Status == sandbox.StatusCrashed {
		// The candidate the tool runs may end the tool's process: that is
		// the tool's outcome, not a broken sandbox.
		return "", &Error{Factory: b.spec.Factory, Msg: fmt.Sprintf("tool %s crashed: %s", name, outs[0].Error)}
	}
	v, err := OutcomeValue(b.spec.Factory, "tool "+name, outs[0], lim)
	if err != nil {
		return "", err
	}
	var text string
	if err := json.Unmarshal(v, &text); err != nil {
		return "", &Error{Factory: b.spec.Factory, Msg: fmt.Sprintf("tool %s returned %s, want text", name, v)}
	}
	return text, nil
}
