package synth

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/agent"
	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// The golden behaviour of the synthesizer: what it does that does not
// depend on the clock, written to testdata/golden/ and compared line by
// line. A change to any of these files is a change of behaviour: the
// catalogue (every operator's signature, settings, Go values on sample
// arguments and Python translation), the lambda banks, the order in which
// the enumerator and its sweeps produce programs, the programs found for
// fixed example sets, and the inputs proposed for fixed requests and
// seeds. Run with -update to rewrite them after an intended change.

// goldenDeadline bounds the searches of the golden test: far enough that no
// time budget cuts them, so that what they find does not depend on the
// machine's speed.
const goldenDeadline = 10 * time.Minute

func TestGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("enumerates and searches for several seconds")
	}
	sections := []struct {
		name  string
		write func(t *testing.T, w *strings.Builder)
	}{
		{"catalog", goldenCatalog},
		{"lambdas", goldenLambdas},
		{"enumerate", goldenEnumerate},
		{"search", goldenSearch},
		{"propose", goldenPropose},
	}
	for _, s := range sections {
		t.Run(s.name, func(t *testing.T) {
			var w strings.Builder
			s.write(t, &w)
			checkGolden(t, filepath.Join("testdata", "golden", s.name+".txt"), w.String())
		})
	}
}

// goldenOpSettings are the settings of an operator beside its signature,
// as they take effect: rare for the operators of lambda bodies (which go
// last within a size and are left out of anchored and keyed lambdas),
// comprehension for the operators over one list with a lambda (which the
// staged sweep tries one lambda size ahead of the others).
func goldenOpSettings(o *dsl.Operator) string {
	return fmt.Sprintf("fam=%s cost=%d lazy=%v sig=%d lamret=%s sig2=%d lamret2=%s rare=%v comprehension=%v",
		o.Fam, o.Cost, o.Lazy, o.Sig, o.LamRet, o.Sig2, o.LamRet2, o.Rare, o.Comprehension)
}

// goldenSamples are argument values of every type.
var goldenSamples = [dsl.NumTypes][]any{
	dsl.Int:       {int64(-7), int64(-1), int64(0), int64(1), int64(2), int64(3), int64(10), int64(97)},
	dsl.Float:     {-2.5, 0.0, 0.5, 1.0, 3.75, 100.25},
	dsl.Bool:      {true, false},
	dsl.Str:       {"", "a", "Hello World", "abba", "a1 b2", "aaBBc", "7"},
	dsl.ListInt:   {[]int64{}, []int64{3}, []int64{3, 1, 2}, []int64{5, 5, 1, 1, 2}, []int64{-3, 7, -3, 7, 0, 0, 9}, []int64{1, 2, 3, 4}},
	dsl.ListFloat: {[]float64{}, []float64{1.5}, []float64{2.5, -1, 0.5}},
	dsl.ListBool:  {[]bool{}, []bool{true, false, true}, []bool{true}},
	dsl.ListStr:   {[]string{}, []string{"a"}, []string{"hello", "World", "a1"}},
	dsl.ListPair:  {[]dsl.Pair{}, []dsl.Pair{{1, 2}}, []dsl.Pair{{3, 4}, {0, 0}, {-4, 3}, {1, 1}}, []dsl.Pair{{0, 0}, {2, 0}, {2, 2}, {0, 2}}},
}

// goldenLambda is the first lambda of the default banks of a signature
// and result type.
func goldenLambda(sig dsl.Sig, ret dsl.Type) *dsl.Lambda {
	if sig == dsl.SigGeo {
		return dsl.GeoLambdas(ret)[0]
	}
	b := defaultLambdas()
	for size := 1; size < len(b.By[sig][ret]); size++ {
		if ls := b.By[sig][ret][size]; len(ls) > 0 {
			return ls[0]
		}
	}
	return nil
}

// goldenEval applies an operator, recovering a panic.
func goldenEval(o *dsl.Operator, l *dsl.Lambda, args []any) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = "panic"
		}
	}()
	v := o.Eval(l, args)
	if dsl.IsErr(v) {
		return "err"
	}
	return string(dsl.ToJSON(v))
}

func goldenCatalog(t *testing.T, w *strings.Builder) {
	lists := []struct {
		name string
		ops  []*dsl.Operator
	}{{"top", dsl.Catalog.Top}, {"lambda bodies", dsl.Catalog.Scalars}, {"loops", dsl.Catalog.Loops}, {"conditionals", dsl.Catalog.Conds[:]}, {"holes", dsl.Catalog.Holes}}
	for _, l := range lists {
		fmt.Fprintf(w, "== %s operators (%d)\n", l.name, len(l.ops))
		for i, o := range l.ops {
			fmt.Fprintf(w, "%d %s %s\n", i, opSig(o), goldenOpSettings(o))
		}
	}
	helpers := map[string]string{}
	fmt.Fprintln(w, "== operators at work")
	for _, o := range dsl.Catalog.Top {
		var l *dsl.Lambda
		if o.Sig != dsl.SigNone {
			l = goldenLambda(o.Sig, o.LamRet)
			if o.Sig2 != dsl.SigNone {
				next := *goldenLambda(o.Sig2, o.LamRet2)
				first := *l
				first.Next = &next
				l = &first
			}
		}
		e := dsl.NewEmitter(nil)
		args := make([]dsl.Code, len(o.Args))
		for i := range args {
			args[i] = dsl.Atom(fmt.Sprintf("a%d", i))
		}
		py := o.Py(e, l, args)
		fmt.Fprintf(w, "%s", opSig(o))
		if l != nil {
			fmt.Fprintf(w, " with %s", l)
			if l.Next != nil {
				fmt.Fprintf(w, " then %s", l.Next)
			}
		}
		fmt.Fprintf(w, "\n  py %s [p%d] imports %v helpers %v\n", py.S, py.P, dsl.SortedKeys(e.Imports), dsl.SortedKeys(keysOf(e.Helpers)))
		for k, v := range e.Helpers {
			helpers[k] = v
		}
		for j := range 12 {
			args := make([]any, len(o.Args))
			parts := make([]string, len(o.Args))
			for k, a := range o.Args {
				s := goldenSamples[a]
				args[k] = s[(j*(k+1)+k)%len(s)]
				parts[k] = string(dsl.ToJSON(args[k]))
			}
			fmt.Fprintf(w, "  (%s) = %s\n", strings.Join(parts, ", "), goldenEval(o, l, args))
			if len(o.Args) == 0 {
				break
			}
		}
	}
	fmt.Fprintln(w, "== helpers")
	for _, k := range dsl.SortedKeys(keysOf(helpers)) {
		fmt.Fprintf(w, "-- %s\n%s\n", k, strings.TrimSpace(helpers[k]))
	}
	fmt.Fprintln(w, "== geometry functions")
	for _, g := range dsl.GeoFuncs {
		e := dsl.NewEmitter(nil)
		fmt.Fprintf(w, "%s -> %s py %s\n", g.Name, g.Ret, g.Py(e, dsl.Atom("p"), dsl.Atom("q")).S)
	}
}

func keysOf[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// bankSize is how many lambdas the banks hold.
func bankSize(b *dsl.Lambdas) int {
	n := 0
	for _, bySig := range b.By {
		for _, byRet := range bySig {
			for _, ls := range byRet {
				n += len(ls)
			}
		}
	}
	return n
}

// goldenBanks writes the banks: counts by size, a digest of every lambda
// in order, and the first few of each size.
func goldenBanks(w *strings.Builder, b *dsl.Lambdas) {
	fmt.Fprintf(w, "total %d\n", bankSize(b))
	for sig := dsl.Sig(0); sig < dsl.NumSigs; sig++ {
		for ret := dsl.Type(0); ret < dsl.NumTypes; ret++ {
			sizes := b.By[sig][ret]
			if len(sizes) == 0 {
				continue
			}
			h := fnv.New64a()
			var counts []string
			for _, ls := range sizes {
				counts = append(counts, fmt.Sprint(len(ls)))
				for _, l := range ls {
					fmt.Fprintln(h, l.String())
				}
			}
			fmt.Fprintf(w, "sig %d -> %s: by size %s digest %016x\n", sig, ret, strings.Join(counts, " "), h.Sum64())
			for size, ls := range sizes {
				for _, l := range ls[:min(len(ls), 4)] {
					fmt.Fprintf(w, "  %d %s\n", size, l)
				}
			}
		}
	}
}

func goldenLambdas(t *testing.T, w *strings.Builder) {
	fmt.Fprintln(w, "== default banks")
	goldenBanks(w, buildLambdasFully(lamSpecs(), nil))
	fmt.Fprintln(w, "== banks with the constants 97 and 1000")
	specs := lamSpecs()
	for sig := dsl.SigI; sig < dsl.SigGeo; sig++ {
		specs[sig].consts = withConsts(specs[sig].consts, []int64{97, 1000})
	}
	goldenBanks(w, buildLambdasFully(specs, []int64{97, 1000}))
}

// goldenProblems are the problems whose enumeration the golden records:
// one of each input and output type.
func goldenProblems() []familyCase {
	byName := map[string]familyCase{}
	for _, c := range append(append([]familyCase{}, familyCases...), searchCases...) {
		byName[c.name] = c
	}
	extra := []familyCase{
		{name: "two_lists_sum", kind: task.KindTwoLists, typ: "two lists of integers",
			inputs: []string{"[[1,2],[3,4]]", "[[0],[5]]", "[[],[]]", "[[-1,7,2],[4,4,4]]"},
			f: func(v any) any {
				ab := v.([]any)
				a, b := ints(ab[0]), ints(ab[1])
				out := []int64{}
				for i := range min(len(a), len(b)) {
					out = append(out, a[i]+b[i])
				}
				return out
			}},
		{name: "float_mean", kind: task.KindList, typ: "list of floats",
			inputs: []string{"[1.5, 2.5]", "[0.25]", "[-1.0, 3.0, 4.5]", "[2.0, 2.0, 2.0, 10.5]"},
			f: func(v any) any {
				s, n := 0.0, 0
				for _, e := range v.([]any) {
					f, _ := e.(json.Number).Float64()
					s, n = s+f, n+1
				}
				return s / float64(n)
			}},
		{name: "word_lengths", kind: task.KindOther, typ: "list of words",
			inputs: []string{`["a", "bb"]`, `["hello", "x", "yz"]`, `["abc"]`, `["Go", "is", "fun", "!"]`},
			f: func(v any) any {
				out := []int64{}
				for _, e := range v.([]any) {
					out = append(out, int64(len(e.(string))))
				}
				return out
			}},
	}
	var out []familyCase
	for _, name := range []string{"map", "conditional", "scalar", "string", "geometry", "pairs", "sum_even_squares", "count_on_diagonals"} {
		out = append(out, byName[name])
	}
	return append(out, extra...)
}

// goldenTrace records the first limit programs an enumeration produces,
// as Python, then stops it.
func goldenTrace(w *strings.Builder, en *enumerator, p *dsl.Problem, limit int) func() {
	n := 0
	e := dsl.NewEmitter(p.B.Names)
	en.onNew = func(t dsl.Type, x *dsl.Entry) bool {
		n++
		fmt.Fprintf(w, "  %d %s %d %s\n", n, t, x.N.Size, e.Node(x.N, e.Vars).S)
		return n >= limit
	}
	return func() { en.onNew, en.stopped = nil, false }
}

func goldenEnumerate(t *testing.T, w *strings.Builder) {
	for _, c := range goldenProblems() {
		p, err := newProblem(taskFor(c), examplesFor(t, c, c.inputs))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		fresh := func() *enumerator {
			return newEnumerator(enumConfig{
				envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top,
				lams: mustLambdas(p.Mined), deadline: time.Now().Add(time.Hour), memLimit: DefaultMemoryBytes,
			})
		}
		fmt.Fprintf(w, "== %s: %s -> %s, constants %v\n", c.name, strings.Join(p.B.Names, ", "), p.Out, topConsts(p))
		// Whole levels: how many programs each evaluates and keeps.
		en := fresh()
		for size := 2; size <= 4; size++ {
			en.grow(size, nil)
			var kept []string
			for t := dsl.Type(0); t < dsl.NumTypes; t++ {
				if en.perType[t] > 0 {
					kept = append(kept, fmt.Sprintf("%s:%d", t, en.perType[t]))
				}
			}
			fmt.Fprintf(w, "level %d: evaluated %d, kept %s\n", size, en.evaluated, strings.Join(kept, " "))
		}
		fmt.Fprintln(w, "first programs by level")
		en = fresh()
		done := goldenTrace(w, en, p, 250)
		en.grow(6, nil)
		done()
		fmt.Fprintln(w, "staged sweep after level 3")
		en = fresh()
		en.grow(3, nil)
		done = goldenTrace(w, en, p, 150)
		sweepStaged(en, 1, p.Ok)
		done()
		fmt.Fprintln(w, "sweep over derived arguments after level 3")
		done = goldenTrace(w, en, p, 100)
		en.sweepArgs(2, 1, 4, false)
		done()
	}
}

// goldenSearches are example sets whose search the golden records: the
// family cases and search cases whose search ends within seconds when no
// time budget cuts it (without the scalar and conditional families, whose
// complete loop sweep takes half a minute), loops, tables and null outputs.
func goldenSearches() []struct {
	c familyCase
	t task.Task
} {
	var out []struct {
		c familyCase
		t task.Task
	}
	add := func(c familyCase, t task.Task) {
		out = append(out, struct {
			c familyCase
			t task.Task
		}{c, t})
	}
	for _, c := range familyCases {
		if c.name != "scalar" && c.name != "conditional" {
			add(c, taskFor(c))
		}
	}
	for _, c := range searchCases {
		switch c.name {
		case "clamp_0_10", "sum_even_squares", "count_on_diagonals", "factorial_trailing_zeros":
			add(c, taskFor(c))
		}
	}
	fib := familyCase{name: "fib_mod", kind: task.KindInt, typ: "integer", inputs: []string{"13", "403"},
		f: func(v any) any { return pairRecurrence(num(v), 0, 1, 1000) }}
	add(fib, task.Task{Name: "fib_mod", Kind: task.KindInt, InputType: "integer", InputConstraints: "one integer between 0 and 1000", FunctionName: "solve"})
	tabled := []string{"[3, 1, 2]", "[-5]", "[4, -4]", "[7, -2, 7, 0]", "[]", "[1, -9, 9, -8]", "[-3, -8]", "[6, -6, 6, 2, 1]",
		"[10, 20, 30]", "[0]", "[9, -30, 5, 12]", "[2]", "[-4, 4, -8, 8]", "[-100, 50, 13]", "[5, 11, 7, 6]"}
	for _, c := range []familyCase{
		{name: "sum_sign_word", kind: task.KindList, typ: "list of integers", inputs: tabled, f: signWord},
		{name: "size_word", kind: task.KindList, typ: "list of integers", inputs: tabled, f: sizeWord},
		{name: "last_or_none", kind: task.KindList, typ: "list of integers",
			inputs: []string{"[3, 1, 2]", "[5]", "[]", "[7, -2, 7, 0]", "[]", "[9, 8]"},
			f: func(v any) any {
				if xs := ints(v); len(xs) > 0 {
					return xs[len(xs)-1]
				}
				return nil
			}},
	} {
		add(c, taskFor(c))
	}
	for _, c := range goldenProblems()[len(goldenProblems())-3:] {
		add(c, taskFor(c))
	}
	return out
}

func goldenSearch(t *testing.T, w *strings.Builder) {
	for _, s := range goldenSearches() {
		p, err := newProblem(s.t, examplesFor(t, s.c, s.c.inputs))
		if err != nil {
			t.Fatalf("%s: %v", s.c.name, err)
		}
		res := search(p, searchSpec{shared: testShared, deadline: time.Now().Add(goldenDeadline), memLimit: DefaultMemoryBytes, maxSize: defaultMaxSize})
		fmt.Fprintf(w, "== %s: solved %v, passes %d of %d, labels %v\n", s.c.name, res.solved, res.passed, len(p.Outs), p.Labels)
		if res.best == nil {
			continue
		}
		fmt.Fprintf(w, "%s\n", res.best)
		fmt.Fprint(w, dsl.Program{Root: res.best, Binding: p.B.Line, Vars: p.B.Names, Round: p.Round, Nullable: p.Nullable}.Python("solve", ""))
	}
	// Relaxed labels: two examples naming two categories.
	p, err := newProblem(task.Task{Name: "heading", Kind: task.KindList, InputType: "list of integers"}, []task.Example{
		{Input: json.RawMessage("[3, -1, 4]"), Output: json.RawMessage(`"north"`)},
		{Input: json.RawMessage("[-2, -7]"), Output: json.RawMessage(`"south"`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, "== heading: relaxed labels %v", p.RelaxLabels())
	res := search(p, searchSpec{shared: testShared, deadline: time.Now().Add(goldenDeadline), memLimit: DefaultMemoryBytes, maxSize: defaultMaxSize})
	fmt.Fprintf(w, ", solved %v: %s\n", res.solved, res.best)
	// A collecting search keeps the programs still consistent, distinct on
	// the extra inputs, up to one size beyond the first (sorted, of size
	// 2: the search ends before the sweeps).
	c := familyCase{name: "sorted", kind: task.KindList, typ: "list of integers", f: func(v any) any {
		xs := ints(v)
		slices.Sort(xs)
		return append([]int64{}, xs...)
	}}
	p, err = newProblem(taskFor(c), examplesFor(t, c, []string{"[3,1,2]", "[5,-4]"}))
	if err != nil {
		t.Fatal(err)
	}
	var extra [][]any
	for _, in := range []string{"[]", "[2,2]", "[-9,4,1]", "[7]", "[3,-3,0,11]"} {
		v, _ := task.Decode(json.RawMessage(in))
		env, err := p.B.Env(v)
		if err != nil {
			t.Fatal(err)
		}
		extra = append(extra, env)
	}
	res = search(p, searchSpec{shared: testShared, deadline: time.Now().Add(goldenDeadline), memLimit: DefaultMemoryBytes, maxSize: defaultMaxSize, extra: extra, collect: true, beyond: 1})
	fmt.Fprintf(w, "== survivors of sorted on two examples: %d\n", len(res.survivors))
	for _, e := range res.survivors {
		fmt.Fprintf(w, "  %s\n", e.N)
	}
}

// goldenProposal is a Propose request; rejections, when given, play an
// oracle refusing the first input of each attempt with that message.
type goldenProposal struct {
	name   string
	tk     task.Task
	dom    *task.Domain
	k      int
	inputs []string
	f      func(v any) any
	// missing are categories the batch should cover.
	missing []string
	// reject is the rejection message of attempts 1 and 2 ("" accepts).
	reject string
}

func goldenProposals() []goldenProposal {
	listTask := task.Task{Name: "t", InputType: "list of integers", InputConstraints: "0 to 9 integers", FunctionName: "solve", Kind: task.KindList, Domain: &task.Domain{Lo: -5, Hi: 5}}
	sorted := func(v any) any {
		xs := ints(v)
		sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
		if xs == nil {
			xs = []int64{}
		}
		return xs
	}
	zero := func(any) any { return 0 }
	pairTask := task.Task{Name: "divide", Kind: task.KindPair, FunctionName: "solve", InputType: "pair of integers [a, b]",
		InputConstraints: "two integers between -100 and 100; b is not 0", Domain: &task.Domain{Lo: -100, Hi: 100}}
	return []goldenProposal{
		{name: "list, no evidence", tk: listTask, k: 6},
		{name: "list, missing categories", tk: listTask, k: 4, inputs: []string{"[1,2,3]", "[4,-5]"}, f: sorted, missing: []string{"empty", "has_zero", "all_equal"}},
		{name: "list, sorted or sorted set", tk: task.Task{Name: "t", InputType: "list of integers", FunctionName: "solve", Kind: task.KindList, Domain: &task.Domain{Lo: -9, Hi: 9}},
			k: 4, inputs: []string{"[3,1,2]", "[5,-4]"}, f: sorted},
		{name: "list, rejected", tk: task.Task{Name: "digits", Kind: task.KindList, FunctionName: "solve", InputType: "list of integers", InputConstraints: "0 to 6 integers", Domain: &task.Domain{Lo: -50, Hi: 50}},
			k: 8, inputs: []string{"[1, 2]", "[9, 0, 3]"}, f: zero, reject: "values must be between 0 and 9"},
		{name: "int", tk: task.Task{Name: "n", Kind: task.KindInt, InputType: "integer", FunctionName: "solve"}, k: 6},
		{name: "pair with an exclusion", tk: pairTask, k: 10},
		{name: "pair with an exclusion and examples", tk: pairTask, k: 10, inputs: []string{"[7, 2]", "[-9, 4]", "[0, 5]"}, f: zero},
		{name: "string", tk: task.Task{Name: "s", Kind: task.KindString, InputType: "string", InputConstraints: "0 to 12 lowercase letters", FunctionName: "solve"}, k: 8},
		{name: "string, any characters", tk: task.Task{Name: "s", Kind: task.KindString, InputType: "string", FunctionName: "solve"}, k: 8},
		{name: "string of units", k: 5, tk: task.Task{Name: "units", Kind: task.KindString, FunctionName: "solve", InputType: "string",
			InputConstraints: "at most 8 characters: pairs of an uppercase letter and a digit 1 to 3"}},
		{name: "points", tk: task.Task{Name: "p", Kind: task.KindPoints, InputType: "list of integer points", InputConstraints: "2 to 6 points", FunctionName: "solve", Domain: &task.Domain{Lo: -10, Hi: 10}}, k: 5},
		{name: "two lists", tk: task.Task{Name: "z", Kind: task.KindTwoLists, InputType: "two lists of integers", FunctionName: "solve"}, k: 5},
		{name: "object template", tk: limitsTask, k: 6},
		{name: "object template and mutations", tk: limitsTask, k: 12, f: zero,
			inputs: []string{`{"limit": 3, "items": [1, 2]}`, `{"limit": 0, "items": []}`, `{"limit": 9, "items": [9, 9, 0, 4, 5]}`}},
		{name: "object template, rejected", tk: limitsTask, k: 10, reject: "limit must be between 2 and 4"},
		{name: "mutations only", k: 8, f: zero, tk: task.Task{Name: "opaque", Kind: task.KindOther, FunctionName: "solve", InputType: "object"},
			inputs: []string{`{"limit": 1, "items": [1, 2]}`, `{"limit": 6, "items": [3]}`, `{"limit": 2, "items": [0, 4, 5, 7]}`}},
		{name: "mutations, rejected", k: 6, f: zero, tk: task.Task{Name: "opaque", Kind: task.KindOther, FunctionName: "solve", InputType: "object"},
			inputs: []string{`{"n": 3, "xs": [[1, 2], [3, 4]]}`, `{"n": 1, "xs": []}`}, reject: "pairs must differ"},
		{name: "tagged events", k: 8, tk: task.Task{Name: "ev", Kind: task.KindOther, FunctionName: "solve",
			InputType: `events: list of ["put", value], ["pick", "X"|"Y"] or ["reset"]`, InputConstraints: "0 to 5 events; put values between 2 and 8"}},
		{name: "postfix", k: 6, tk: task.Task{Name: "rpn", Kind: task.KindOther, FunctionName: "solve",
			InputType: `formula in reverse Polish notation: list of tokens, digits "1".."3" and operators "+", "*"`, InputConstraints: "a well-formed formula of 1 to 7 tokens"}},
		{name: "words", k: 6, f: zero, tk: task.Task{Name: "w", Kind: task.KindOther, FunctionName: "solve", InputType: "list of words"},
			inputs: []string{`["a", "bb"]`, `["hello", "x", "yz"]`}},
	}
}

func goldenPropose(t *testing.T, w *strings.Builder) {
	for _, gp := range goldenProposals() {
		a := New(Options{Shared: testShared, Seed: 5, MaxPrograms: testPrograms})
		var exs []task.Example
		if len(gp.inputs) > 0 {
			exs = examplesFor(t, familyCase{f: gp.f}, gp.inputs)
		}
		fmt.Fprintf(w, "== %s\n", gp.name)
		req := agent.ProposeRequest{Task: gp.tk, K: gp.k, Examples: exs, Missing: gp.missing, Domain: gp.dom, Attempt: 1}
		for ; req.Attempt <= 3; req.Attempt++ {
			res, err := a.Propose(context.Background(), req)
			if err != nil {
				fmt.Fprintf(w, "attempt %d: error %v\n", req.Attempt, err)
				break
			}
			var ins []string
			for _, in := range res.Inputs {
				ins = append(ins, string(in))
			}
			fmt.Fprintf(w, "attempt %d: %s%s\n", req.Attempt, strings.Join(ins, " "), allLeftMark(res))
			if gp.reject == "" || req.Attempt == 3 || len(res.Inputs) == 0 {
				break
			}
			req.Rejection = fmt.Sprintf("oracle-rejected: the hidden program rejected input 1 (%s): error: ValueError: %s",
				task.MustCanonical(res.Inputs[0]), gp.reject)
		}
		// A later batch keeps what the rejections taught.
		if gp.reject != "" {
			res, err := a.Propose(context.Background(), agent.ProposeRequest{Task: gp.tk, K: gp.k, Examples: exs, Attempt: 1})
			if err != nil {
				fmt.Fprintf(w, "later: error %v\n", err)
				continue
			}
			var ins []string
			for _, in := range res.Inputs {
				ins = append(ins, string(in))
			}
			fmt.Fprintf(w, "later: %s%s\n", strings.Join(ins, " "), allLeftMark(res))
		}
	}
}

// allLeftMark marks a proposal of fewer inputs than asked, every fresh one
// the synthesizer found.
func allLeftMark(res agent.ProposeResult) string {
	if res.AllLeft {
		return " (all left)"
	}
	return ""
}
