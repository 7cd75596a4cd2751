package inputs

import (
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"
)

// TestTemplateDrawsKeepShapes draws inputs from templates whose parts
// carry shapes beyond ranges (words separated by single spaces, no
// letter twice, strings of one length, numbers with decimals, lists in
// strictly decreasing order) and checks every draw keeps them and the
// draws reach the edges of each range.
func TestTemplateDrawsKeepShapes(t *testing.T) {
	tk := task.Task{Kind: task.KindOther,
		InputType: "[headline, key, code, rate, weights]: a headline, two strings of the same length, a rate and the weights of the parcels, heaviest first",
		InputConstraints: "headline 0 to 24 characters: lowercase letters and single spaces between words, no space at either end; " +
			"key and code 1 to 5 uppercase letters each, with no letter twice in key; rate from 0 to 2.5 with at most one decimal; " +
			"1 to 5 parcel weights between 1 and 9, strictly decreasing"}
	tp := TemplateOf(tk)
	want := "(str[0,24]{ a-z}/words, str[1,5]{A-Z}/distinct/samelen, str[1,5]{A-Z}/samelen, float[0,2.5].1, list[1,5](int[1,9]) sorted desc distinct) same length"
	if tp.String() != want {
		t.Fatalf("template\n got %s\nwant %s", tp, want)
	}
	g := &TemplateGenerator{Rand: rand.New(rand.NewSource(3))}
	var rates []float64
	multiWord, lens := false, map[int]bool{}
	for range 400 {
		v := g.Draw(tp).([]any)
		if !tp.SameLengths(v) || !tp.WellFormed(v) {
			t.Fatalf("draw %v breaks %s", v, tp)
		}
		head, key, code := v[0].(string), v[1].(string), v[2].(string)
		if head != strings.Join(strings.Fields(head), " ") || len(head) > 24 {
			t.Fatalf("headline %q is not words separated by single spaces", head)
		}
		multiWord = multiWord || strings.Count(head, " ") >= 2
		if len(key) != len(code) || len(key) < 1 || len(key) > 5 {
			t.Fatalf("key %q and code %q", key, code)
		}
		for i, r := range key {
			if strings.ContainsRune(key[i+1:], r) {
				t.Fatalf("key %q holds %q twice", key, r)
			}
		}
		rate := v[3].(float64)
		if rate < 0 || rate > 2.5 || math.Abs(rate*10-math.Round(rate*10)) > 1e-9 {
			t.Fatalf("rate %v is not in [0, 2.5] with one decimal", rate)
		}
		rates = append(rates, rate)
		ws := v[4].([]any)
		lens[len(ws)] = true
		for i := 1; i < len(ws); i++ {
			if ws[i-1].(int64) <= ws[i].(int64) {
				t.Fatalf("weights %v are not strictly decreasing", ws)
			}
		}
	}
	if !multiWord {
		t.Error("no headline of three words or more")
	}
	if !slices.Contains(rates, 0) || !slices.Contains(rates, 2.5) || !slices.ContainsFunc(rates, func(f float64) bool { return f != math.Trunc(f) }) {
		t.Errorf("rates do not reach both bounds and a decimal: %v", rates[:20])
	}
	if !lens[1] || !lens[5] {
		t.Errorf("weights of lengths %v, not from 1 to 5", lens)
	}
}
