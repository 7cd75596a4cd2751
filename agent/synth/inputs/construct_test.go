package inputs

import (
	"encoding/json"
	"math/rand"
	"slices"
	"testing"

	"github.com/reconstruct/reconstruct/task"
)

// decoded reads JSON inputs as the observed inputs are read.
func decoded(t *testing.T, raws ...string) []any {
	t.Helper()
	out := make([]any, len(raws))
	for i, r := range raws {
		v, err := task.Decode(json.RawMessage(r))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = v
	}
	return out
}

// Construct builds, from the observed inputs, inputs whose arguments stand
// in each relation (equal, reversed, permuted, contained, ordered) and
// whose numbers and lengths sit on each side of the candidate's
// constants; each built input holds the relation its probe names.
func TestConstruct(t *testing.T) {
	tests := []struct {
		name    string
		sources []string
		tuple   bool
		consts  []int64
		// want: for each probe, an input that must be built.
		want map[Probe][]string
	}{
		{name: "two lists", sources: []string{`[[3, 1, 2], [9]]`, `[[9], [3, 1, 2]]`}, tuple: true,
			want: map[Probe][]string{
				ProbeEqual:     {`[[3,1,2],[3,1,2]]`, `[[9],[9]]`},
				ProbeReversed:  {`[[3,1,2],[2,1,3]]`},
				ProbePermuted:  {`[[3,1,2],[1,2,3]]`},
				ProbeContained: {`[[3,1,2],[1,2]]`, `[[3,1,2],[3,1]]`},
			}},
		{name: "a pair of numbers", sources: []string{`[4, 10]`, `[12, 2]`, `[-5, 6]`}, tuple: true,
			want: map[Probe][]string{
				ProbeEqual:    {`[4,4]`, `[10,10]`},
				ProbeOrdered:  {`[4,5]`, `[4,3]`, `[11,10]`},
				ProbeReversed: {`[-2,2]`},
			}},
		{name: "two strings", sources: []string{`["abc", "x"]`, `["x", "abc"]`}, tuple: true,
			want: map[Probe][]string{
				ProbeEqual:     {`["abc","abc"]`},
				ProbeReversed:  {`["abc","cba"]`},
				ProbePermuted:  {`["abc","bca"]`},
				ProbeContained: {`["abc","bc"]`},
			}},
		{name: "boundaries of a constant in a list", sources: []string{`[5, 5, 5]`}, consts: []int64{17},
			want: map[Probe][]string{ProbeBoundary: {`[16,5,5]`, `[5,17,5]`, `[5,5,18]`, `[5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5]`}}},
		{name: "boundaries of a constant for an integer", sources: []string{`40`}, consts: []int64{3},
			want: map[Probe][]string{ProbeBoundary: {`2`, `3`, `4`, `0`, `1`}}},
		{name: "every number below a small constant", sources: []string{`40`}, consts: []int64{4},
			want: map[Probe][]string{ProbeBoundary: {`0`, `1`, `2`, `3`, `4`, `5`}}},
		{name: "lengths below a small constant in a list", sources: []string{`[5, 5, 5, 5, 5, 5]`}, consts: []int64{5},
			want: map[Probe][]string{ProbeBoundary: {`[]`, `[5]`, `[5,5]`, `[5,5,5]`, `[0,5,5,5,5,5]`}}},
		{name: "one list: no relations", sources: []string{`[1, 2]`},
			want: map[Probe][]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Boundaries replace a number chosen at random: several seeds
			// cover every position.
			got := map[Probe]map[string]bool{}
			for seed := int64(1); seed <= 20; seed++ {
				built := Construct(Construction{Rand: rand.New(rand.NewSource(seed)), Sources: decoded(t, tt.sources...), Tuple: tt.tuple, Consts: tt.consts})
				for _, b := range built {
					if got[b.Probe] == nil {
						got[b.Probe] = map[string]bool{}
					}
					got[b.Probe][string(Encode(b.Input))] = true
				}
			}
			for p, ins := range tt.want {
				for _, in := range ins {
					if !got[p][in] {
						t.Errorf("probe %s did not build %s; built %v", p, in, keys(got[p]))
					}
				}
			}
			for p, ins := range got {
				if _, ok := tt.want[p]; !ok {
					t.Errorf("probe %s built %v, want none", p, keys(ins))
				}
			}
		})
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// A relation puts in an argument's place only a value like those observed
// there: not a height in the place of a fraction or of a count, nor a
// negative number where none was observed.
func TestConstructKeepsEachPlacesValues(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		built := Construct(Construction{Rand: rand.New(rand.NewSource(seed)), Sources: decoded(t, `[2, 1, 5]`, `[82, 1, 14]`, `[40, 1, 9]`), Tuple: true})
		if len(built) == 0 {
			t.Fatalf("seed %d: nothing built", seed)
		}
		for _, b := range built {
			args := b.Input.([]any)
			h, _ := numberOf(args[0])
			r, _ := numberOf(args[1])
			n, _ := numberOf(args[2])
			if h < 2 || h > 82 || r != 1 || n < 5 || n > 14 {
				t.Errorf("seed %d: probe %s built %s, a value unlike those observed in its place", seed, b.Probe, Encode(b.Input))
			}
		}
	}
}

// Construct's bound takes each probe in turn, boundaries first.
func TestConstructBound(t *testing.T) {
	built := Construct(Construction{Rand: rand.New(rand.NewSource(1)), Sources: decoded(t, `[[3, 1, 2], [9, 4]]`, `[[9, 4], [3, 1, 2]]`), Tuple: true, Consts: []int64{7}, Max: 6})
	var probes []Probe
	for _, b := range built {
		probes = append(probes, b.Probe)
	}
	want := []Probe{ProbeBoundary, ProbeEqual, ProbeReversed, ProbePermuted, ProbeContained, ProbeBoundary}
	if !slices.Equal(probes, want) {
		t.Errorf("probes %v, want %v", probes, want)
	}
}

// Shown names the relations the observed inputs' arguments stand in.
func TestShown(t *testing.T) {
	tests := []struct {
		inputs []string
		tuple  bool
		want   []Probe
	}{
		{[]string{`[[1, 2], [1, 2]]`, `[[4], [7, 1]]`}, true, []Probe{ProbeEqual}},
		{[]string{`[[1, 2, 3], [3, 1, 2]]`}, true, []Probe{ProbePermuted}},
		{[]string{`[[1, 2, 3], [3, 2, 1]]`}, true, []Probe{ProbePermuted, ProbeReversed}},
		{[]string{`[[1, 2, 3], [2, 3]]`}, true, []Probe{ProbeContained}},
		{[]string{`["abc", "b"]`, `[5, 6]`}, true, []Probe{ProbeContained, ProbeOrdered}},
		{[]string{`[1, 2, 3]`}, false, nil},
	}
	for _, tt := range tests {
		got := Shown(decoded(t, tt.inputs...), tt.tuple)
		var names []Probe
		for p := range got {
			names = append(names, p)
		}
		slices.Sort(names)
		if !slices.Equal(names, tt.want) {
			t.Errorf("Shown(%v) = %v, want %v", tt.inputs, names, tt.want)
		}
	}
}

// Covering finds an input of each category a random draw can reach.
func TestCovering(t *testing.T) {
	g := &Generator{Rand: rand.New(rand.NewSource(3)), Shape: "string", Limits: Limits{lo: 0, hi: 9, MinLen: 0, MaxLen: 8}}
	cats := []string{"empty", "palindrome", "has_digit"}
	got := g.Covering(task.KindString, nil, cats, 500)
	if len(got) != len(cats) {
		t.Fatalf("Covering = %v, want one input per category %v", got, cats)
	}
	for i, c := range cats {
		if !slices.Contains(task.CategoriesOf(task.KindString, nil, Encode(got[i])), c) {
			t.Errorf("%v does not cover %s", got[i], c)
		}
	}
}
