package dsl

import (
	"os/exec"
	"slices"
	"testing"
)

// wordTexts are texts with punctuation, several spaces, case, digits,
// underscores and letters outside ASCII between the words.
var wordTexts = []string{`""`, `"..."`, `"a"`, `"Hello, world!"`, `"we a apple?jumps?we apple! A Cat?"`,
	`"  two  spaces "`, `"x1y_z"`, `"héllo wörld"`, `"It's it, IT."`}

// wordLists are lists of strings with ties, repeats and empty strings.
var wordLists = []string{`[]`, `[""]`, `["a"]`, `["b", "a", "a", "b"]`, `["x", "y", "y", "x", "x"]`,
	`["to", "be", "or", "not", "to", "be"]`, `["", "", "a"]`, `["A", "a", "a"]`}

// TestWordsPythonMatchesGo checks the word operators against the Python
// they are written as.
func TestWordsPythonMatchesGo(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: cannot compare emitted Python with the Go evaluator")
	}
	S, LS := Str, ListStr
	for _, c := range []libCase{
		{name: "letter_runs", vars: []string{"s"}, types: []Type{S}, inputs: wordTexts,
			prog: func(t *testing.T) *Node { return app(findOp(t, "letter_runs", S), vr(0)) }},
		{name: "most_common", vars: []string{"ws"}, types: []Type{LS}, inputs: wordLists,
			prog: func(t *testing.T) *Node { return app(findOp(t, "most_common", LS), vr(0)) }},
		{name: "most_common_count", vars: []string{"ws"}, types: []Type{LS}, inputs: wordLists,
			prog: func(t *testing.T) *Node { return app(findOp(t, "most_common_count", LS), vr(0)) }},
		{name: "most_common_word", vars: []string{"s"}, types: []Type{S}, inputs: wordTexts,
			prog: func(t *testing.T) *Node {
				return app(findOp(t, "most_common", LS), app(findOp(t, "letter_runs", S), app(findOp(t, "lower", S), vr(0))))
			}},
		{name: "run_lengths_words", vars: []string{"ws"}, types: []Type{LS}, inputs: wordLists,
			prog: func(t *testing.T) *Node { return app(findOp(t, "run_lengths", LS), vr(0)) }},
		{name: "word_counts_sorted", vars: []string{"s"}, types: []Type{S}, inputs: wordTexts,
			prog: func(t *testing.T) *Node {
				return app(findOp(t, "run_lengths", LS), app(findOp(t, "sorted", LS), app(findOp(t, "letter_runs", S), app(findOp(t, "lower", S), vr(0)))))
			}},
		{name: "most_common_word_count", vars: []string{"s"}, types: []Type{S}, inputs: wordTexts,
			prog: func(t *testing.T) *Node {
				return app(findOp(t, "most_common_count", LS), app(findOp(t, "letter_runs", S), vr(0)))
			}},
	} {
		t.Run(c.name, func(t *testing.T) { checkLibCase(t, py, c) })
	}
}

// TestLetterRuns pins where words start and end.
func TestLetterRuns(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", []string{}},
		{" .,!? ", []string{}},
		{"abc", []string{"abc"}},
		{"Hello, world!", []string{"Hello", "world"}},
		{"a1b_c-d", []string{"a", "b", "c", "d"}},
		{"it's", []string{"it", "s"}},
		{"héllo", []string{"h", "llo"}},
		{"end.", []string{"end"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := letterRuns(tc.in); !slices.Equal(got, tc.want) || got == nil {
				t.Errorf("letterRuns(%q) = %#v, want %#v", tc.in, got, tc.want)
			}
		})
	}
}

// TestMostCommonFirst pins ties (the first occurring), the empty list and
// the long lists counted with a map.
func TestMostCommonFirst(t *testing.T) {
	long := slices.Repeat([]string{"p", "q"}, 40)
	long = append(long, "q")
	tests := []struct {
		name string
		ws   []string
		want string
		n    int
	}{
		{"empty", nil, "", 0},
		{"one", []string{"a"}, "a", 1},
		{"tie goes to the first occurring", []string{"b", "a", "a", "b"}, "b", 2},
		{"later word more frequent", []string{"b", "a", "a"}, "a", 2},
		{"case matters", []string{"A", "a", "a"}, "a", 2},
		{"empty strings count", []string{"", "", "a"}, "", 2},
		{"long tie", slices.Repeat([]string{"p", "q"}, 40), "p", 40},
		{"long", long, "q", 41},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, n := mostCommonFirst(tc.ws)
			if w != tc.want || n != tc.n {
				t.Errorf("mostCommonFirst(%q) = %q, %d, want %q, %d", tc.ws, w, n, tc.want, tc.n)
			}
		})
	}
}
