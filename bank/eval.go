package bank

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
)

// DefaultBudget is the default number of operation calls one evaluation
// may make, per-item calls included.
const DefaultBudget = 100000

// inlineValueBytes is the largest canonical result shown inline in a trace
// entry; larger results appear by kind and hash only.
const inlineValueBytes = 256

// ErrBudget reports that an evaluation ran out of its call budget.
var ErrBudget = errors.New("call budget exhausted")

// Evaluator runs validated graphs.
type Evaluator struct {
	Registry *Registry
	// Runner runs program.apply and registered programs; nil makes them fail.
	Runner ProgramRunner
	// Budget caps operation calls; 0 means DefaultBudget.
	Budget int
	// untraced: record no trace (the results are all that is wanted).
	untraced bool
}

// TraceEntry records one operation call or choice decision.
type TraceEntry struct {
	Path   string `json:"path"`
	Op     string `json:"op,omitempty"`
	Kind   Kind   `json:"kind,omitempty"`
	Result string `json:"result,omitempty"` // hash of the result
	Value  *Value `json:"value,omitempty"`  // the result when small
	Keep   *bool  `json:"keep,omitempty"`   // filter decision
	Step   *int   `json:"step,omitempty"`   // fold step
	Branch string `json:"branch,omitempty"` // choice: "then" or "else"
	Error  string `json:"error,omitempty"`
}

// Result is what an evaluation produced. After an error it holds what was
// computed before the failure, including the failing trace entry.
type Result struct {
	Outputs map[string]Value
	// Values holds every node that was evaluated, by id.
	Values       map[string]Value
	Trace        []TraceEntry
	Calls        int
	Kinds        map[string]Kind
	Dependencies map[string][]string
	// hashes holds the hashes of values the trace has, by node id.
	hashes map[string]string
	// ids are the graph's node ids, sorted (read only).
	ids []string
}

// hash returns the hash of the value of node id.
func (res *Result) hash(id string, v Value) string {
	if h, ok := res.hashes[id]; ok {
		return h
	}
	return v.Hash()
}

// EvalError is a failure of one call during evaluation.
type EvalError struct {
	Path string
	Op   string
	Err  error
}

func (e *EvalError) Error() string {
	if e.Op == "" {
		return fmt.Sprintf("evaluate %s: %v", e.Path, e.Err)
	}
	return fmt.Sprintf("evaluate %s (%s): %v", e.Path, e.Op, e.Err)
}

func (e *EvalError) Unwrap() error { return e.Err }

type frame struct {
	path   string
	env    map[string]Value
	nodes  map[string]*checkedNode
	kinds  map[string]Kind
	values map[string]Value
}

type run struct {
	ctx    context.Context
	ev     *Evaluator
	budget int
	calls  int
	trace  []TraceEntry
	buf    bytes.Buffer // scratch for encoding results
	free   []map[string]Value
	hashes map[string]string // see Result.hashes
	// owned is the grid of a fold's state that the fold made and nothing
	// else refers to: object.paint and object.erase may change it in
	// place instead of copying it (the fold's steps would otherwise copy
	// the whole grid each). fresh is the grid such an operation returned.
	owned, fresh *Grid
	call0        call
}

// call is what a built-in implementation may use of the running
// evaluation. A run has one (run.self), handed to every built-in it
// calls: none keeps it.
type call struct {
	r *run
}

func (r *run) self() *call {
	r.call0.r = r
	return &r.call0
}

// Evaluate validates g and runs it, evaluating only what the outputs need.
// A validation failure is a *PathError; a failing call an *EvalError.
func (e *Evaluator) Evaluate(ctx context.Context, g *Graph) (*Result, error) {
	chk, err := Validate(e.Registry, g)
	if err != nil {
		return nil, err
	}
	return e.run(ctx, g, chk)
}

func (e *Evaluator) run(ctx context.Context, g *Graph, chk *Checked) (*Result, error) {
	budget := e.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	r := &run{ctx: ctx, ev: e, budget: budget, hashes: map[string]string{}}
	f := &frame{path: rootPath, env: g.Inputs, nodes: chk.nodes, kinds: chk.Kinds, values: make(map[string]Value, len(chk.nodes))}
	res := &Result{Outputs: map[string]Value{}, Values: f.values, hashes: r.hashes, ids: chk.sortedIDs()}
	if !e.untraced {
		// Handed out: copies (chk may be a cached validation).
		res.Kinds, res.Dependencies = chk.results()
	}
	names := make([]string, 0, len(g.Outputs))
	for n := range g.Outputs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		v, err := r.ref(f, g.Outputs[name])
		if err != nil {
			res.Trace, res.Calls = r.trace, r.calls
			return res, err
		}
		res.Outputs[name] = v
	}
	res.Trace, res.Calls = r.trace, r.calls
	return res, nil
}

func (r *run) ref(f *frame, name string) (Value, error) {
	if v, ok := f.env[name]; ok {
		return v, nil
	}
	if v, ok := f.values[name]; ok {
		return v, nil
	}
	n, ok := f.nodes[name]
	if !ok {
		return Value{}, &EvalError{Path: f.path, Err: fmt.Errorf("unknown reference %q", name)}
	}
	v, err := r.node(f, n)
	if err != nil {
		return Value{}, err
	}
	f.values[name] = v
	return v, nil
}

// argMap returns an empty argument map, reusing one a finished call
// returned to r.free: evaluating a long chain of nodes would otherwise
// allocate a map per call.
func (r *run) argMap() map[string]Value {
	if n := len(r.free); n > 0 {
		m := r.free[n-1]
		r.free = r.free[:n-1]
		clear(m)
		return m
	}
	return make(map[string]Value, 4)
}

// refs evaluates m's references in the order of names (m's keys, sorted).
func (r *run) refs(f *frame, names []string, m map[string]string, into map[string]Value) error {
	for _, k := range names {
		v, err := r.ref(f, m[k])
		if err != nil {
			return err
		}
		into[k] = v
	}
	return nil
}

// rootPath is the trace path of a graph's evaluation; its nodes' paths
// are worked out when it is validated (checkedNode.path).
const rootPath = "root"

func (r *run) node(f *frame, n *checkedNode) (Value, error) {
	path := n.path
	if f.path != rootPath {
		path = f.path + "/" + n.ID
	}
	reg := r.ev.Registry
	switch n.Form() {
	case "op":
		op, _ := reg.Lookup(n.Op)
		// The arguments are evaluated first (which recurses), then put in
		// an argument map that is used for this call only and reused.
		var local [4]Value
		vals := local[:0]
		for _, k := range n.args {
			v, err := r.ref(f, n.Args[k])
			if err != nil {
				return Value{}, err
			}
			vals = append(vals, v)
		}
		args := r.argMap()
		for i, k := range n.args {
			args[k] = vals[i]
		}
		v, err := r.call(path, op, args, nil)
		r.free = append(r.free, args)
		if err == nil && f.path == rootPath && !r.ev.untraced {
			// The call's trace entry has the value's hash.
			r.hashes[n.ID] = r.trace[len(r.trace)-1].Result
		}
		return v, err
	case "choice":
		cond, err := r.ref(f, n.Choice.If)
		if err != nil {
			return Value{}, err
		}
		b, _ := cond.Flag()
		branch, ref := "else", n.Choice.Else
		if b {
			branch, ref = "then", n.Choice.Then
		}
		if !r.ev.untraced {
			r.trace = append(r.trace, TraceEntry{Path: path, Branch: branch})
		}
		return r.ref(f, ref)
	}
	a := n.apply()
	op, _ := reg.Lookup(a.Op)
	itemsV, err := r.ref(f, a.Items)
	if err != nil {
		return Value{}, err
	}
	items, _ := itemsV.Items()
	var state Value
	if n.Fold != nil {
		if state, err = r.ref(f, a.State); err != nil {
			return Value{}, err
		}
	}
	if len(items) == 0 {
		switch {
		case n.Map != nil:
			return List(f.kinds[n.ID].Elem(), nil), nil
		case n.Filter != nil:
			return List(itemsV.Kind().Elem(), nil), nil
		}
		return state, nil
	}
	// Bindings are evaluated once, when the first item needs them.
	bound := make(map[string]Value, len(a.Bindings)+2)
	if err := r.refs(f, n.args, a.Bindings, bound); err != nil {
		return Value{}, err
	}
	if n.Map != nil && op.program != nil {
		return r.mapProgram(path, op, items)
	}
	var out []Value
	var owned *Grid
	// One argument map serves every item: a call keeps no reference to it.
	args := bound
	// The items' paths are built in one buffer, and a fold's trace entries
	// point into one array of step numbers: a long collection would
	// otherwise cost allocations per item for them.
	pbuf := append(append(make([]byte, 0, len(path)+24), path...), "/item_"...)
	var steps []int
	if !r.ev.untraced {
		// A trace entry per item, at least.
		r.trace = slices.Grow(r.trace, len(items))
		if n.Fold != nil {
			steps = make([]int, len(items))
		}
	}
	for i, item := range items {
		args["item"] = item
		ipath := string(strconv.AppendInt(pbuf, int64(i), 10))
		switch {
		case n.Map != nil:
			v, err := r.call(ipath, op, args, nil)
			if err != nil {
				return Value{}, err
			}
			out = append(out, v)
		case n.Filter != nil:
			v, err := r.call(ipath, op, args, func(e *TraceEntry, v Value) {
				keep, _ := v.Flag()
				e.Keep = &keep
			})
			if err != nil {
				return Value{}, err
			}
			if keep, _ := v.Flag(); keep {
				out = append(out, item)
			}
		default:
			args["state"] = state
			var step *int
			if steps != nil {
				steps[i] = i
				step = &steps[i]
			}
			r.owned, r.fresh = owned, nil
			v, err := r.call(ipath, op, args, func(e *TraceEntry, _ Value) { e.Step = step })
			fresh := r.fresh
			r.owned, r.fresh = nil, nil
			if err != nil {
				return Value{}, err
			}
			state = v
			// The new state is the fold's own if a built-in made it and
			// the trace kept only its hash.
			var next *Grid
			if g, ok := v.Grid(); ok && g == fresh && op.builtin != nil && (r.ev.untraced || !inlined(v)) {
				next = g
			}
			if owned != nil && owned != next {
				owned.release()
			}
			owned = next
		}
	}
	if owned != nil {
		// The state is shared from here on, and no longer changed.
		owned.release()
	}
	if n.Fold != nil {
		return state, nil
	}
	if n.Map != nil {
		return List(f.kinds[n.ID].Elem(), out), nil
	}
	return List(itemsV.Kind().Elem(), out), nil
}

func (r *run) charge(path, op string, n int) error {
	if err := r.ctx.Err(); err != nil {
		return &EvalError{Path: path, Op: op, Err: err}
	}
	if r.calls+n > r.budget {
		r.calls = r.budget
		return &EvalError{Path: path, Op: op, Err: fmt.Errorf("%w: the limit is %d operation calls", ErrBudget, r.budget)}
	}
	r.calls += n
	return nil
}

func (r *run) record(path string, op *Operation, v Value, err error, annotate func(*TraceEntry, Value)) {
	if r.ev.untraced {
		return
	}
	// The entry is filled in place: annotate gets a pointer to it.
	r.trace = append(r.trace, TraceEntry{Path: path, Op: op.Name})
	e := &r.trace[len(r.trace)-1]
	if err != nil {
		e.Error = err.Error()
	} else {
		e.Kind = v.Kind()
		if !inlined(v) {
			e.Result = v.Hash()
		} else {
			r.buf.Reset()
			if err := v.encode(&r.buf); err != nil {
				panic(err) // values built by this package always encode
			}
			e.Result = HashBytes(r.buf.Bytes())
			if r.buf.Len() <= inlineValueBytes {
				vv := v
				e.Value = &vv
			}
		}
		if annotate != nil {
			annotate(e, v)
		}
	}
}

// inlined reports whether a trace entry may hold the value itself: not a
// grid too large to be shown (other values are shown when their encoding
// is at most inlineValueBytes).
func inlined(v Value) bool {
	g, ok := v.Grid()
	return !ok || g.Rows*g.Cols*2 <= inlineValueBytes
}

// call runs one operation, charging the budget and recording the trace.
func (r *run) call(path string, op *Operation, args map[string]Value, annotate func(*TraceEntry, Value)) (Value, error) {
	if err := r.charge(path, op.Name, 1); err != nil {
		return Value{}, err
	}
	var v Value
	var err error
	switch {
	case op.builtin != nil:
		v, err = op.builtin(r.self(), args)
	case op.function != nil:
		fn := op.function
		sub := &frame{path: path, env: args, nodes: fn.nodes, kinds: fn.kinds, values: make(map[string]Value, len(fn.nodes))}
		v, err = r.ref(sub, fn.Output)
	case op.program != nil:
		in, _ := args["item"].JSON()
		var outs []Value
		outs, err = r.self().runPrograms(op.program, []json.RawMessage{in})
		if err == nil {
			v = outs[0]
		}
	}
	r.record(path, op, v, err, annotate)
	if err != nil {
		var ee *EvalError
		if errors.As(err, &ee) {
			return Value{}, err
		}
		return Value{}, &EvalError{Path: path, Op: op.Name, Err: err}
	}
	return v, nil
}

// mapProgram maps a registered program over items in one sandbox batch.
func (r *run) mapProgram(path string, op *Operation, items []Value) (Value, error) {
	if err := r.charge(path, op.Name, len(items)); err != nil {
		return Value{}, err
	}
	ins := make([]json.RawMessage, len(items))
	for i, it := range items {
		ins[i], _ = it.JSON()
	}
	outs, err := r.self().runPrograms(op.program, ins)
	if err != nil {
		r.record(path, op, Value{}, err, nil)
		return Value{}, &EvalError{Path: path, Op: op.Name, Err: err}
	}
	for i, v := range outs {
		r.record(path+"/item_"+strconv.Itoa(i), op, v, nil, nil)
	}
	return List(KindJSON, outs), nil
}

func (c *call) runPrograms(prog *Program, inputs []json.RawMessage) ([]Value, error) {
	runner := c.r.ev.Runner
	if runner == nil {
		return nil, errors.New("no program runner is configured: programs run only in a sandbox")
	}
	outs, err := runner.Apply(c.r.ctx, prog, inputs)
	if err != nil {
		return nil, fmt.Errorf("run program %s: %w", prog.Function, err)
	}
	if len(outs) != len(inputs) {
		return nil, fmt.Errorf("run program %s: %d outputs for %d inputs", prog.Function, len(outs), len(inputs))
	}
	vals := make([]Value, len(outs))
	for i, o := range outs {
		v, err := JSONValue(o)
		if err != nil {
			return nil, fmt.Errorf("run program %s: output %d: %w", prog.Function, i, err)
		}
		vals[i] = v
	}
	return vals, nil
}
