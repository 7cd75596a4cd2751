package inputs

import (
	"math/rand"
	"strconv"
	"testing"

	"github.com/reconstruct/reconstruct/task"
)

// TestRecordsOfATally reads a list of records whose numbers are written as
// strings and whose tokens need values kept before them, draws lists that
// keep every rule, and tells them from lists with a token too early.
func TestRecordsOfATally(t *testing.T) {
	tk := task.Task{Kind: task.KindOther,
		InputType:        `list of ledger entries: an integer written as a string, like "12" or "-7", or one of "undo", "dup" and "sum"`,
		InputConstraints: `1 to 10 entries; integers between -50 and 50; "sum" only after at least two kept values, "undo" and "dup" after at least one`}
	tp := TemplateOf(tk)
	want := `list[1,10](textint[-50,50]|"undo"|"dup"|"sum") needs(dup:1,sum:2,undo:1)`
	if tp.String() != want {
		t.Fatalf("template\n got %s\nwant %s", tp, want)
	}
	if !Structured(tk, tp) {
		t.Fatal("records are not drawn from the template")
	}
	for _, tc := range []struct {
		in   []any
		want bool
	}{
		{[]any{"3", "4", "sum"}, true},
		{[]any{"3", "dup", "4", "5", "sum"}, true},
		{[]any{"3", "sum"}, false},
		{[]any{"undo"}, false},
		{[]any{"3", "undo", "dup"}, false},
	} {
		if got := tp.WellFormed(tc.in); got != tc.want {
			t.Errorf("WellFormed(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	g := &TemplateGenerator{Rand: rand.New(rand.NewSource(4))}
	tokens, numbers := map[string]bool{}, map[int64]bool{}
	for range 300 {
		xs := g.Draw(tp).([]any)
		if !tp.WellFormed(xs) || len(xs) > 10 {
			t.Fatalf("drew %v, which breaks %s", xs, tp)
		}
		for _, x := range xs {
			s := x.(string)
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				if n < -50 || n > 50 {
					t.Fatalf("number %q out of range", s)
				}
				numbers[n] = true
				continue
			}
			tokens[s] = true
		}
	}
	if len(tokens) != 3 || !numbers[-50] || !numbers[50] {
		t.Errorf("draws hold tokens %v and reach the ends of the numbers: %v %v", tokens, numbers[-50], numbers[50])
	}
}
