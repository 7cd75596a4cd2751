package synth

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/task"

	"github.com/reconstruct/reconstruct/agent/synth/dsl"
	"github.com/reconstruct/reconstruct/agent/synth/sketch"
)

// When a search collects a proposal's rivals, every accumulator loop that
// fits is run over every example: its steps are charged to the search,
// so that its budget (and the clock it reads every so many programs)
// sees them. A rival search whose loops ran tens of thousands of steps
// an example charged one a try, and ran a minute past its 400 ms.
func TestFoldRivalsChargeTheirSteps(t *testing.T) {
	ns := []int64{90000, 60000, 40000, 3, 0, 7}
	var exs []task.Example
	var steps int64
	for _, n := range ns {
		out, _ := json.Marshal(n * (n - 1) / 2)
		in, _ := json.Marshal(n)
		exs = append(exs, task.Example{Input: in, Output: out})
		steps += n
	}
	p, err := newProblem(task.Task{Name: "sum_below", Kind: task.KindInt, InputType: "integer n", FunctionName: "solve"}, exs)
	if err != nil {
		t.Fatal(err)
	}
	lams, _ := lambdasFor(p.Mined, nil)
	// Bounded by programs, as Options.MaxPrograms bounds a search: what
	// the loops run must stay within it.
	const budget = 2_000_000
	en := newEnumerator(enumConfig{envs: p.Envs, vars: p.B.Types, consts: topConsts(p), ops: dsl.Catalog.Top,
		lams: lams, maxEval: budget, memLimit: DefaultMemoryBytes})
	folds := 0
	runSketches(en, testShared, true, func(r *sketch.Search) bool {
		return sketch.Loops(r, p, 1, func(n *dsl.Node, vals []any) bool {
			if p.AllMatch(vals) && n.Op != nil && strings.HasPrefix(n.Op.Name, "fold") {
				folds++
			}
			return false
		})
	})
	if folds == 0 {
		t.Fatal("no accumulator loop offered")
	}
	// One loop more than the budget pays for may run: the one that
	// spent it.
	if ran := int64(folds-1) * steps; ran > budget {
		t.Errorf("%d loops offered, %d steps each: %d steps run past a budget of %d programs", folds, steps, ran, budget)
	}
}
