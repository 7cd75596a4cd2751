package inputs

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"
)

// TestGrammarTemplates reads strings with a grammar of characters from
// their constraints, draws strings of that shape only, and tells strings
// of the shape from near misses.
func TestGrammarTemplates(t *testing.T) {
	tests := []struct {
		name, constr string
		want         string
		good, bad    []string
	}{
		{name: "items joined by symbols", constr: "1 to 20 characters: integers of 1 to 2 digits separated by + and *, no spaces",
			want: "joined[1,20](str[1,2]{0-9} by str[1,1]{*+})",
			good: []string{"7", "12+3*45", "0*0"}, bad: []string{"", "+1", "1+", "123+4", "1 + 2", "1-2", "1++2"}},
		{name: "words joined by a separator word", constr: "2 to 25 characters: words of 1 to 4 lowercase letters joined by commas",
			want: "joined[2,25](str[1,4]{a-z} by str[1,1]{,})",
			good: []string{"ab", "ab,c,defg"}, bad: []string{"a", "abcde,f", "ab,,c", "Ab,c"}},
		{name: "segments in order", constr: "exactly 8 characters: two uppercase letters, then six digits",
			want: "seq(str[2,2]{A-Z} str[6,6]{0-9})",
			good: []string{"AB123456"}, bad: []string{"A1234567", "AB12345", "ab123456", "AB1234567"}},
		{name: "a segment of several classes", constr: "exactly 5 characters: four digits followed by a digit or Z",
			want: "seq(str[4,4]{0-9} str[1,1]{0-9Z})",
			good: []string{"12345", "0000Z"}, bad: []string{"Z0000", "1234", "1234Y"}},
		{name: "no grammar", constr: "0 to 12 lowercase letters", want: "<nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tp := TemplateOf(task.Task{Kind: task.KindString, InputType: "a string", InputConstraints: tt.constr})
			got := "<nil>"
			if tp != nil {
				got = tp.String()
			}
			if got != tt.want {
				t.Fatalf("template\n got %s\nwant %s", got, tt.want)
			}
			if tp == nil {
				return
			}
			if !Structured(task.Task{Kind: task.KindString}, tp) {
				t.Errorf("a string grammar does not make proposals structured")
			}
			for _, s := range tt.good {
				if !tp.WellFormed(s) {
					t.Errorf("%q refused", s)
				}
			}
			for _, s := range tt.bad {
				if tp.WellFormed(s) {
					t.Errorf("%q admitted", s)
				}
			}
			g := &TemplateGenerator{Rand: rand.New(rand.NewSource(1))}
			lens := map[int]bool{}
			for range 300 {
				s, ok := g.Draw(tp).(string)
				if !ok || !tp.WellFormed(s) {
					t.Fatalf("drew %v, not of the shape %s", s, tp)
				}
				lens[len(s)] = true
			}
			if len(lens) < 2 && tp.Kind == tkJoined {
				t.Errorf("joined strings of %d lengths only", len(lens))
			}
		})
	}
}
