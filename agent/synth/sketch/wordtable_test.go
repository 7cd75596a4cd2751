package sketch

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// learnWordTable reads the words only the second function gives as the
// table, keyed by their lower case when that keeps the examples apart,
// and refuses a pair that leaves a word ungiven, a table as large as the
// rule, or a listed word needing the first function when no condition
// may be searched.
func TestLearnWordTable(t *testing.T) {
	// f is right where the output is the word in upper case, g where it
	// is in lower case; every word of a sentence is one point.
	points := func(words []string, outs []string) (*dsl.Problem, wordFunc, wordFunc) {
		p := &dsl.Problem{B: &dsl.Binding{Names: []string{"w", "i", "len(words)"}, Types: []dsl.Type{dsl.Str, dsl.Int, dsl.Int}}}
		f, g := wordFunc{}, wordFunc{}
		for k, w := range words {
			p.Envs = append(p.Envs, []any{w, int64(k), int64(len(words))})
			p.Outs = append(p.Outs, outs[k])
			f.right = append(f.right, outs[k] == strings.ToUpper(w))
			g.right = append(g.right, outs[k] == strings.ToLower(w))
		}
		f.fn, g.fn = &dsl.Node{Var: 0, Size: 1}, &dsl.Node{Var: 0, Size: 1}
		return p, f, g
	}
	rule := []string{"cat", "sky", "owl", "road", "lamp", "tree", "rock", "leaf"}
	cases := []struct {
		name  string
		words []string
		outs  []string
		good  bool
		keys  []string
		lower bool
	}{
		{name: "keyed by lower case",
			words: append([]string{"OF", "the", "Of"}, rule...),
			outs:  append([]string{"of", "the", "of"}, upperAll(rule)...),
			good:  true, keys: []string{"of", "the"}, lower: true},
		{name: "as written when lower case clashes",
			words: append([]string{"of", "OF"}, rule...),
			outs:  append([]string{"of", "OF"}, upperAll(rule)...),
			good:  true, keys: []string{"of"}, lower: false},
		{name: "a word neither gives",
			words: append([]string{"of", "Cat"}, rule...),
			outs:  append([]string{"of", "cAT"}, upperAll(rule)...),
			good:  false},
		{name: "a table as large as the rule",
			words: []string{"a", "b", "c", "d", "e", "f"},
			outs:  []string{"a", "b", "c", "D", "E", "F"},
			good:  false},
		{name: "no exception",
			words: rule, outs: upperAll(rule), good: false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, f, g := points(c.words, c.outs)
			tb, searched, good := learnWordTable(p, f, g, time.Time{}, &Search{}, false)
			if searched {
				t.Errorf("searched a condition, want none")
			}
			if good != c.good {
				t.Fatalf("good %v, want %v", good, c.good)
			}
			if good && (!slices.Equal(tb.keys, c.keys) || tb.lower != c.lower || tb.when != nil) {
				t.Errorf("table %v lower %v when %v, want %v lower %v", tb.keys, tb.lower, tb.when, c.keys, c.lower)
			}
		})
	}
}

func upperAll(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = strings.ToUpper(w)
	}
	return out
}

// A table's word takes the second function only where its condition of
// the place holds; a word it does not list takes the first.
func TestWordTableTakes(t *testing.T) {
	// when: 0 < i (the index is the environment's second variable).
	var lt *dsl.Operator
	for _, op := range dsl.Catalog.Top {
		if op.Name == "lt" && slices.Equal(op.Args, []dsl.Type{dsl.Int, dsl.Int}) {
			lt = op
		}
	}
	if lt == nil {
		t.Fatal("no lt operator")
	}
	when := &dsl.Node{Op: lt, Var: -1, Size: 3, Kids: []*dsl.Node{{Const: int64(0), Var: -1, Size: 1}, {Var: 1, Size: 1}}}
	tb := &wordTable{set: map[string]bool{"of": true}, lower: true, when: when}
	cases := []struct {
		w    string
		i    int
		want bool
	}{
		{"OF", 1, true}, {"of", 0, false}, {"cat", 1, false},
	}
	for _, c := range cases {
		wenv := []any{c.w, int64(c.i), int64(3)}
		if got := tb.takes(c.w, c.i, 3, wenv); got != c.want {
			t.Errorf("takes(%q, %d) = %v, want %v", c.w, c.i, got, c.want)
		}
	}
}
