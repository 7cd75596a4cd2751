package synth

import (
	"reflect"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// Thresholds are the roundest numbers of their gaps, as people write
// them.
func TestRoundCut(t *testing.T) {
	cases := []struct {
		lo, hi float64
		isInt  bool
		cut    float64
		le     bool
	}{
		{87, 91, true, 90, false},
		{8, 14, true, 10, false},
		{100, 105, true, 100, true}, // "n > 100": at most 100
		{59, 60, true, 60, false},
		{3, 7, true, 5, false},
		{-3, 0, true, 0, false},
		{24.8, 25.1, false, 25, false},
		{18.3, 18.6, false, 18.5, false},
		{29.95, 30.0, false, 30, false},
		{0.123, 0.1234, false, 0.123, true},
		{1e-9, 3e-9, false, 2e-9, false},
	}
	for _, c := range cases {
		cut, le := roundCut(c.lo, c.hi, c.isInt)
		if cut != c.cut || le != c.le {
			t.Errorf("roundCut(%v, %v, %v) = %v, %v; want %v, %v", c.lo, c.hi, c.isInt, cut, le, c.cut, c.le)
		}
	}
}

// Labels are intervals of a number when, sorted by it, each label makes
// one run; the search then names the number by its intervals, and a
// proposal's search also keeps the thresholds at the gaps' ends.
func TestIntervals(t *testing.T) {
	b := &dsl.Binding{Names: []string{"n"}, Types: []dsl.Type{dsl.Int}, Line: "n = input_data"}
	p := &dsl.Problem{B: b, Round: -1}
	outs := []any{}
	for _, c := range []struct {
		n     int64
		label string
	}{{3, "cold"}, {31, "hot"}, {12, "mild"}, {-4, "cold"}, {27, "hot"}, {22, "mild"}, {8, "cold"}, {40, "hot"}} {
		p.Envs = append(p.Envs, []any{c.n})
		outs = append(outs, c.label)
	}
	if err := p.SetOutputs(outs); err != nil {
		t.Fatal(err)
	}
	runs, lo, hi, ok := labelRuns(p, &dsl.Entry{N: &dsl.Node{Var: 0, Size: 1}, BoxedVals: []any{int64(3), int64(31), int64(12), int64(-4), int64(27), int64(22), int64(8), int64(40)}})
	if !ok || !reflect.DeepEqual(runs, []int8{0, 2, 1}) || !reflect.DeepEqual(lo, []float64{8, 22}) || !reflect.DeepEqual(hi, []float64{12, 27}) {
		t.Fatalf("runs %v, gaps %v..%v, ok %v", runs, lo, hi, ok)
	}
	// Not intervals: "cold" on both sides of "mild".
	if _, _, _, ok := labelRuns(p, &dsl.Entry{N: &dsl.Node{Var: 0, Size: 1}, BoxedVals: []any{int64(3), int64(31), int64(12), int64(50), int64(27), int64(22), int64(8), int64(40)}}); ok {
		t.Error("a label in two runs is not intervals")
	}
	spec := testSpec()
	spec.collect, spec.keep, spec.beyond = true, maxRivals, 0
	res := search(p, spec)
	if !res.solved || res.best.String() != `intervals{"cold" < 10 "mild" < 25 "hot"}(v0)` {
		t.Fatalf("found %v", res.best)
	}
	var names []string
	for _, e := range res.survivors {
		if e.N.Size == 2 {
			names = append(names, e.N.String())
		}
	}
	for _, want := range []string{`intervals{"cold" <= 8 "mild" < 25 "hot"}(v0)`, `intervals{"cold" < 12 "mild" < 25 "hot"}(v0)`,
		`intervals{"cold" < 10 "mild" <= 22 "hot"}(v0)`, `intervals{"cold" < 10 "mild" < 27 "hot"}(v0)`} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("rivals %v lack %s", names, want)
		}
	}
	src := dsl.Program{Root: res.best, Binding: b.Line, Vars: b.Names, Round: -1}.Python("solve", "")
	if want := `return "cold" if n < 10 else "mild" if n < 25 else "hot"`; !strings.Contains(src, want) {
		t.Errorf("emitted\n%s\nwant %s", src, want)
	}
}
