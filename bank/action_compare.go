package bank

import (
	"context"
	"strings"
)

// Comparison is the result of compare: two revisions side by side.
type Comparison struct {
	RevisionA  RevisionRecord      `json:"a"`
	RevisionB  RevisionRecord      `json:"b"`
	SameGraph  bool                `json:"same_graph"`
	Inputs     []ValueDiff         `json:"inputs"`
	Nodes      NodeDiff            `json:"nodes"`
	Outputs    []ValueDiff         `json:"outputs"`
	Residuals  map[string]Residual `json:"residuals"`
	Identical  bool                `json:"identical"`
	EvalErrorA string              `json:"error_a,omitempty"`
	EvalErrorB string              `json:"error_b,omitempty"`
}

// NodeDiff lists node ids only in A, only in B, or defined differently.
type NodeDiff struct {
	OnlyA   []string `json:"only_a"`
	OnlyB   []string `json:"only_b"`
	Changed []string `json:"changed"`
}

// splitRef parses "workspace" or "workspace@rNNNNNN".
func splitRef(s string) (string, string) {
	if i := strings.LastIndex(s, "@"); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// Compare evaluates two revisions ("workspace" for a head or
// "workspace@rNNNNNN") and reports their differences; residuals compare B's
// outputs with A's as targets.
func (b *Bank) Compare(ctx context.Context, a, bref string) (*Comparison, error) {
	reg, err := b.Registry(ctx)
	if err != nil {
		return nil, err
	}
	wa, ra := splitRef(a)
	wb, rb := splitRef(bref)
	revA, err := b.Load(ctx, wa, ra)
	if err != nil {
		return nil, err
	}
	revB, err := b.Load(ctx, wb, rb)
	if err != nil {
		return nil, err
	}
	c := &Comparison{RevisionA: revA.RevisionRecord, RevisionB: revB.RevisionRecord, Residuals: map[string]Residual{}}
	c.SameGraph = string(revA.Graph.Structure()) == string(revB.Graph.Structure())
	c.Inputs = valueDiffs(revA.Graph.Inputs, revB.Graph.Inputs)
	nodesA, nodesB := map[string]string{}, map[string]string{}
	for i := range revA.Graph.Nodes {
		j, _ := revA.Graph.Nodes[i].MarshalJSON()
		nodesA[revA.Graph.Nodes[i].ID] = string(j)
	}
	for i := range revB.Graph.Nodes {
		j, _ := revB.Graph.Nodes[i].MarshalJSON()
		nodesB[revB.Graph.Nodes[i].ID] = string(j)
	}
	c.Nodes = NodeDiff{OnlyA: []string{}, OnlyB: []string{}, Changed: []string{}}
	for _, id := range sortedKeys(nodesA) {
		if jb, ok := nodesB[id]; !ok {
			c.Nodes.OnlyA = append(c.Nodes.OnlyA, id)
		} else if jb != nodesA[id] {
			c.Nodes.Changed = append(c.Nodes.Changed, id)
		}
	}
	for _, id := range sortedKeys(nodesB) {
		if _, ok := nodesA[id]; !ok {
			c.Nodes.OnlyB = append(c.Nodes.OnlyB, id)
		}
	}
	ev := b.evaluator(reg)
	resA, errA := ev.Evaluate(ctx, revA.Graph)
	resB, errB := ev.Evaluate(ctx, revB.Graph)
	outA, outB := map[string]Value{}, map[string]Value{}
	if resA != nil {
		outA = resA.Outputs
	}
	if resB != nil {
		outB = resB.Outputs
	}
	if errA != nil {
		c.EvalErrorA = errA.Error()
	}
	if errB != nil {
		c.EvalErrorB = errB.Error()
	}
	c.Outputs = valueDiffs(outA, outB)
	for name, want := range outA {
		got, ok := outB[name]
		c.Residuals[name] = Compare(name, got, ok, want, DefaultAtol)
	}
	c.Identical = c.SameGraph && len(c.Inputs) == 0 && len(c.Outputs) == 0
	return c, nil
}

func valueDiffs(a, b map[string]Value) []ValueDiff {
	out := []ValueDiff{}
	for _, n := range sortedKeys(unionKeys(a, b)) {
		vd := ValueDiff{Name: n}
		if v, ok := a[n]; ok {
			vd.Before = v.Hash()
		}
		if v, ok := b[n]; ok {
			vd.After, vd.Kind = v.Hash(), v.Kind()
		}
		if vd.Before != vd.After {
			out = append(out, vd)
		}
	}
	return out
}

func (b *Bank) actCompare(ctx context.Context, m map[string]any) (any, error) {
	f := fields{m: m}
	a, bb := f.str("a"), f.str("b")
	if f.err != nil {
		return nil, f.err
	}
	return b.Compare(ctx, a, bb)
}
