package synth

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// splitPrograms bounds a split test's session: the whole problem's
// search gets its share of it before the split.
const splitPrograms = 3_000_000

// splitCase is a hidden function whose outputs a split solves.
type splitCase struct {
	name string
	task task.Task
	gen  func(r *rand.Rand) any
	f    func(in any) any
	n    int
	// op is the operator the program found must join the parts with.
	op string
	// noLiteral are texts the emitted program must not write as literals.
	noLiteral []string
}

func randWord(r *rand.Rand, lo, hi int) string {
	var sb strings.Builder
	for range lo + r.Intn(hi-lo+1) {
		sb.WriteByte(byte('a' + r.Intn(26)))
	}
	return sb.String()
}

// runSplitCases solves each case from n examples with the session's
// solver (plan), checks the join operator, keeps the emitted Python as a
// golden file and checks the program, in Go and in python3, on 40 fresh
// inputs.
func runSplitCases(t *testing.T, cases []splitCase) {
	t.Helper()
	py, _ := exec.LookPath("python3")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(7))
			mk := func(k int) ([]task.Example, []string) { return examplesOf(t, r, c.gen, c.f, k) }
			exs, _ := mk(c.n)
			p, err := newProblem(c.task, exs)
			if err != nil {
				t.Fatalf("problem: %v", err)
			}
			spec := testSpec()
			spec.maxPrograms = splitPrograms
			res := plan(p, spec, 0).solve(budgetOf(spec))
			if !res.solved {
				t.Fatalf("no consistent program; best %v passes %d of %d\n%s", res.best, res.passed, len(p.Outs), res.note)
			}
			if !strings.HasPrefix(res.best.Op.Name, c.op) {
				t.Errorf("found %v, want a program joined by %s", res.best, c.op)
			}
			prog := dsl.Program{Root: res.best, Binding: p.B.Line, BindingHelper: p.B.Helper, Vars: p.B.Names, Round: p.Round, Nullable: p.Nullable}
			src := prog.Python("solve", "")
			checkGolden(t, filepath.Join("testdata", "split", c.name+".py"), src)
			for _, lit := range c.noLiteral {
				if strings.Contains(src, fmt.Sprintf("%q", lit)) {
					t.Errorf("the program writes %q as a literal:\n%s", lit, src)
				}
			}
			probe, ins := mk(40)
			for i, ex := range probe {
				v, _ := task.Decode(ex.Input)
				env, err := p.B.Env(v)
				if err != nil {
					t.Fatal(err)
				}
				got := dsl.ToJSON(p.Rounded(dsl.EvalNode(res.best, env)))
				switch {
				case p.Object:
					got = objectJSON(t, got)
				case p.Keys != nil:
					got = recordJSON(t, p.Keys, got)
				}
				if !task.Equal(got, ex.Output, 1e-9) {
					t.Errorf("go: solve(%s) = %s, want %s (program %v)", ins[i], got, ex.Output, res.best)
				}
			}
			checkPython(t, py, src, ins, probe)
		})
	}
}

// Outputs that are lists of one length are split into their components,
// each searched on its own, and joined into one list: a string and a
// count, two lists, counts beside a rounded mean, a component that is
// null where the input is empty.
func TestComponentSplit(t *testing.T) {
	list := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	}
	text := task.Task{Name: "word_facts", Kind: task.KindString, InputType: "a word", FunctionName: "solve"}
	draw := func(lo, hi, minLen, maxLen int) func(r *rand.Rand) any {
		return func(r *rand.Rand) any { return randInts(r, lo, hi, minLen, maxLen) }
	}
	cases := []splitCase{
		{name: "upper_and_length", task: text, n: 6, op: "tuple",
			gen: func(r *rand.Rand) any { return randWord(r, 0, 9) },
			f:   func(in any) any { s := in.(string); return []any{strings.ToUpper(s), len(s)} }},
		{name: "positives_and_others", task: list("positives_and_others"), n: 8, op: "tuple",
			gen: draw(-9, 9, 0, 7),
			f: func(in any) any {
				pos, rest := []int64{}, []int64{}
				for _, x := range ints(in) {
					if x > 0 {
						pos = append(pos, x)
					} else {
						rest = append(rest, x)
					}
				}
				return []any{pos, rest}
			}},
		{name: "length_and_half_sum", task: list("length_and_half_sum"), n: 8, op: "tuple",
			gen: draw(-20, 20, 0, 8),
			f: func(in any) any {
				xs := ints(in)
				var s int64
				for _, x := range xs {
					s += x
				}
				return []any{len(xs), float64(s) / 2}
			}},
		{name: "length_and_largest_or_none", task: list("length_and_largest_or_none"), n: 8, op: "tuple",
			gen: draw(-20, 20, 0, 6),
			f: func(in any) any {
				xs := ints(in)
				if len(xs) == 0 {
					return []any{0, nil}
				}
				m := xs[0]
				for _, x := range xs {
					m = max(m, x)
				}
				return []any{len(xs), m}
			}},
	}
	runSplitCases(t, cases)
}

// objectJSON is the object dict(zip(keys, values)) makes of the pair
// [keys, values] an object problem's program evaluates to in Go.
func objectJSON(t *testing.T, pair json.RawMessage) json.RawMessage {
	t.Helper()
	var kv [2][]json.RawMessage
	if err := json.Unmarshal(pair, &kv); err != nil {
		t.Fatalf("an object's program evaluates to %s, not a pair of lists: %v", pair, err)
	}
	m := map[string]json.RawMessage{}
	for i, k := range kv[0] {
		var key string
		if err := json.Unmarshal(k, &key); err != nil || i >= len(kv[1]) {
			t.Fatalf("an object's program evaluates to %s: key %s", pair, k)
		}
		m[key] = kv[1][i]
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// recordJSON is the object {key: value} a record problem's program,
// whose values evaluate to a list in Go, is written as.
func recordJSON(t *testing.T, keys []string, row json.RawMessage) json.RawMessage {
	t.Helper()
	var vals []json.RawMessage
	if err := json.Unmarshal(row, &vals); err != nil || len(vals) != len(keys) {
		t.Fatalf("a record's program evaluates to %s, not %d values: %v", row, len(keys), err)
	}
	m := map[string]json.RawMessage{}
	for i, k := range keys {
		m[k] = vals[i]
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Outputs that are JSON objects are split into their keys, in sorted
// order, and their values, and joined as dict(zip(keys, values)): how
// often each word or letter occurs. Records, objects with the same keys
// every time, are split into one component per key and written as an
// object: two numbers, a count beside a list, a text beside a count.
func TestObjectSplit(t *testing.T) {
	text := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindString, InputType: "a sentence", FunctionName: "solve"}
	}
	sentence := func(r *rand.Rand) any {
		words := []string{"the", "cat", "The", "sat", "on", "a", "mat", "cat."}
		var ws []string
		for range r.Intn(7) {
			ws = append(ws, words[r.Intn(len(words))])
		}
		return strings.Join(ws, " ")
	}
	cases := []splitCase{
		{name: "word_counts", task: text("word_counts"), n: 8, op: "tuple", gen: sentence,
			f: func(in any) any {
				counts := map[string]any{}
				for _, w := range strings.FieldsFunc(strings.ToLower(in.(string)), func(c rune) bool { return c < 'a' || c > 'z' }) {
					n, _ := counts[w].(int)
					counts[w] = n + 1
				}
				return counts
			}},
		{name: "letter_counts", task: text("letter_counts"), n: 8, op: "tuple",
			gen: func(r *rand.Rand) any { return randWord(r, 0, 8) },
			f: func(in any) any {
				counts := map[string]any{}
				for _, c := range in.(string) {
					n, _ := counts[string(c)].(int)
					counts[string(c)] = n + 1
				}
				return counts
			}},
		{name: "low_and_high", task: task.Task{Name: "low_and_high", Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"},
			n: 8, op: "tuple",
			gen: func(r *rand.Rand) any { return randInts(r, -20, 20, 1, 6) },
			f: func(in any) any {
				xs := ints(in)
				return map[string]any{"low": slices.Min(xs), "high": slices.Max(xs)}
			}},
		{name: "count_and_evens", task: task.Task{Name: "count_and_evens", Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"},
			n: 8, op: "tuple",
			gen: func(r *rand.Rand) any { return randInts(r, -9, 9, 0, 6) },
			f: func(in any) any {
				evens := []int64{}
				for _, x := range ints(in) {
					if x%2 == 0 {
						evens = append(evens, x)
					}
				}
				return map[string]any{"count": len(ints(in)), "evens": evens}
			}},
		{name: "shout_and_size", task: text("shout_and_size"), n: 8, op: "tuple",
			gen: func(r *rand.Rand) any { return randWord(r, 0, 9) },
			f: func(in any) any {
				s := in.(string)
				return map[string]any{"shout": strings.ToUpper(s) + "!", "size": len(s)}
			}},
	}
	runSplitCases(t, cases)
}

// A string output of fixed text and values is split into its holes: an
// integer, zero-padded fields, a number with two decimals, a word, and
// outputs of two kinds chosen by a condition.
func TestTemplateSplit(t *testing.T) {
	intTask := func(name string, lo, hi int) (task.Task, func(r *rand.Rand) any) {
		return task.Task{Name: name, Kind: task.KindInt, InputType: "an integer", FunctionName: "solve"},
			func(r *rand.Rand) any { return lo + r.Intn(hi-lo+1) }
	}
	list := func(name string) task.Task {
		return task.Task{Name: name, Kind: task.KindList, InputType: "list of integers", FunctionName: "solve"}
	}
	pair := task.Task{Name: "ratio_category", Kind: task.KindPair, InputType: "pair of integers", FunctionName: "solve"}
	squareT, squareG := intTask("square_sentence", -30, 30)
	clockT, clockG := intTask("minutes_seconds", 0, 3599)
	cases := []splitCase{
		{name: "square_sentence", task: squareT, gen: squareG, n: 4, op: "template",
			f: func(in any) any { n := num(in); return fmt.Sprintf("%d squared is %d", n, n*n) }},
		{name: "minutes_seconds", task: clockT, gen: clockG, n: 6, op: "template",
			f: func(in any) any { n := num(in); return fmt.Sprintf("%02d:%02d", n/60, n%60) }},
		{name: "mean_two_decimals", task: list("mean_two_decimals"), n: 6, op: "template",
			gen: func(r *rand.Rand) any { return randInts(r, 0, 50, 1, 6) },
			f: func(in any) any {
				xs := ints(in)
				var s int64
				for _, x := range xs {
					s += x
				}
				return fmt.Sprintf("Mean: %.2f", float64(s)/float64(len(xs)))
			}},
		// The word names the range of the number shown, judged on its
		// unrounded value: intervals of the number hole's program
		// (TestKeyedSplit: without a search of its own).
		{name: "ratio_category", task: pair, n: 12, op: "template",
			gen: func(r *rand.Rand) any { return []any{1 + r.Intn(50), 1 + r.Intn(50)} },
			f: func(in any) any {
				xs := ints(in)
				ratio := float64(xs[0]) / float64(xs[1])
				word := "high"
				switch {
				case ratio < 0.5:
					word = "low"
				case ratio < 2:
					word = "even"
				}
				return fmt.Sprintf("Ratio %.2f: %s", ratio, word)
			}},
		{name: "first_or_empty", task: list("first_or_empty"), n: 14, op: "choose",
			gen: func(r *rand.Rand) any { return randInts(r, -9, 9, 0, 4) },
			f: func(in any) any {
				xs := ints(in)
				if len(xs) == 0 {
					return "nothing"
				}
				return fmt.Sprintf("first %d of %d", xs[0], len(xs))
			}},
		// The kind with one text is the other's first line: the program
		// says how "Count: 0" is made instead of writing it.
		{name: "count_then_extremes", task: list("count_then_extremes"), n: 14, op: "choose", noLiteral: []string{"Count: 0"},
			gen: func(r *rand.Rand) any { return randInts(r, -9, 9, 0, 4) },
			f: func(in any) any {
				xs := ints(in)
				if len(xs) == 0 {
					return "Count: 0"
				}
				return fmt.Sprintf("Count: %d\nMin: %d\nMax: %d", len(xs), slices.Min(xs), slices.Max(xs))
			}},
	}
	runSplitCases(t, cases)
}
