package synth

import (
	"encoding/json"
	"math"
	"math/rand"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// loops runs the loop sketches alone, with the whole budget.
func loops(en *sketch.Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
	return sketch.Loops(en, p, 1, consider)
}

func fnum(v any) float64 { f, _ := v.(json.Number).Float64(); return f }

func args(v any) []any { return v.([]any) }

// tenths is a random number with at most one decimal, from 0 to hi.
func tenths(r *rand.Rand, hi int) float64 { return float64(r.Intn(hi*10+1)) / 10 }

func otherTask(name, typ string) task.Task {
	return task.Task{Name: name, Kind: task.KindOther, InputType: typ, FunctionName: "solve"}
}

func isLoop(prefix string) func(t *testing.T, n *dsl.Node) {
	return func(t *testing.T, n *dsl.Node) {
		t.Helper()
		if n.Op == nil || !strings.HasPrefix(n.Op.Name, prefix) {
			t.Errorf("found %v, want a %s program", n, prefix)
		}
	}
}

// The accumulator loop finds a quantity updated over n steps by a rule
// (interest, cooling) and the sums and products of n terms of a series,
// exactly as floats: the emitted loop computes what the Go evaluation
// did, operation by operation.
func TestFoldSketch(t *testing.T) {
	cases := []sketchCase{
		{name: "fold_savings_after_years", task: otherTask("savings", "[amount, rate, years]: a deposit, a yearly rate in percent and a number of years"), n: 6,
			gen: func(r *rand.Rand) any { return []any{float64(r.Intn(100000)) / 100, tenths(r, 9), r.Intn(40)} },
			f: func(in any) any {
				a := args(in)
				x, rate := fnum(a[0]), fnum(a[1])
				for range num(a[2]) {
					x = x * (1 + rate/100)
				}
				return x
			}, check: isLoop("fold"), exact: true, budget: 3 * time.Minute},
		{name: "fold_tea_cooling", task: otherTask("tea", "[temp, room, k, minutes]: temperatures, a factor and minutes"), n: 6,
			gen: func(r *rand.Rand) any { return []any{r.Intn(100), r.Intn(30), float64(r.Intn(100)) / 100, r.Intn(30)} },
			f: func(in any) any {
				a := args(in)
				x, room, k := fnum(a[0]), fnum(a[1]), fnum(a[2])
				for range num(a[3]) {
					x = x + k*(room-x)
				}
				return x
			}, check: isLoop("fold"), exact: true, budget: 3 * time.Minute},
		{name: "fold_sum_of_squares", task: task.Task{Name: "sum_of_squares", Kind: task.KindInt, InputType: "integer n", FunctionName: "solve"}, n: 5,
			gen: func(r *rand.Rand) any { return r.Intn(200) },
			f: func(in any) any {
				s := int64(0)
				for i := int64(1); i <= num(in); i++ {
					s += i * i
				}
				return s
			}, exact: true, budget: 3 * time.Minute},
		{name: "fold_basel_partial_sum", task: task.Task{Name: "basel_sum", Kind: task.KindInt, InputType: "integer n", FunctionName: "solve"}, n: 5,
			gen: func(r *rand.Rand) any { return r.Intn(300) },
			f: func(in any) any {
				s := 0.0
				for i := int64(1); i <= num(in); i++ {
					s += 1 / float64(i*i)
				}
				return s
			}, check: isLoop("fold"), exact: true, budget: 3 * time.Minute},
	}
	runSketchCases(t, cases, loops)
}

// The counting loop finds the steps until a quantity passes a bound, and
// the value the outputs give for "never" (a payment below the interest).
func TestUntilSketch(t *testing.T) {
	cases := []sketchCase{
		{name: "until_years_to_double", task: otherTask("years_to_goal", "[amount, goal, rate]: an amount, a goal and a rate in percent"), n: 8,
			gen: func(r *rand.Rand) any { return []any{1 + r.Intn(500), 1 + r.Intn(5000), 1 + r.Intn(20)} },
			f: func(in any) any {
				a := args(in)
				x, goal, rate := fnum(a[0]), fnum(a[1]), fnum(a[2])
				years := 0
				for x < goal {
					x = x * (1 + rate/100)
					years++
				}
				return years
			}, check: isLoop("steps_while"), exact: true, budget: 3 * time.Minute},
		{name: "until_years_or_never", task: otherTask("years_to_goal", "[amount, goal, rate]: an amount, a goal and a rate in percent"), n: 10,
			gen: func(r *rand.Rand) any { return []any{1 + r.Intn(500), 1 + r.Intn(5000), r.Intn(4)} },
			f: func(in any) any {
				a := args(in)
				x, goal, rate := fnum(a[0]), fnum(a[1]), fnum(a[2])
				if rate == 0 && x < goal {
					return -1
				}
				years := 0
				for x < goal {
					x = x * (1 + rate/100)
					years++
				}
				return years
			}, check: isLoop("steps_while"), exact: true, budget: 3 * time.Minute},
	}
	runSketchCases(t, cases, loops)
}

// The range sketch finds a list of integers counted from a start to a
// stop in steps, each a term of the parameters: read from the three
// positions of a list, the multiples of k up to n, a countdown.
func TestRangeSketch(t *testing.T) {
	stepped := func(start, stop, step int64) any {
		out := []int64{}
		for v := start; step > 0 && v < stop || step < 0 && v > stop; v += step {
			out = append(out, v)
		}
		return out
	}
	cases := []sketchCase{
		{name: "range_start_stop_step", task: otherTask("stepped", "[start, stop, step]: three integers"), n: 4,
			gen: func(r *rand.Rand) any {
				step := 1 + r.Intn(6)
				if r.Intn(2) == 0 {
					step = -step
				}
				return []any{r.Intn(61) - 30, r.Intn(61) - 30, step}
			},
			f: func(in any) any { a := args(in); return stepped(num(a[0]), num(a[1]), num(a[2])) }},
		{name: "range_multiples_up_to", task: otherTask("multiples", "[k, n]: a step and a limit"), n: 6,
			gen: func(r *rand.Rand) any { return []any{1 + r.Intn(12), r.Intn(101)} },
			f:   func(in any) any { a := args(in); return stepped(num(a[0]), num(a[1])+1, num(a[0])) }},
		{name: "range_countdown", task: task.Task{Name: "countdown", Kind: task.KindInt, InputType: "integer n", FunctionName: "solve"}, n: 4,
			gen: func(r *rand.Rand) any { return r.Intn(40) },
			f:   func(in any) any { return stepped(num(in), 0, -1) }},
	}
	wantOpPrefix(cases, "range[", "a range")
	runSketchCases(t, cases, loops)
}

// The filtered range keeps the numbers of a range for which a condition
// on the number holds: the multiples of 7 from a to b that are not
// multiples of 5, the odd numbers counted down from n.
func TestFilteredRangeSketch(t *testing.T) {
	cases := []sketchCase{
		{name: "range_sevens_not_fives", task: otherTask("sevens", "[a, b]: two integers"), n: 8,
			gen: func(r *rand.Rand) any {
				// b a multiple of 7 half the time: the examples then say
				// whether the range holds b.
				if r.Intn(2) == 0 {
					return []any{r.Intn(301), 7 * r.Intn(43)}
				}
				return []any{r.Intn(301), r.Intn(301)}
			},
			f: func(in any) any {
				a := args(in)
				out := []int64{}
				for i := num(a[0]); i <= num(a[1]); i++ {
					if i%7 == 0 && i%5 != 0 {
						out = append(out, i)
					}
				}
				return out
			}},
		{name: "range_odd_countdown", task: task.Task{Name: "odd_countdown", Kind: task.KindInt, InputType: "integer n", FunctionName: "solve"}, n: 4,
			gen: func(r *rand.Rand) any { return r.Intn(60) },
			f: func(in any) any {
				out := []int64{}
				for i := num(in); i > 0; i-- {
					if i%2 == 1 {
						out = append(out, i)
					}
				}
				return out
			}},
	}
	wantOpPrefix(cases, "range[", "a range")
	runSketchCases(t, cases, loops)
}

// The count and the sum of a filtered range: how many multiples of 7 lie
// between a and b in either order (the range from the smaller to the
// larger, both included), and the sum of the numbers below n that are
// multiples of 3 or 5 (two tests joined by or). Nothing in the outputs
// lists the indices kept: each filling is checked by its count or sum.
func TestCountSketch(t *testing.T) {
	cases := []sketchCase{
		{name: "count_multiples_of_7_between", task: otherTask("multiples", "[a, b]: two integers; multiples of 7"), n: 12,
			gen: func(r *rand.Rand) any { return []any{r.Intn(201) - 100, r.Intn(201) - 100} },
			f: func(in any) any {
				a := args(in)
				lo, hi := min(num(a[0]), num(a[1])), max(num(a[0]), num(a[1]))
				n := int64(0)
				for i := lo; i <= hi; i++ {
					if i%7 == 0 {
						n++
					}
				}
				return n
			}, check: isLoop("len")},
		{name: "sum_multiples_of_3_or_5_below", task: task.Task{Name: "multiples_3_5", Kind: task.KindInt, InputType: "integer n: multiples of 3 or 5", FunctionName: "solve"}, n: 6,
			gen: func(r *rand.Rand) any { return r.Intn(2001) },
			f: func(in any) any {
				s := int64(0)
				for i := int64(0); i < num(in); i++ {
					if i%3 == 0 || i%5 == 0 {
						s += i
					}
				}
				return s
			}, check: isLoop("sum")},
	}
	runSketchCases(t, cases, loops)
}

// The map with a running state finds a greedy decomposition of an amount
// into notes: a count per note, the rest appended.
func TestStateMapSketch(t *testing.T) {
	cases := []sketchCase{
		{name: "statemap_greedy_notes", task: otherTask("notes", "[amount, notes]: an amount and the values of the notes, largest first"), n: 4,
			gen: func(r *rand.Rand) any {
				notes := map[int]bool{}
				for range 1 + r.Intn(5) {
					notes[1+r.Intn(500)] = true
				}
				var ns []int
				for v := range notes {
					ns = append(ns, v)
				}
				sort.Sort(sort.Reverse(sort.IntSlice(ns)))
				return []any{r.Intn(5001), ns}
			},
			f: func(in any) any {
				a := args(in)
				amount := num(a[0])
				out := []int64{}
				for _, note := range asInts(a[1]) {
					out = append(out, amount/int64(note))
					amount %= int64(note)
				}
				return append(out, amount)
			}},
	}
	wantOpPrefix(cases, "state_map[", "a map with a running state")
	runSketchCases(t, cases, func(en *sketch.Search, p *dsl.Problem, consider func(*dsl.Node, []any) bool) bool {
		return sketch.StateMap(en, p, 1, consider)
	})
}

// The outcome sketch finds a probability counted over equally likely
// outcomes: at least k heads in n tosses of a coin, n dice showing a
// total (rounded, as the outputs show), the counts exact and the
// division Python's.
func TestOutcomeSketch(t *testing.T) {
	ways := func(n, lo, hi int64) map[int64]int64 {
		w := map[int64]int64{0: 1}
		for range n {
			nxt := map[int64]int64{}
			for s, c := range w {
				for f := lo; f <= hi; f++ {
					nxt[s+f] += c
				}
			}
			w = nxt
		}
		return w
	}
	chance := func(n, lo, hi int64, hit func(s int64) bool) float64 {
		var good, total int64
		for s, c := range ways(n, lo, hi) {
			total += c
			if hit(s) {
				good += c
			}
		}
		return float64(good) / float64(total)
	}
	cases := []sketchCase{
		{name: "outcomes_heads_at_least", task: task.Task{Name: "coin_heads", Kind: task.KindPair, InputType: "[n, k]: tosses and heads", FunctionName: "solve"}, n: 6,
			gen: func(r *rand.Rand) any { return []any{r.Intn(13), r.Intn(13)} },
			f: func(in any) any {
				a := args(in)
				return chance(num(a[0]), 0, 1, func(s int64) bool { return s >= num(a[1]) })
			}, check: isLoop("chance"), exact: true, budget: 3 * time.Minute},
		{name: "outcomes_dice_total_rounded", task: task.Task{Name: "dice_total", Kind: task.KindPair, InputType: "[n, total]: dice and a total", FunctionName: "solve"}, n: 6,
			gen: func(r *rand.Rand) any { return []any{1 + r.Intn(4), 2 + r.Intn(20)} },
			f: func(in any) any {
				a := args(in)
				v := chance(num(a[0]), 1, 6, func(s int64) bool { return s == num(a[1]) })
				return math.Round(v*1e4) / 1e4
			}, check: isLoop("chance"), budget: 3 * time.Minute},
	}
	runSketchCases(t, cases, loops)
}

// A rule may end with a third term added or taken away (interest added,
// then a payment taken) and may keep the quantity at 0 or above (a
// population dying out): both are rules of the loops, exact as floats.
func TestDerivedRules(t *testing.T) {
	cases := []sketchCase{
		{name: "fold_growth_kept_above_zero", task: otherTask("herd", "[size, rate, limit, years]: a herd, a rate, a limit and years"), n: 8,
			gen: func(r *rand.Rand) any {
				return []any{1 + r.Intn(300), float64(r.Intn(150)) / 100, 1 + r.Intn(300), r.Intn(30)}
			},
			f: func(in any) any {
				a := args(in)
				x, rate, limit := fnum(a[0]), fnum(a[1]), fnum(a[2])
				for range num(a[3]) {
					x = x + rate*x*(1-x/limit)
					if x < 0 {
						x = 0
					}
				}
				return x
			}, check: isLoop("fold"), exact: true, budget: 3 * time.Minute},
		{name: "until_debt_paid_or_never", task: otherTask("debt", "[debt, rate, payment]: a debt, a rate in percent and a payment"), n: 10,
			gen: func(r *rand.Rand) any { return []any{r.Intn(3000), tenths(r, 5), 1 + r.Intn(300)} },
			f: func(in any) any {
				a := args(in)
				x, rate, pay := fnum(a[0]), fnum(a[1]), fnum(a[2])
				if x > 0 && pay <= x*rate/100 {
					return -1
				}
				months := 0
				for x > 0 {
					x = x + x*rate/100
					x = x - pay
					months++
				}
				return months
			}, check: isLoop("steps_while"), exact: true, budget: 3 * time.Minute},
	}
	runSketchCases(t, cases, loops)
}
