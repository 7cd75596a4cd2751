package dsl

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Templates finds the fixed text every output of a kind shares and the
// holes between, one template per kind of output.
func TestTemplates(t *testing.T) {
	cases := []struct {
		name string
		outs []string
		// want: per template, its texts and its holes' fills.
		want []Template
	}{
		{"value in a sentence", []string{"Total is -8", "Total is 0", "Total is 43"},
			[]Template{{Texts: []string{"Total is ", ""}, Examples: []int{0, 1, 2}, Fills: [][]string{{"-8", "0", "43"}}}}},
		{"zero-padded fields", []string{"19:27:23", "04:47:02", "21:38:00"},
			[]Template{{Texts: []string{"", ":", ":", ""}, Examples: []int{0, 1, 2},
				Fills: [][]string{{"19", "04", "21"}, {"27", "47", "38"}, {"23", "02", "00"}}}}},
		// "00" is in every output but at different places: each mark is
		// matched with its own, the fields between stay holes.
		{"fields that share digits", []string{"00:00:19", "06:49:00", "17:38:00", "00:30:34"},
			[]Template{{Texts: []string{"", ":", ":", ""}, Examples: []int{0, 1, 2, 3},
				Fills: [][]string{{"00", "06", "17", "00"}, {"00", "49", "38", "30"}, {"19", "00", "00", "34"}}}}},
		{"a word and a number", []string{"You have 4 dishes.", "You have 437 glasses.", "You have 10 pens."},
			[]Template{{Texts: []string{"You have ", " ", "."}, Examples: []int{0, 1, 2},
				Fills: [][]string{{"4", "437", "10"}, {"dishes", "glasses", "pens"}}}}},
		{"a category's letter", []string{"The grade is A.", "The grade is F.", "The grade is A."},
			[]Template{{Texts: []string{"The grade is ", "."}, Examples: []int{0, 1, 2}, Fills: [][]string{{"A", "F", "A"}}}}},
		{"two kinds of output", []string{"Count: 3\nMin: 3\nMax: 3", "Count: 0", "Count: 10\nMin: -42\nMax: 75"},
			[]Template{
				{Texts: []string{"Count: ", "\nMin: ", "\nMax: ", ""}, Examples: []int{0, 2},
					Fills: [][]string{{"3", "10"}, {"3", "-42"}, {"3", "75"}}},
				{Texts: []string{"Count: 0"}, Examples: []int{1}, Fills: [][]string{}},
			}},
		{"an optional part", []string{"5 x apple = 442.20", "a = 0.00", "2 x pen = 2.10", "soap = 21.99"},
			[]Template{
				{Texts: []string{"", " x ", " = ", ""}, Examples: []int{0, 2},
					Fills: [][]string{{"5", "2"}, {"apple", "pen"}, {"442.20", "2.10"}}},
				{Texts: []string{"", " = ", ""}, Examples: []int{1, 3}, Fills: [][]string{{"a", "soap"}, {"0.00", "21.99"}}},
			}},
		{"words that share letters", []string{"BMI 25.0: overweight", "BMI 22.9: normal", "BMI 30.8: obese"},
			[]Template{{Texts: []string{"BMI ", ": ", ""}, Examples: []int{0, 1, 2},
				Fills: [][]string{{"25.0", "22.9", "30.8"}, {"overweight", "normal", "obese"}}}}},
		{"too many kinds", []string{"a", "b.", "c,", "d!", "e?"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Templates(c.outs)
			if len(got) != len(c.want) {
				t.Fatalf("%d templates, want %d: %+v", len(got), len(c.want), got)
			}
			for k, tm := range got {
				w := c.want[k]
				if !reflect.DeepEqual(tm.Texts, w.Texts) || !reflect.DeepEqual(tm.Examples, w.Examples) ||
					len(tm.Fills) != len(w.Fills) || len(w.Fills) > 0 && !reflect.DeepEqual(tm.Fills, w.Fills) {
					t.Errorf("template %d = %q %v %q, want %q %v %q", k, tm.Texts, tm.Examples, tm.Fills, w.Texts, w.Examples, w.Fills)
				}
			}
		})
	}
}

// A hole's problem holds its texts' numbers, matched through the format
// exactly; a selector's the templates' kinds as labels.
func TestHoleAndSelectorProblems(t *testing.T) {
	b := &Binding{Names: []string{"n"}, Types: []Type{Int}}
	p := &Problem{B: b, Round: -1}
	for _, n := range []int64{70043, 4, 77880} {
		p.Envs = append(p.Envs, []any{n})
	}
	outs := []any{"BMI 25.0: a", "BMI 2.25: b", "x"}
	if err := p.SetOutputs(outs); err != nil {
		t.Fatal(err)
	}
	ts := Templates([]string{"BMI 25.0: a", "BMI 2.25: b", "x"})
	if len(ts) != 2 {
		t.Fatalf("templates %+v", ts)
	}
	sub, f, err := p.HoleProblem(ts[0], 0)
	if err != nil {
		t.Fatal(err)
	}
	if f != (Format{Kind: FmtStr}) || sub.Out != Float || len(sub.Outs) != 2 {
		t.Fatalf("hole: format %v, problem %v %v", f, sub.Out, sub.Outs)
	}
	// 25.0 and 2.25 are str of floats: the int 25 does not write "25.0".
	if sub.MatchesAt(0, int64(25)) || !sub.MatchesAt(0, 25.0) || !sub.MatchesAt(1, 2.25) || sub.MatchesAt(1, 2.2500001) {
		t.Error("a hole's values must match through their format exactly")
	}
	word, f, err := p.HoleProblem(ts[0], 1)
	if err != nil || f.Kind != FmtStr || word.Out != Str || word.Outs[1] != "b" {
		t.Fatalf("word hole: %v %v %v", word, f, err)
	}
	sel, err := p.SelectorProblem(ts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sel.Labels, []any{"kind0", "kind1"}) || !reflect.DeepEqual(sel.LabelOf, []int8{0, 0, 1}) {
		t.Errorf("selector labels %v %v", sel.Labels, sel.LabelOf)
	}
}

// Outputs that are lists of one length with components of different
// types make a tuple problem, one problem per component.
func TestTupleProblem(t *testing.T) {
	b := &Binding{Names: []string{"s"}, Types: []Type{Str}}
	p := &Problem{B: b, Round: -1}
	var outs []any
	for _, o := range []string{`["Q", 4]`, `["rhythm", 0]`, `["", 0]`} {
		var v any
		d := json.NewDecoder(strings.NewReader(o))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, v)
		p.Envs = append(p.Envs, []any{"x"})
	}
	if err := p.SetOutputs(outs); err != nil {
		t.Fatal(err)
	}
	parts := p.Components()
	if p.Out != Tuple || len(parts) != 2 || parts[0].Out != Str || parts[1].Out != Int {
		t.Fatalf("tuple problem: %v, parts %v", p.Out, parts)
	}
	if !p.MatchesAt(0, []any{"Q", int64(4)}) || p.MatchesAt(0, []any{"Q", int64(3)}) {
		t.Error("a tuple matches its output component by component")
	}
	if string(ToJSON([]any{"Q", int64(4), 2.5})) != `["Q", 4, 2.5]` {
		t.Errorf("tuple JSON %s", ToJSON([]any{"Q", int64(4), 2.5}))
	}
	// A pair of ints stays a list of ints; its components are ints.
	q := &Problem{B: b, Round: -1, Envs: p.Envs}
	if err := q.SetOutputs([]any{[]any{json.Number("1"), json.Number("2")}, []any{json.Number("3"), json.Number("4")}, []any{json.Number("0"), json.Number("0")}}); err != nil {
		t.Fatal(err)
	}
	if q.Out != ListInt || len(q.Components()) != 2 || q.Components()[1].Outs[1] != int64(4) {
		t.Errorf("pair problem %v, parts %v", q.Out, q.Components())
	}
}
