package bank

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
)

// Proposal is a decoded propose action.
type Proposal struct {
	Workspace        string
	ExpectedRevision string
	Updates          map[string]Value
	Edits            []Edit
	Constraints      Constraints
}

// DecodeProposal strictly decodes the fields of a propose action.
func decodeProposal(m map[string]any) (*Proposal, error) {
	f := fields{m: m}
	p := &Proposal{Workspace: f.str("workspace"), ExpectedRevision: f.optStr("expected_revision"), Updates: map[string]Value{}}
	if f.err != nil {
		return nil, f.err
	}
	var err error
	if x, ok := m["updates"]; ok {
		if p.Updates, err = decodeValueMap("updates", x); err != nil {
			return nil, malformed(err)
		}
	}
	if x, ok := m["graph_edits"]; ok {
		if p.Edits, err = decodeEdits("graph_edits", x); err != nil {
			return nil, malformed(err)
		}
	}
	if p.Constraints, err = decodeConstraints("", m, false); err != nil {
		return nil, malformed(err)
	}
	return p, nil
}

// Feedback is the result of a proposal (docs/bank.md "Propose").
type Feedback struct {
	Workspace    string                  `json:"workspace"`
	BaseRevision string                  `json:"base_revision"`
	Registry     string                  `json:"registry"`
	Accepted     bool                    `json:"accepted"`
	Outputs      map[string]Value        `json:"outputs"`
	Targets      map[string]TargetResult `json:"targets,omitempty"`
	Differences  Differences             `json:"differences"`
	Trace        []TraceEntry            `json:"trace"`
	Calls        int                     `json:"calls"`
	Protected    []ProtectedCheck        `json:"protected_outputs"`
	Constraints  []ConstraintCheck       `json:"constraints"`
	Receipt      Receipt                 `json:"receipt"`
}

// TargetResult compares one target before and after the proposal.
type TargetResult struct {
	Before Residual `json:"before"`
	After  Residual `json:"after"`
}

// Differences lists outputs and intermediate values that changed.
type Differences struct {
	Outputs       []ValueDiff `json:"outputs"`
	Intermediates []ValueDiff `json:"intermediates"`
}

// ValueDiff is one changed value by hash; an empty side was absent (not
// an output, or not evaluated).
type ValueDiff struct {
	Name   string `json:"name"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	Kind   Kind   `json:"kind,omitempty"`
}

// ProtectedCheck is the check of one locked output.
type ProtectedCheck struct {
	Output string `json:"output"`
	OK     bool   `json:"ok"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// ConstraintCheck is one other constraint's outcome.
type ConstraintCheck struct {
	Name    string `json:"name"`
	OK      bool   `json:"ok"`
	Message string `json:"message,omitempty"`
}

func (b *Bank) actPropose(ctx context.Context, m map[string]any) (any, error) {
	p, err := decodeProposal(m)
	if err != nil {
		return nil, err
	}
	fb, err := b.Propose(ctx, p)
	if err != nil {
		return nil, err
	}
	if !fb.Accepted {
		var failed []string
		for _, c := range fb.Protected {
			if !c.OK {
				failed = append(failed, "locked output "+c.Output+": "+c.Reason)
			}
		}
		for _, c := range fb.Constraints {
			if !c.OK {
				failed = append(failed, c.Name+": "+c.Message)
			}
		}
		return nil, &ActionError{Code: CodeConstraintFailed, Message: "proposal rejected: " + strings.Join(failed, "; "), Details: fb}
	}
	return fb, nil
}

// headContent is a workspace's head as a proposal sees it: its content and
// its cached structure.
type headContent struct {
	Revision
	cached *cachedStructure
}

// candidateGraph applies a proposal's updates and edits to the head's
// graph and validates the result.
func candidateGraph(reg *Registry, head *headContent, p *Proposal) (*Graph, *Checked, error) {
	base := head.Graph
	for _, name := range sortedKeys(p.Updates) {
		if _, ok := base.Inputs[name]; !ok {
			return nil, nil, reject(CodeUnknownInput, "updates.%s: no declared input %q (declared: %s)", name, name, strings.Join(sortedKeys(base.Inputs), ", "))
		}
	}
	if sameShape(base, p) {
		// The head's structure with inputs of the same kinds: validated
		// as the head is.
		cand := &Graph{Inputs: maps.Clone(base.Inputs), Nodes: base.Nodes, Outputs: base.Outputs}
		maps.Copy(cand.Inputs, p.Updates)
		chk, err := head.cached.check(reg, cand.Inputs)
		if err != nil {
			return nil, nil, reject(CodeInvalidGraph, "candidate graph: %v", err)
		}
		return cand, chk, nil
	}
	cand, err := ApplyEdits(base, p.Edits)
	if err != nil {
		var pe *PathError
		if errors.As(err, &pe) {
			return nil, nil, reject(CodeInvalidEdit, "%v", err)
		}
		return nil, nil, err
	}
	for name, v := range p.Updates {
		cand.Inputs[name] = v
	}
	chk, err := Validate(reg, cand)
	if err != nil {
		return nil, nil, reject(CodeInvalidGraph, "candidate graph: %v", err)
	}
	return cand, chk, nil
}

// Propose evaluates a proposal without changing the bank.
func (b *Bank) Propose(ctx context.Context, p *Proposal) (*Feedback, error) {
	if p.Constraints.LockedOutputs == nil {
		p.Constraints.LockedOutputs = []string{}
	}
	if p.Constraints.Targets == nil {
		p.Constraints.Targets = map[string]Value{}
	}
	rec, err := b.store.Revision(ctx, p.Workspace, "")
	if err != nil {
		return nil, err
	}
	g, cached, err := b.contentCached(ctx, rec)
	if err != nil {
		return nil, err
	}
	head := &headContent{Revision: Revision{RevisionRecord: rec, Graph: g}, cached: cached}
	if p.ExpectedRevision != "" && p.ExpectedRevision != head.Name {
		return nil, reject(CodeStale, "workspace %s is at %s, expected_revision is %s", p.Workspace, head.Name, p.ExpectedRevision)
	}
	reg, err := b.Registry(ctx)
	if err != nil {
		return nil, err
	}
	cand, chk, err := candidateGraph(reg, head, p)
	if err != nil {
		return nil, err
	}
	ev := b.evaluator(reg)
	// The head's trace is not reported: only its values are compared.
	quiet := &Evaluator{Registry: reg, Runner: b.runner, Budget: b.budget, untraced: true}
	var before *Result
	var berr error
	if sameShape(head.Graph, p) {
		before, berr = quiet.run(ctx, head.Graph, chk)
	} else {
		before, berr = quiet.Evaluate(ctx, head.Graph)
	}
	after, err := ev.run(ctx, cand, chk)
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	if err != nil {
		details := map[string]any{}
		if after != nil {
			details["trace"] = after.Trace
		}
		var ee *EvalError
		if errors.As(err, &ee) {
			details["path"], details["op"] = ee.Path, ee.Op
		}
		return nil, &ActionError{Code: CodeEvaluationFailed, Message: "candidate: " + err.Error(), Details: details}
	}
	if berr != nil && before == nil {
		before = &Result{Outputs: map[string]Value{}, Values: map[string]Value{}}
	}
	fb := &Feedback{Workspace: p.Workspace, BaseRevision: head.Name, Registry: reg.Identity(), Outputs: after.Outputs,
		Trace: after.Trace, Calls: after.Calls, Protected: []ProtectedCheck{}, Constraints: []ConstraintCheck{}}
	if fb.Trace == nil {
		fb.Trace = []TraceEntry{}
	}
	fb.Differences = differences(before, after)
	if len(p.Constraints.Targets) > 0 {
		fb.Targets = map[string]TargetResult{}
		for name, want := range p.Constraints.Targets {
			bv, bok := before.Outputs[name]
			av, aok := after.Outputs[name]
			fb.Targets[name] = TargetResult{
				Before: Compare(name, bv, bok, want, p.Constraints.Atol),
				After:  Compare(name, av, aok, want, p.Constraints.Atol),
			}
		}
	}
	fb.Protected, fb.Constraints = checkConstraints(p.Constraints, before.Outputs, after.Outputs)
	fb.Accepted = true
	for _, c := range fb.Protected {
		fb.Accepted = fb.Accepted && c.OK
	}
	for _, c := range fb.Constraints {
		fb.Accepted = fb.Accepted && c.OK
	}
	key, err := b.store.Key(ctx)
	if err != nil {
		return nil, fmt.Errorf("propose: receipt key: %w", err)
	}
	payload := &ReceiptPayload{Format: ReceiptFormat, Workspace: p.Workspace, BaseRevision: head.Name, Registry: reg.Identity(),
		Candidate: cand, PredictedOutputs: after.Outputs, Constraints: p.Constraints, Sources: sourcesOf(&head.Revision, cand, len(p.Edits) > 0, p.Updates, after.Outputs)}
	if sameShape(head.Graph, p) {
		// The head's structure, encoded when it was cached.
		payload.structure = head.cached.canonical
	}
	if fb.Receipt, err = signPayload(key, payload); err != nil {
		return nil, err
	}
	return fb, nil
}

// sameShape reports whether a proposal leaves the graph's structure and
// its inputs' kinds as they are, so that the base validates exactly as
// the candidate does.
func sameShape(base *Graph, p *Proposal) bool {
	if len(p.Edits) > 0 {
		return false
	}
	for name, v := range p.Updates {
		if base.Inputs[name].Kind() != v.Kind() {
			return false
		}
	}
	return true
}

// sourcesOf identifies the base (by its stored hashes), the candidate and
// its outputs; inputs the proposal did not update keep the base's hashes.
func sourcesOf(base *Revision, cand *Graph, edited bool, updates, outputs map[string]Value) ReceiptSources {
	s := ReceiptSources{BaseInputs: maps.Clone(base.Inputs), Inputs: map[string]string{}, Outputs: map[string]string{},
		BaseGraph: base.RevisionRecord.Graph, Graph: base.RevisionRecord.Graph}
	if edited {
		s.Graph = HashBytes(cand.Structure())
	}
	for k, v := range cand.Inputs {
		h, stored := base.Inputs[k]
		if _, updated := updates[k]; updated || !stored {
			h = v.Hash()
		}
		s.Inputs[k] = h
	}
	for k, v := range outputs {
		s.Outputs[k] = v.Hash()
	}
	return s
}

// checkConstraints checks locked outputs (present before and after, and
// unchanged) and the target requirement.
func checkConstraints(c Constraints, before, after map[string]Value) ([]ProtectedCheck, []ConstraintCheck) {
	prot := []ProtectedCheck{}
	for _, name := range c.LockedOutputs {
		pc := ProtectedCheck{Output: name}
		bv, bok := before[name]
		av, aok := after[name]
		if bok {
			pc.Before = bv.Hash()
		}
		if aok {
			pc.After = av.Hash()
		}
		switch {
		case !bok:
			pc.Reason = "missing before the proposal"
		case !aok:
			pc.Reason = "missing after the proposal"
		case pc.Before != pc.After:
			pc.Reason = "changed"
		default:
			pc.OK = true
		}
		prot = append(prot, pc)
	}
	cons := []ConstraintCheck{}
	if c.RequireTargetMatch {
		cc := ConstraintCheck{Name: "require_target_match", OK: true}
		if len(c.Targets) == 0 {
			cc.OK, cc.Message = false, "require_target_match is set but no targets were supplied"
		}
		for _, name := range sortedKeys(c.Targets) {
			av, ok := after[name]
			if r := Compare(name, av, ok, c.Targets[name], c.Atol); !r.Match {
				cc.OK = false
				cc.Message = strings.TrimPrefix(cc.Message+"; ", "; ") + fmt.Sprintf("target %s: %s", name, r.Status)
			}
		}
		cons = append(cons, cc)
	}
	return prot, cons
}

func differences(before, after *Result) Differences {
	return Differences{
		Outputs:       diffValues(sortedKeys(unionKeys(before.Outputs, after.Outputs)), before.Outputs, after.Outputs, func(_ string, v Value) string { return v.Hash() }),
		Intermediates: diffValues(mergeSorted(before.ids, after.ids), before.Values, after.Values, after.hash),
	}
}

// diffValues lists the values of names (sorted) that differ between bm
// and am, or are in one only.
func diffValues(names []string, bm, am map[string]Value, afterHash func(name string, v Value) string) []ValueDiff {
	out := []ValueDiff{}
	for _, n := range names {
		bv, bok := bm[n]
		av, aok := am[n]
		if bok && aok && sameValue(bv, av) || !bok && !aok {
			continue
		}
		vd := ValueDiff{Name: n}
		if bok {
			vd.Before = bv.Hash()
		}
		if aok {
			vd.After, vd.Kind = afterHash(n, av), av.Kind()
		}
		if vd.Before != vd.After {
			out = append(out, vd)
		}
	}
	return out
}

// mergeSorted returns the sorted union of two sorted lists without
// duplicates.
func mergeSorted(a, b []string) []string {
	out := make([]string, 0, max(len(a), len(b)))
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0] < b[0]:
			out, a = append(out, a[0]), a[1:]
		case len(a) == 0 || b[0] < a[0]:
			out, b = append(out, b[0]), b[1:]
		default:
			out, a, b = append(out, a[0]), a[1:], b[1:]
		}
	}
	return out
}
