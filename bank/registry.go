package bank

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Type variables usable in built-in signatures: N is scalar or index, K is
// any base kind; one call binds each variable to a single kind.
const (
	varN Kind = "N"
	varK Kind = "K"
)

// Param is one named, typed parameter of an operation.
type Param struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
}

// Signature is the typed interface of an operation.
type Signature struct {
	Params []Param `json:"params"`
	Result Kind    `json:"result"`
}

// param returns the kind pattern of the named parameter.
func (s Signature) param(name string) (Kind, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p.Kind, true
		}
	}
	return "", false
}

// String renders "a: N, b: N → N".
func (s Signature) String() string {
	parts := make([]string, len(s.Params))
	for i, p := range s.Params {
		parts[i] = p.Name + ": " + string(p.Kind)
	}
	return strings.Join(parts, ", ") + " → " + string(s.Result)
}

// unify binds the signature's type variables from the argument kinds and
// returns the result kind. args must name every parameter.
func (s Signature) unify(args map[string]Kind) (Kind, error) {
	bind := map[Kind]Kind{}
	for _, p := range s.Params {
		got := args[p.Name]
		if err := match(p.Kind, got, bind); err != nil {
			return "", fmt.Errorf("argument %q: %w", p.Name, err)
		}
	}
	return subst(s.Result, bind), nil
}

func match(pattern, got Kind, bind map[Kind]Kind) error {
	if pattern.IsList() {
		if !got.IsList() {
			return fmt.Errorf("kind %s, want %s", got, pattern)
		}
		if err := match(pattern.Elem(), got.Elem(), bind); err != nil {
			return fmt.Errorf("kind %s, want %s", got, pattern)
		}
		return nil
	}
	switch pattern {
	case varN, varK:
		if got.IsList() || (pattern == varN && got != KindScalar && got != KindIndex) {
			if pattern == varN {
				return fmt.Errorf("kind %s, want scalar or index", got)
			}
			return fmt.Errorf("kind %s, want a base kind", got)
		}
		if b, ok := bind[pattern]; ok && b != got {
			return fmt.Errorf("kind %s, want %s (as the other %s arguments)", got, b, pattern)
		}
		bind[pattern] = got
		return nil
	}
	if got != pattern {
		return fmt.Errorf("kind %s, want %s", got, pattern)
	}
	return nil
}

func subst(k Kind, bind map[Kind]Kind) Kind {
	if k.IsList() {
		return ListOf(subst(k.Elem(), bind))
	}
	if b, ok := bind[k]; ok {
		return b
	}
	return k
}

// callFunc implements a built-in operation.
type callFunc func(c *call, args map[string]Value) (Value, error)

// Operation is one entry of the registry: a built-in, a user function (a
// typed sub-graph) or a registered reconstructed program.
type Operation struct {
	Name    string
	Sig     Signature
	Version string
	// Digest identifies the implementation: the built-in name and version,
	// the canonical function definition, or the program's source digest.
	Digest string

	builtin  callFunc
	function *Function
	program  *Program
}

// Kind of an operation: "builtin", "function" or "program".
func (o *Operation) Kind() string {
	switch {
	case o.function != nil:
		return "function"
	case o.program != nil:
		return "program"
	}
	return "builtin"
}

// Function is a user function: a named sub-graph with typed parameters and
// one output (docs/bank.md "Registry").
type Function struct {
	Params map[string]Kind `json:"params"`
	Nodes  []Node          `json:"nodes"`
	Output string          `json:"output"`

	kinds map[string]Kind // filled by validation
	nodes map[string]*checkedNode
}

// ProgramRunner runs a reconstructed program on inputs in a sandbox. The
// bank never runs untrusted code itself; without a runner program.apply
// fails.
type ProgramRunner interface {
	// Apply calls prog on each input and returns one JSON output per input.
	Apply(ctx context.Context, prog *Program, inputs []json.RawMessage) ([]json.RawMessage, error)
}

// Registry is a set of operations. A Registry is not modified after it is
// built; Register methods return an error for a taken or invalid name.
type Registry struct {
	ops map[string]*Operation
	// identity is computed once, when first asked for.
	identity func() string
}

// builtinOps are the built-in operations, built once: operations are not
// modified after they are made.
var builtinOps = sync.OnceValue(func() map[string]*Operation {
	ops := map[string]*Operation{}
	for _, op := range builtins() {
		op.Digest = HashBytes([]byte("builtin:" + op.Name + "@" + op.Version))
		ops[op.Name] = op
	}
	return ops
})

// NewRegistry returns a registry holding the built-in operations.
func NewRegistry() *Registry { return newRegistry(maps.Clone(builtinOps())) }

func newRegistry(ops map[string]*Operation) *Registry {
	r := &Registry{ops: ops}
	r.identity = sync.OnceValue(r.computeIdentity)
	return r
}

// Lookup returns the named operation.
func (r *Registry) Lookup(name string) (*Operation, bool) {
	op, ok := r.ops[name]
	return op, ok
}

// Names returns every operation name, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.ops))
	for n := range r.ops {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var opNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// ValidOpName reports whether name can name an operation.
func ValidOpName(name string) bool { return len(name) <= 128 && opNameRE.MatchString(name) }

// DecodeFunction strictly decodes a function file.
func DecodeFunction(raw []byte) (*Function, error) {
	tree, err := parseJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("function: invalid JSON: %w", err)
	}
	return decodeFunctionTree("function", tree)
}

func decodeFunctionTree(path string, tree any) (*Function, error) {
	m, ok := tree.(map[string]any)
	if !ok {
		return nil, pathErr(path, "want an object {params, nodes, output}")
	}
	if err := exactKeys(path, m, []string{"params", "nodes", "output"}, nil); err != nil {
		return nil, err
	}
	f := &Function{Params: map[string]Kind{}}
	pm, ok := m["params"].(map[string]any)
	if !ok {
		return nil, pathErr(joinPath(path, "params"), "want an object of NAME: KIND")
	}
	for name, k := range pm {
		ks, ok := k.(string)
		if !ok {
			return nil, pathErr(joinPath(path, "params."+name), "want a kind string")
		}
		f.Params[name] = Kind(ks)
	}
	nodes, err := decodeNodes(joinPath(path, "nodes"), m["nodes"])
	if err != nil {
		return nil, err
	}
	f.Nodes = nodes
	if f.Output, err = decodeString(joinPath(path, "output"), m["output"]); err != nil {
		return nil, err
	}
	return f, nil
}

// canonical returns the canonical JSON of the function definition.
func (f *Function) canonical() []byte {
	var buf bytes.Buffer
	buf.WriteString(`{"nodes":`)
	writeNodes(&buf, f.Nodes)
	buf.WriteString(`,"output":`)
	writeString(&buf, f.Output)
	buf.WriteString(`,"params":{`)
	for i, n := range sortedKeys(f.Params) {
		if i > 0 {
			buf.WriteByte(',')
		}
		writeString(&buf, n)
		buf.WriteByte(':')
		writeString(&buf, string(f.Params[n]))
	}
	buf.WriteString(`}}`)
	return buf.Bytes()
}

// MarshalJSON encodes the function canonically.
func (f *Function) MarshalJSON() ([]byte, error) { return f.canonical(), nil }

// WithFunction returns a copy of r with the function registered as name.
// The function is validated against r: it may call any operation already
// registered, so functions cannot recurse.
func (r *Registry) WithFunction(name string, f *Function) (*Registry, error) {
	if !ValidOpName(name) {
		return nil, fmt.Errorf("register %q: invalid operation name", name)
	}
	if _, taken := r.ops[name]; taken {
		return nil, fmt.Errorf("register %q: an operation with this name %w", name, ErrExists)
	}
	env := map[string]Kind{}
	params := make([]Param, 0, len(f.Params))
	for pname, k := range f.Params {
		if !validName(pname) {
			return nil, fmt.Errorf("register %q: params.%s: invalid parameter name", name, pname)
		}
		if !k.Valid() {
			return nil, fmt.Errorf("register %q: params.%s: unknown kind %q", name, pname, k)
		}
		env[pname] = k
		params = append(params, Param{pname, k})
	}
	sort.Slice(params, func(i, j int) bool { return params[i].Name < params[j].Name })
	nodes := cloneNodes(f.Nodes)
	chk, err := checkNodes(r, env, nodes, map[string]string{"output": f.Output}, "function."+name)
	if err != nil {
		return nil, fmt.Errorf("register %q: %w", name, err)
	}
	g := &Function{Params: f.Params, Nodes: nodes, Output: f.Output, kinds: chk.Kinds, nodes: chk.nodes}
	op := &Operation{Name: name, Sig: Signature{Params: params, Result: chk.Kinds[f.Output]},
		Version: "function", Digest: HashBytes(g.canonical()), function: g}
	return r.with(op), nil
}

// WithProgram returns a copy of r with a reconstructed program registered
// as name, an operation "item: json → json" run through the ProgramRunner
// (its parameter is named item so that a map can apply it to a list[json]).
func (r *Registry) WithProgram(name string, prog Value) (*Registry, error) {
	if !ValidOpName(name) {
		return nil, fmt.Errorf("register %q: invalid operation name", name)
	}
	if _, taken := r.ops[name]; taken {
		return nil, fmt.Errorf("register %q: an operation with this name %w", name, ErrExists)
	}
	p, ok := prog.Program()
	if !ok {
		return nil, fmt.Errorf("register %q: want a program value, got %s", name, prog.Kind())
	}
	op := &Operation{Name: name, Sig: Signature{Params: []Param{{"item", KindJSON}}, Result: KindJSON},
		Version: "program", Digest: prog.Hash(), program: p}
	return r.with(op), nil
}

func (r *Registry) with(op *Operation) *Registry {
	ops := make(map[string]*Operation, len(r.ops)+1)
	for k, v := range r.ops {
		ops[k] = v
	}
	ops[op.Name] = op
	return newRegistry(ops)
}

// OpInfo describes one operation in listings.
type OpInfo struct {
	Name    string    `json:"name"`
	Kind    string    `json:"kind"`
	Params  []Param   `json:"params"`
	Result  Kind      `json:"result"`
	Version string    `json:"version"`
	Digest  string    `json:"digest"`
	Def     *Function `json:"definition,omitempty"`
}

// Listing returns every operation sorted by name.
func (r *Registry) Listing() []OpInfo {
	var out []OpInfo
	for _, n := range r.Names() {
		op := r.ops[n]
		out = append(out, OpInfo{Name: n, Kind: op.Kind(), Params: op.Sig.Params, Result: op.Sig.Result,
			Version: op.Version, Digest: op.Digest, Def: op.function})
	}
	return out
}

// Identity is the SHA-256 of the canonical listing of every operation's
// name, signature, version and implementation digest.
func (r *Registry) Identity() string { return r.identity() }

func (r *Registry) computeIdentity() string {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, n := range r.Names() {
		op := r.ops[n]
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString(`{"digest":`)
		writeString(&buf, op.Digest)
		buf.WriteString(`,"name":`)
		writeString(&buf, n)
		buf.WriteString(`,"params":[`)
		for j, p := range op.Sig.Params {
			if j > 0 {
				buf.WriteByte(',')
			}
			buf.WriteByte('[')
			writeString(&buf, p.Name)
			buf.WriteByte(',')
			writeString(&buf, string(p.Kind))
			buf.WriteByte(']')
		}
		buf.WriteString(`],"result":`)
		writeString(&buf, string(op.Sig.Result))
		buf.WriteString(`,"version":`)
		writeString(&buf, op.Version)
		buf.WriteByte('}')
	}
	buf.WriteByte(']')
	return HashBytes(buf.Bytes())
}
