package synth

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/task"
)

func TestInputTemplate(t *testing.T) {
	tests := []struct {
		name        string
		kind        task.Kind
		typ, constr string
		dom         *task.Domain
		want        string
	}{
		{name: "object with keyed ranges", kind: task.KindOther,
			typ:    `object {"origin": [x, y], "size": s, "marks": [[x, y], ...]}`,
			constr: "integer coordinates between -5 and 5; size between 0 and 3; 0 to 4 marks", dom: &task.Domain{Lo: -5, Hi: 5},
			want: "{origin: (int[-5,5], int[-5,5]), size: int[0,3], marks: list[0,4]((int[-5,5], int[-5,5]))}"},
		{name: "nested fixed tuples", kind: task.KindOther,
			typ: "two boxes [[[x1, y1], [x2, y2]], [[x3, y3], [x4, y4]]] given by corners", constr: "coordinates between 0 and 9",
			want: "(((int[0,9], int[0,9]), (int[0,9], int[0,9])), ((int[0,9], int[0,9]), (int[0,9], int[0,9])))"},
		{name: "list of tagged alternatives", kind: task.KindOther,
			typ: `moves: list of ["left", steps] or ["right", steps]`, constr: "0 to 7 moves; steps between 1 and 4",
			want: `list[0,7](("left", int[1,4])|("right", int[1,4]))`},
		{name: "comma alternatives and bar literals", kind: task.KindOther,
			typ:    `events: list of ["put", value], ["pick", "X"|"Y"] or ["reset"]`,
			constr: "0 to 5 events; put values between 2 and 8",
			want:   `list[0,5](("put", int[2,8])|("pick", "X"|"Y")|("reset"))`},
		{name: "or inside a tuple and enumerated words", kind: task.KindOther,
			typ:    `orders: list of ["buy" or "sell", fruit, amount]`,
			constr: "1 to 3 orders; fruits plum, lime or date; amounts between 1 and 5",
			want:   `list[1,3](("buy"|"sell", str{plum,lime,date}, int[1,5]))`},
		{name: "ordered by a named field", kind: task.KindOther,
			typ:    "jobs: list of [start time, length], starts in non-decreasing order",
			constr: "0 to 6 jobs; start times between 0 and 30, lengths between 1 and 3",
			want:   "list[0,6]((int[0,30], int[1,3])) sorted@0"},
		{name: "postfix tokens", kind: task.KindOther,
			typ:    `formula in postfix notation: list of tokens, digits "1".."3" and operators "+", "*"`,
			constr: "a well-formed formula of 1 to 7 tokens",
			want:   `postfix[1,7]("1"|"2"|"3"; "+"|"*")`},
		{name: "text placeholder with a length", kind: task.KindOther,
			typ:    `edits: list of ["write", text] or ["erase", count]`,
			constr: "0 to 4 edits; written text of 2 to 3 lowercase letters; counts between 1 and 2",
			want:   `list[0,4](("write", str[2,3])|("erase", int[1,2]))`},
		{name: "list of numbers with a generic range", kind: task.KindOther,
			typ: "list of integers", constr: "0 to 12 integers, each between -50 and 50",
			want: "list[0,12](int[-50,50])"},
		{name: "domain bounds unnamed numbers", kind: task.KindOther,
			typ: `object {"start": floor, "stops": [floor, ...]}`, constr: "0 to 3 stops", dom: &task.Domain{Lo: 0, Hi: 7},
			want: "{start: int[0,7], stops: list[0,3](int[0,7])}"},
		{name: "string of units", kind: task.KindString,
			typ: "string", constr: "at most 6 characters: pairs of a lowercase letter and a digit 2 to 4",
			want: "units[0,6](abcdefghijklmnopqrstuvwxyz 234)"},
		{name: "excluded value", kind: task.KindPair,
			typ: "pair of integers [a, b]", constr: "two integers between -100 and 100; b is not 0",
			want: "(int[-100,100], int[-100,100]!0)"},
		{name: "plain string", kind: task.KindString, typ: "string", constr: "0 to 9 lowercase letters", want: "<nil>"},
		{name: "no structure", kind: task.KindOther, typ: "object", want: "<nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tp := inputTemplate(task.Task{Kind: tt.kind, InputType: tt.typ, InputConstraints: tt.constr, Domain: tt.dom})
			got := "<nil>"
			if tp != nil {
				got = tp.String()
			}
			if got != tt.want {
				t.Errorf("template\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func intValue(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

func intWithin(v any, lo, hi int64) error {
	i, ok := intValue(v)
	if !ok || i < lo || i > hi {
		return fmt.Errorf("%v is not an integer in [%d, %d]", v, lo, hi)
	}
	return nil
}

func listIn(v any, lo, hi int) ([]any, error) {
	xs, ok := v.([]any)
	if !ok || len(xs) < lo || len(xs) > hi {
		return nil, fmt.Errorf("%v is not a list of %d to %d elements", v, lo, hi)
	}
	return xs, nil
}

// drawCases describe inputs by their own validity rules, written
// independently of the template code.
var drawCases = []struct {
	name        string
	kind        task.Kind
	typ, constr string
	dom         *task.Domain
	valid       func(v any) error
}{
	{name: "object", kind: task.KindOther,
		typ: `object {"origin": [x, y], "size": s, "marks": [[x, y], ...]}`, constr: "size between 0 and 3; 0 to 4 marks",
		dom: &task.Domain{Lo: -5, Hi: 5},
		valid: func(v any) error {
			m, ok := v.(map[string]any)
			if !ok || len(m) != 3 {
				return fmt.Errorf("not an object with three keys")
			}
			o, err := listIn(m["origin"], 2, 2)
			if err != nil {
				return err
			}
			for _, c := range o {
				if err := intWithin(c, -5, 5); err != nil {
					return err
				}
			}
			if err := intWithin(m["size"], 0, 3); err != nil {
				return err
			}
			marks, err := listIn(m["marks"], 0, 4)
			if err != nil {
				return err
			}
			for _, p := range marks {
				xy, err := listIn(p, 2, 2)
				if err != nil {
					return err
				}
				for _, c := range xy {
					if err := intWithin(c, -5, 5); err != nil {
						return err
					}
				}
			}
			return nil
		}},
	{name: "tagged alternatives", kind: task.KindOther,
		typ: `events: list of ["put", value], ["pick", "X"|"Y"] or ["reset"]`, constr: "0 to 5 events; put values between 2 and 8",
		valid: func(v any) error {
			xs, err := listIn(v, 0, 5)
			if err != nil {
				return err
			}
			for _, e := range xs {
				ev, err := listIn(e, 1, 2)
				if err != nil {
					return err
				}
				switch {
				case ev[0] == "put" && len(ev) == 2:
					if err := intWithin(ev[1], 2, 8); err != nil {
						return err
					}
				case ev[0] == "pick" && len(ev) == 2 && (ev[1] == "X" || ev[1] == "Y"):
				case ev[0] == "reset" && len(ev) == 1:
				default:
					return fmt.Errorf("bad event %v", ev)
				}
			}
			return nil
		}},
	{name: "enumerated words", kind: task.KindOther,
		typ: `orders: list of ["buy" or "sell", fruit, amount]`, constr: "1 to 3 orders; fruits plum, lime or date; amounts between 1 and 5",
		valid: func(v any) error {
			xs, err := listIn(v, 1, 3)
			if err != nil {
				return err
			}
			for _, e := range xs {
				o, err := listIn(e, 3, 3)
				if err != nil {
					return err
				}
				if (o[0] != "buy" && o[0] != "sell") || !slices.Contains([]any{"plum", "lime", "date"}, o[1]) {
					return fmt.Errorf("bad order %v", o)
				}
				if err := intWithin(o[2], 1, 5); err != nil {
					return err
				}
			}
			return nil
		}},
	{name: "ordered field", kind: task.KindOther,
		typ:    "jobs: list of [start time, length], starts in non-decreasing order",
		constr: "0 to 6 jobs; start times between 0 and 30, lengths between 1 and 3", dom: &task.Domain{Lo: 0, Hi: 30},
		valid: func(v any) error {
			xs, err := listIn(v, 0, 6)
			if err != nil {
				return err
			}
			prev := int64(-1)
			for _, e := range xs {
				j, err := listIn(e, 2, 2)
				if err != nil {
					return err
				}
				if err := intWithin(j[0], 0, 30); err != nil {
					return err
				}
				if err := intWithin(j[1], 1, 3); err != nil {
					return err
				}
				s, _ := intValue(j[0])
				if s < prev {
					return fmt.Errorf("starts out of order in %v", xs)
				}
				prev = s
			}
			return nil
		}},
	{name: "postfix", kind: task.KindOther,
		typ:    `formula in reverse Polish notation: list of tokens, digits "1".."3" and operators "+", "*"`,
		constr: "a well-formed formula of 1 to 7 tokens",
		valid: func(v any) error {
			xs, err := listIn(v, 1, 7)
			if err != nil {
				return err
			}
			depth := 0
			for _, tok := range xs {
				switch tok {
				case "1", "2", "3":
					depth++
				case "+", "*":
					if depth < 2 {
						return fmt.Errorf("operator without operands in %v", xs)
					}
					depth--
				default:
					return fmt.Errorf("unknown token %v", tok)
				}
			}
			if depth != 1 {
				return fmt.Errorf("%v leaves %d values", xs, depth)
			}
			return nil
		}},
	{name: "units", kind: task.KindString, typ: "string", constr: "at most 6 characters: pairs of a lowercase letter and a digit 2 to 4",
		valid: func(v any) error {
			s, ok := v.(string)
			if !ok || len(s) > 6 || len(s)%2 != 0 {
				return fmt.Errorf("%v is not an even string of at most 6 characters", v)
			}
			for i := 0; i < len(s); i += 2 {
				if s[i] < 'a' || s[i] > 'z' || s[i+1] < '2' || s[i+1] > '4' {
					return fmt.Errorf("bad unit %q", s[i:i+2])
				}
			}
			return nil
		}},
	{name: "text placeholder", kind: task.KindOther,
		typ:    `edits: list of ["write", text] or ["erase", count]`,
		constr: "0 to 4 edits; written text of 2 to 3 lowercase letters; counts between 1 and 2",
		valid: func(v any) error {
			xs, err := listIn(v, 0, 4)
			if err != nil {
				return err
			}
			for _, e := range xs {
				ed, err := listIn(e, 2, 2)
				if err != nil {
					return err
				}
				switch ed[0] {
				case "write":
					s, ok := ed[1].(string)
					if !ok || len(s) < 2 || len(s) > 3 || strings.ToLower(s) != s {
						return fmt.Errorf("bad text %v", ed[1])
					}
				case "erase":
					if err := intWithin(ed[1], 1, 2); err != nil {
						return err
					}
				default:
					return fmt.Errorf("bad edit %v", ed)
				}
			}
			return nil
		}},
}

// TestTemplateDraws checks that drawn inputs obey the description, vary,
// and repeat for a seed.
func TestTemplateDraws(t *testing.T) {
	for _, tt := range drawCases {
		t.Run(tt.name, func(t *testing.T) {
			tp := inputTemplate(task.Task{Kind: tt.kind, InputType: tt.typ, InputConstraints: tt.constr, Domain: tt.dom})
			if tp == nil {
				t.Fatal("no template")
			}
			draw := func(seed int64) []string {
				g := &tgen{rng: rand.New(rand.NewSource(seed))}
				var out []string
				for range 300 {
					out = append(out, string(encode(g.draw(tp))))
				}
				return out
			}
			got := draw(7)
			distinct := map[string]bool{}
			for _, raw := range got {
				distinct[raw] = true
				v, _ := decodeRaw(json.RawMessage(raw))
				if err := tt.valid(v); err != nil {
					t.Fatalf("invalid draw %s: %v", raw, err)
				}
			}
			if len(distinct) < 40 {
				t.Errorf("only %d distinct inputs in 300 draws", len(distinct))
			}
			if diff := cmp.Diff(got, draw(7)); diff != "" {
				t.Errorf("draws differ for the same seed (-first +second):\n%s", diff)
			}
		})
	}
}

func decodeAll(t *testing.T, raws ...string) []any {
	t.Helper()
	var out []any
	for _, r := range raws {
		v, ok := decodeRaw(json.RawMessage(r))
		if !ok {
			t.Fatalf("bad JSON %s", r)
		}
		out = append(out, v)
	}
	return out
}

// TestMutants checks that mutations keep the structure of the observed
// inputs: keys, tuple shapes and tags, the ranges and lengths seen, orders
// and token streams.
func TestMutants(t *testing.T) {
	tests := []struct {
		name  string
		obs   []string
		valid func(v any) error
	}{
		{name: "object keys and observed ranges",
			obs: []string{`{"cap": 2, "keys": [1, 3, 3]}`, `{"cap": 4, "keys": [0, 5]}`, `{"cap": 3, "keys": []}`},
			valid: func(v any) error {
				m, ok := v.(map[string]any)
				if !ok || len(m) != 2 {
					return fmt.Errorf("keys lost")
				}
				if err := intWithin(m["cap"], 2, 4); err != nil {
					return err
				}
				ks, err := listIn(m["keys"], 0, 3)
				if err != nil {
					return err
				}
				for _, k := range ks {
					if err := intWithin(k, 0, 5); err != nil {
						return err
					}
				}
				return nil
			}},
		{name: "tagged tuples keep their arity",
			obs: []string{`[["push", 3], ["pop"], ["add"]]`, `[["push", -2], ["push", 5], ["mul"]]`},
			valid: func(v any) error {
				xs, err := listIn(v, 2, 3)
				if err != nil {
					return err
				}
				for _, e := range xs {
					ins := e.([]any)
					switch {
					case ins[0] == "push" && len(ins) == 2:
						if err := intWithin(ins[1], -2, 5); err != nil {
							return err
						}
					case len(ins) == 1 && ins[0] != "push":
					default:
						return fmt.Errorf("bad instruction %v", ins)
					}
				}
				return nil
			}},
		{name: "sorted lists stay sorted",
			obs: []string{`[[0, 2], [3, 1], [3, 4], [9, 2]]`, `[[1, 1], [2, 2], [8, 3]]`},
			valid: func(v any) error {
				xs, err := listIn(v, 3, 4)
				if err != nil {
					return err
				}
				if !slices.IsSortedFunc(xs, compareValues) {
					return fmt.Errorf("%v is not sorted", xs)
				}
				return nil
			}},
		{name: "token streams keep their structure",
			obs: []string{`["3", "4", "+", "2", "*"]`, `["7", "1", "-"]`},
			valid: func(v any) error {
				xs := v.([]any)
				if len(xs) != 5 && len(xs) != 3 {
					return fmt.Errorf("length of %v changed", xs)
				}
				for i, tok := range xs {
					digit := isDigits(tok.(string))
					wantDigit := i < 2 || (len(xs) == 5 && i == 3)
					if digit != wantDigit {
						return fmt.Errorf("token class changed in %v", xs)
					}
				}
				return nil
			}},
		{name: "grid rows keep one length",
			obs: []string{`[[0, 1, 1], [1, 0, 0]]`, `[[1, 1, 0], [0, 0, 1], [1, 1, 1]]`},
			valid: func(v any) error {
				xs, err := listIn(v, 2, 3)
				if err != nil {
					return err
				}
				for _, r := range xs {
					if _, err := listIn(r, 3, 3); err != nil {
						return err
					}
				}
				return nil
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obs := decodeAll(t, tt.obs...)
			o := observe(obs, nil, newLesson())
			rng := rand.New(rand.NewSource(3))
			made := 0
			for range 300 {
				v, ops := o.mutant(rng, obs, mutationOps, 3)
				if v == nil {
					continue
				}
				made++
				if len(ops) == 0 {
					t.Fatalf("mutant %s without operations", encode(v))
				}
				if err := tt.valid(roundTrip(v)); err != nil {
					t.Fatalf("mutant %s by %v: %v", encode(v), ops, err)
				}
			}
			if made < 100 {
				t.Errorf("only %d of 300 mutations succeeded", made)
			}
		})
	}
}

// TestLessonLearn checks what a rejection teaches: a stated range for the
// numbers that broke it, a length, an order, or else the blame on the
// operation that made the input.
func TestLessonLearn(t *testing.T) {
	obs := decodeAll(t, `{"n": 3, "xs": [[1, 2], [3, 4]]}`)
	tests := []struct {
		name, rejected, msg string
		origin              string
		want                string
	}{
		{name: "range", rejected: `{"n":9,"xs":[[1,2]]}`, msg: "n must be between 1 and 5", origin: opNum,
			want: "ranges=map[$.n:[1 5]] exclude=map[] lens=map[] sorted=map[] banned=map[] strikes=0"},
		{name: "character", rejected: `{"n":1,"xs":[],"s":"a_b"}`, msg: "character '_' is not allowed", origin: opStr,
			want: "ranges=map[] exclude=map[] lens=map[] sorted=map[] banned=map[] strikes=0 bad=\"_\""},
		{name: "excluded value", rejected: `{"n":0,"xs":[[1,2]]}`, msg: "n must not be 0", origin: opNum,
			want: "ranges=map[] exclude=map[$.n:[0]] lens=map[] sorted=map[] banned=map[] strikes=0"},
		{name: "bracket range ignores the repr after got", rejected: `{"n":3,"xs":[[1,-7]]}`,
			msg: "coordinates must be integers in [0, 9], got [1, -7]", origin: opNum,
			want: "ranges=map[$.xs**:[0 9]] exclude=map[] lens=map[] sorted=map[] banned=map[] strikes=0"},
		{name: "length", rejected: `{"n":3,"xs":[[1,2],[1,2],[3,4],[5,6]]}`, msg: "expected a list of 0 to 3 pairs", origin: opDup,
			want: "ranges=map[] exclude=map[] lens=map[$.xs:[0 3]] sorted=map[] banned=map[] strikes=0"},
		{name: "order", rejected: `{"n":3,"xs":[[3,4],[1,2]]}`, msg: "pairs must be in non-decreasing order", origin: opSwap,
			want: "ranges=map[] exclude=map[] lens=map[] sorted=map[$.xs:true] banned=map[] strikes=0"},
		{name: "unexplained", rejected: `{"n":3,"xs":[[1,2],[3,3]]}`, msg: "pairs must differ", origin: opNum + "+" + opGraft,
			want: "ranges=map[] exclude=map[] lens=map[] sorted=map[] banned=map[graft:true num:true] strikes=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLesson()
			l.last[tt.rejected] = tt.origin
			l.last[`{"n":1,"xs":[]}`] = originTemplate
			reason := "oracle-rejected: the hidden program rejected input 2 (" + tt.rejected + "): error: ValueError: " + tt.msg
			l.learn(reason, nil, obs)
			got := fmt.Sprintf("ranges=%v exclude=%v lens=%v sorted=%v banned=%v strikes=%d", l.ranges, l.exclude, l.lens, l.sorted, l.banned, l.strikes)
			if len(l.badChars) > 0 {
				got += fmt.Sprintf(" bad=%q", string(l.badChars))
			}
			if got != tt.want {
				t.Errorf("lesson\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestFallbackConstant checks the constant program written when the DSL
// cannot bind the inputs: Python reads back the most frequent output.
func TestFallbackConstant(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH")
	}
	tests := []struct {
		outputs []string
		want    string
	}{
		{outputs: []string{`{"order": [2, 1], "ok": true, "note": null}`, `3`, `{"ok": true, "order": [2, 1], "note": null}`},
			want: `{"note": null, "ok": true, "order": [2, 1]}`},
		{outputs: []string{`"a\"b\\n\u00e9"`, `false`, `false`}, want: `false`},
		{outputs: []string{`1.5`, `[-2, "x"]`}, want: `1.5`},
	}
	for _, tt := range tests {
		var exs []task.Example
		for _, o := range tt.outputs {
			exs = append(exs, task.Example{Input: json.RawMessage(`{"k": 1}`), Output: json.RawMessage(o)})
		}
		src := fallbackProgram("solve", exs, errUnsupported)
		out, err := exec.Command("python3", "-c", src+"\nimport json\nprint(json.dumps(solve(None), sort_keys=True))").CombinedOutput()
		if err != nil {
			t.Fatalf("fallback program does not run: %v\n%s\n%s", err, src, out)
		}
		if got := strings.TrimSpace(string(out)); got != tt.want {
			t.Errorf("fallback returns %s, want %s\n%s", got, tt.want, src)
		}
	}
}
