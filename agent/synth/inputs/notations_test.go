package inputs

import (
	"math/rand"
	"testing"

	"github.com/reconstruct/reconstruct/task"
)

// TestBowlingLines draws the rolls of games of ten-pin bowling for a
// description that names them, and tells complete games from near misses.
func TestBowlingLines(t *testing.T) {
	for s, want := range map[string]bool{
		"XXXXXXXXXXXX": true, "--------------------": true, "5/5/5/5/5/5/5/5/5/5/5": true, "X7/9-X-88/-6XXX81": true,
		"-": false, "XXXXXXXXXXX": false, "XXXXXXXXXXXXX": false, "55------------------": false,
		"/5------------------": false, "X/------------------": false, "5/5/5/5/5/5/5/5/5/5/": false,
	} {
		if got := isBowlingLine(s); got != want {
			t.Errorf("isBowlingLine(%q) = %v, want %v", s, got, want)
		}
	}
	tk := task.Task{Kind: task.KindString, InputType: "a bowling game", InputConstraints: "the rolls of one player, one character per roll"}
	g := &Generator{Rand: rand.New(rand.NewSource(5)), Shape: "string", Limits: LimitsFor(tk, nil, nil, nil, false)}
	strikes, spares := false, false
	for range 300 {
		s := g.Draw().(string)
		if !isBowlingLine(s) || !Within(s, g.Limits, "string") {
			t.Fatalf("drew %q, not a complete game", s)
		}
		for _, r := range s {
			strikes = strikes || r == 'X'
			spares = spares || r == '/'
		}
	}
	if !strikes || !spares {
		t.Errorf("no strike or no spare in 300 games")
	}
	for _, e := range g.Edges() {
		if !Within(e, g.Limits, "string") {
			t.Errorf("edge %v is not a complete game", e)
		}
	}
	if Within("X7/9-X-88/-6XXX8", g.Limits, "string") {
		t.Error("an incomplete game is within the limits")
	}
}

// TestRomanNumeralsValid keeps near misses of numerals out of proposals.
func TestRomanNumeralsValid(t *testing.T) {
	for s, want := range map[string]bool{"MCMXCIV": true, "IV": true, "MMMCMXCIX": true, "IIII": false, "VX": false, "IM": false, "": false, "XIVI": false} {
		if got := isRomanNumeral(s); got != want {
			t.Errorf("isRomanNumeral(%q) = %v, want %v", s, got, want)
		}
	}
}
