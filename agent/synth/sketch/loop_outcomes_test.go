package sketch

import "testing"

// outcomeDist counts the ways of each total exactly, and refuses more
// outcomes than a float64 holds exactly; outcomeChance is the share of
// the outcomes whose total passes the test.
func TestOutcomeDist(t *testing.T) {
	cases := []struct {
		name      string
		n, lo, hi int64
		test      int
		bound     float64
		want      float64
		fails     bool
	}{
		{name: "no draw: the total 0 only", n: 0, lo: 1, hi: 6, test: 0, bound: 0, want: 1},
		{name: "a negative count draws nothing", n: -3, lo: 0, hi: 1, test: 1, bound: 1, want: 0},
		{name: "two coins, at least one head", n: 2, lo: 0, hi: 1, test: 1, bound: 1, want: 0.75},
		{name: "two dice showing 7", n: 2, lo: 1, hi: 6, test: 0, bound: 7, want: 6.0 / 36},
		{name: "three dice below 5", n: 3, lo: 1, hi: 6, test: 4, bound: 5, want: 4.0 / 216},
		{name: "a bound between totals", n: 4, lo: 0, hi: 1, test: 3, bound: 2.5, want: 5.0 / 16},
		{name: "53 coins fit", n: 53, lo: 0, hi: 1, test: 2, bound: 53, want: 1},
		{name: "54 coins are too many", n: 54, lo: 0, hi: 1, fails: true},
		{name: "21 dice are too many", n: 21, lo: 1, hi: 6, fails: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ways, good := outcomeDist(c.n, c.lo, c.hi)
			if good == c.fails {
				t.Fatalf("outcomeDist(%d, %d, %d) good = %v, want %v", c.n, c.lo, c.hi, good, !c.fails)
			}
			if c.fails {
				return
			}
			if got := outcomeChance(ways, c.n, c.lo, c.test, c.bound); got != c.want {
				t.Errorf("chance = %v, want %v", got, c.want)
			}
		})
	}
}
