package synth

import (
	"strings"
	"testing"
	"time"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
)

// TestSweepArgsLargeLambdas sweeps the lambdas of size 5 over derived
// lists (a score per run of equal elements, r + r // 2, summed): found
// whether or not the bank is full when the sweep reduces after each
// operator (the full bank's programs are kept as copies for the
// reduction), and lost when it reduces only at its end over a full bank.
func TestSweepArgsLargeLambdas(t *testing.T) {
	ins := []string{"[1,1,2]", "[3,3,3,3,3]", "[]", "[5]", "[2,2,2,7,7,1,1,1,1]", "[4,5,4,4]", "[6,6,6,6,6,6,6]", "[8,9]"}
	score := func(xs []int64) any {
		total := int64(0)
		for i := 0; i < len(xs); {
			j := i
			for j < len(xs) && xs[j] == xs[i] {
				j++
			}
			r := int64(j - i)
			total += r + r/2
			i = j
		}
		return total
	}
	tests := []struct {
		name           string
		lamMin, lamMax int
		eager, full    bool
		want           string // "" : nothing found
	}{
		{"eager over a full bank", 5, 5, true, true, "run_lengths(v0)"},
		{"eager with room", 5, 5, true, false, "run_lengths(v0)"},
		{"at its end with room", 5, 5, false, false, "run_lengths(v0)"},
		{"at its end over a full bank", 5, 5, false, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := listProblem(t, ins, score)
			en := newEnumerator(enumConfig{
				envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top,
				lams: defaultLambdas(), deadline: time.Now().Add(time.Hour), memLimit: DefaultMemoryBytes,
			})
			var found *dsl.Node
			en.grow(3, nil)
			en.onNew = func(t dsl.Type, e *dsl.Entry) bool {
				if p.OkType(t) && p.AllMatchCol(e.Col) {
					found = e.N.Clone()
					return true
				}
				return false
			}
			if tt.full {
				en.freeze()
			}
			en.sweepArgs(2, tt.lamMin, tt.lamMax, tt.eager)
			if en.recordFull {
				t.Errorf("the sweep left recordFull set")
			}
			if tt.want == "" {
				if found != nil {
					t.Errorf("found %v, want nothing", found)
				}
				return
			}
			if found == nil {
				t.Fatalf("found nothing, want a program over %s", tt.want)
			}
			if got := found.String(); !strings.Contains(got, tt.want) || !strings.HasPrefix(got, "sum(map(") {
				t.Errorf("found %s, want the sum of a map over %s", got, tt.want)
			}
		})
	}
}
