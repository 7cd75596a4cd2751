package bank

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"

	"go.uber.org/zap"
)

// Error codes of action responses.
const (
	CodeMalformed          = "malformed_request"
	CodeNotFound           = "not_found"
	CodeExists             = "exists"
	CodeInvalidName        = "invalid_name"
	CodeInvalidGraph       = "invalid_graph"
	CodeInvalidEdit        = "invalid_edit"
	CodeTooManyEdits       = "too_many_edits"
	CodeUnknownInput       = "unknown_input"
	CodeEvaluationFailed   = "evaluation_failed"
	CodeNothingToUndo      = "nothing_to_undo"
	CodeStale              = "stale_revision"
	CodeReceiptTampered    = "receipt_tampered"
	CodeRegistryChanged    = "registry_changed"
	CodePredictionMismatch = "prediction_mismatch"
	CodeConstraintFailed   = "constraint_failed"
	CodeInternal           = "internal_error"
)

// Response is one action's answer: {"ok": true, "action", "result"} or
// {"ok": false, "action", "error": {"code", "message", "details"}}.
type Response struct {
	OK     bool         `json:"ok"`
	Action string       `json:"action,omitempty"`
	Result any          `json:"result,omitempty"`
	Error  *ActionError `json:"error,omitempty"`
}

// ActionError is a rejected or failed action.
type ActionError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details any    `json:"details,omitempty"`
}

func (e *ActionError) Error() string { return e.Code + ": " + e.Message }

func reject(code, format string, args ...any) *ActionError {
	return &ActionError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// classify maps an error of the bank or store to an action error.
func classify(err error) *ActionError {
	var ae *ActionError
	var pe *PathError
	var le *LimitError
	var ee *EvalError
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.Is(err, ErrStale):
		return reject(CodeStale, "%v", err)
	case errors.Is(err, ErrNotFound):
		return reject(CodeNotFound, "%v", err)
	case errors.Is(err, ErrExists):
		return reject(CodeExists, "%v", err)
	case errors.Is(err, ErrNothingToUndo):
		return reject(CodeNothingToUndo, "%v", err)
	case errors.As(err, &le):
		return reject(CodeTooManyEdits, "%v", err)
	case errors.As(err, &ee):
		return &ActionError{Code: CodeEvaluationFailed, Message: err.Error(), Details: map[string]string{"path": ee.Path, "op": ee.Op}}
	case errors.As(err, &pe):
		return reject(CodeInvalidGraph, "%v", err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return reject(CodeInternal, "%v", err)
	}
	return reject(CodeInternal, "%v", err)
}

// Act decodes one protocol action and performs it. Malformed input is a
// response with code malformed_request, never a panic.
func (b *Bank) Act(ctx context.Context, raw []byte) Response {
	tree, err := parseJSON(raw)
	if err != nil {
		return fail("", reject(CodeMalformed, "invalid JSON: %v", err))
	}
	m, ok := tree.(map[string]any)
	if !ok {
		return fail("", reject(CodeMalformed, "want an action object, got %s", jsonType(tree)))
	}
	action, ok := m["action"].(string)
	if !ok {
		return fail("", reject(CodeMalformed, "missing or non-string field \"action\""))
	}
	h, ok := handlers[action]
	if !ok {
		return fail(action, reject(CodeMalformed, "unknown action %q (want one of %s)", action, strings.Join(actionNames(), ", ")))
	}
	if err := exactKeys("", m, append([]string{"action"}, h.required...), h.optional); err != nil {
		return fail(action, reject(CodeMalformed, "%v", err))
	}
	res, err := h.run(b, ctx, m)
	if err != nil {
		return fail(action, classify(err))
	}
	return Response{OK: true, Action: action, Result: res}
}

func fail(action string, e *ActionError) Response {
	return Response{OK: false, Action: action, Error: e}
}

type handler struct {
	required, optional []string
	run                func(b *Bank, ctx context.Context, m map[string]any) (any, error)
}

var handlers = map[string]handler{
	"observe":  {[]string{"workspace"}, []string{"revision"}, (*Bank).actObserve},
	"propose":  {[]string{"workspace"}, []string{"expected_revision", "updates", "graph_edits", "targets", "atol", "locked_outputs", "require_target_match"}, (*Bank).actPropose},
	"commit":   {[]string{"receipt"}, []string{"message"}, (*Bank).actCommit},
	"fork":     {[]string{"workspace", "name", "expected_revision"}, nil, (*Bank).actFork},
	"undo":     {[]string{"workspace", "expected_revision"}, nil, (*Bank).actUndo},
	"compare":  {[]string{"a", "b"}, nil, (*Bank).actCompare},
	"create":   {[]string{"workspace", "spec"}, []string{"message"}, (*Bank).actCreate},
	"checkout": {[]string{"workspace", "revision"}, []string{"expected_revision"}, (*Bank).actCheckout},
	"register": {[]string{"name"}, []string{"function", "program"}, (*Bank).actRegister},
	"list":     {nil, nil, (*Bank).actList},
	"log":      {[]string{"workspace"}, nil, (*Bank).actLog},
	"events":   {[]string{"workspace"}, nil, (*Bank).actEvents},
}

func actionNames() []string { return sortedKeys(handlers) }

// str reads a required string field.
func str(m map[string]any, k string) (string, error) {
	s, ok := m[k].(string)
	if !ok {
		return "", reject(CodeMalformed, "field %q: want a string, got %s", k, jsonType(m[k]))
	}
	return s, nil
}

func optStr(m map[string]any, k string) (string, error) {
	if _, ok := m[k]; !ok {
		return "", nil
	}
	return str(m, k)
}

func malformed(err error) error {
	if err == nil {
		return nil
	}
	var le *LimitError
	if errors.As(err, &le) {
		return err
	}
	return reject(CodeMalformed, "%v", err)
}

// Observation is the result of observe.
type Observation struct {
	Workspace    string              `json:"workspace"`
	Revision     string              `json:"revision"`
	Registry     string              `json:"registry"`
	Inputs       map[string]Value    `json:"inputs"`
	Graph        json.RawMessage     `json:"graph"`
	Outputs      map[string]Value    `json:"outputs"`
	Dependencies map[string][]string `json:"potential_dependencies"`
	Trace        []TraceEntry        `json:"trace"`
	Calls        int                 `json:"calls"`
	Error        string              `json:"error,omitempty"`
}

// Observe evaluates a revision (name "" for the head).
func (b *Bank) Observe(ctx context.Context, workspace, name string) (*Observation, error) {
	rec, err := b.store.Revision(ctx, workspace, name)
	if err != nil {
		return nil, err
	}
	g, cached, err := b.contentCached(ctx, rec)
	if err != nil {
		return nil, err
	}
	reg, err := b.Registry(ctx)
	if err != nil {
		return nil, err
	}
	obs := &Observation{Workspace: workspace, Revision: rec.Name, Registry: reg.Identity(), Inputs: g.Inputs, Graph: bytes.Clone(cached.canonical),
		Outputs: map[string]Value{}, Dependencies: map[string][]string{}, Trace: []TraceEntry{}}
	var res *Result
	chk, err := cached.check(reg, g.Inputs)
	if err == nil {
		res, err = b.evaluator(reg).run(ctx, g, chk)
	}
	if res != nil {
		obs.Outputs, obs.Dependencies, obs.Trace, obs.Calls = res.Outputs, res.Dependencies, res.Trace, res.Calls
		if obs.Trace == nil {
			obs.Trace = []TraceEntry{}
		}
	}
	if err != nil {
		obs.Error = err.Error()
	}
	return obs, nil
}

func (b *Bank) actObserve(ctx context.Context, m map[string]any) (any, error) {
	ws, err := str(m, "workspace")
	if err != nil {
		return nil, err
	}
	rev, err := optStr(m, "revision")
	if err != nil {
		return nil, err
	}
	return b.Observe(ctx, ws, rev)
}

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
	p := &Proposal{Updates: map[string]Value{}}
	var err error
	if p.Workspace, err = str(m, "workspace"); err != nil {
		return nil, err
	}
	if p.ExpectedRevision, err = optStr(m, "expected_revision"); err != nil {
		return nil, err
	}
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

// Feedback is the result of a proposal (PROTOCOL.md "Propose").
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
	diff := func(bm, am map[string]Value, afterHash func(name string, v Value) string) []ValueDiff {
		out := []ValueDiff{}
		for _, n := range sortedKeys(unionKeys(bm, am)) {
			bv, bok := bm[n]
			av, aok := am[n]
			if bok && aok && sameValue(bv, av) {
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
	return Differences{
		Outputs:       diff(before.Outputs, after.Outputs, func(_ string, v Value) string { return v.Hash() }),
		Intermediates: diff(before.Values, after.Values, after.hash),
	}
}

// CommitResult is the result of commit.
type CommitResult struct {
	ProposalID string         `json:"proposal_id"`
	Revision   RevisionRecord `json:"revision"`
}

func (b *Bank) actCommit(ctx context.Context, m map[string]any) (any, error) {
	r, err := decodeReceipt(m["receipt"])
	if err != nil {
		return nil, err
	}
	msg, err := optStr(m, "message")
	if err != nil {
		return nil, err
	}
	// decodeReceipt made r.Payload canonical from this tree.
	return b.commit(ctx, r, m["receipt"].(map[string]any)["payload"], msg)
}

// DecodeReceipt accepts a receipt or a whole proposal response (ok or
// rejected) and returns the receipt.
func DecodeReceipt(raw []byte) (Receipt, error) {
	tree, err := parseJSON(raw)
	if err != nil {
		return Receipt{}, reject(CodeMalformed, "receipt: invalid JSON: %v", err)
	}
	m, ok := tree.(map[string]any)
	if !ok {
		return Receipt{}, reject(CodeMalformed, "receipt: want an object")
	}
	if _, ok := m["proposal_id"]; !ok {
		// A proposal response: {"ok", "action", "result": {... "receipt"}}
		// or {"ok": false, "error": {"details": {... "receipt"}}}.
		for _, path := range [][]string{{"result", "receipt"}, {"error", "details", "receipt"}, {"receipt"}} {
			var cur any = m
			for _, k := range path {
				cm, ok := cur.(map[string]any)
				if !ok {
					cur = nil
					break
				}
				cur = cm[k]
			}
			if cur != nil {
				return decodeReceipt(cur)
			}
		}
		return Receipt{}, reject(CodeMalformed, "receipt: neither a receipt nor a proposal response")
	}
	return decodeReceipt(m)
}

func decodeReceipt(x any) (Receipt, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return Receipt{}, reject(CodeMalformed, "receipt: want an object {proposal_id, payload, signature}")
	}
	if err := exactKeys("receipt", m, []string{"proposal_id", "payload", "signature"}, nil); err != nil {
		return Receipt{}, malformed(err)
	}
	var r Receipt
	var err error
	if r.ProposalID, err = str(m, "proposal_id"); err != nil {
		return Receipt{}, err
	}
	if r.Signature, err = str(m, "signature"); err != nil {
		return Receipt{}, err
	}
	if r.Payload, err = canonicalJSON(m["payload"]); err != nil {
		return Receipt{}, reject(CodeMalformed, "receipt.payload: %v", err)
	}
	return r, nil
}

// Commit verifies a receipt and appends the candidate as a new revision:
// the payload is unchanged (receipt_tampered), the workspace is still at the
// base revision (stale_revision), the registry is unchanged
// (registry_changed), the candidate still produces the predicted outputs
// (prediction_mismatch) and the constraints hold (constraint_failed).
func (b *Bank) Commit(ctx context.Context, r Receipt, message string) (*CommitResult, error) {
	return b.commit(ctx, r, nil, message)
}

// commit is Commit with the payload already parsed (tree, from which
// r.Payload was made canonical), or nil.
func (b *Bank) commit(ctx context.Context, r Receipt, tree any, message string) (*CommitResult, error) {
	key, err := b.store.Key(ctx)
	if err != nil {
		return nil, fmt.Errorf("commit: receipt key: %w", err)
	}
	p, err := r.open(key, tree)
	if err != nil {
		return nil, reject(CodeReceiptTampered, "receipt %s: %v", r.ProposalID, err)
	}
	// The head's record says all the checks need of it: its name and the
	// hash of its graph structure. Its content is read only for locked
	// outputs.
	head, err := b.store.Revision(ctx, p.Workspace, "")
	if err != nil {
		return nil, err
	}
	if head.Name != p.BaseRevision {
		return nil, reject(CodeStale, "workspace %s is at %s, the receipt was prepared on %s", p.Workspace, head.Name, p.BaseRevision)
	}
	reg, err := b.Registry(ctx)
	if err != nil {
		return nil, err
	}
	if id := reg.Identity(); id != p.Registry {
		return nil, reject(CodeRegistryChanged, "the registry is %s, the receipt was prepared with %s; propose again", id, p.Registry)
	}
	if head.Graph != p.Sources.BaseGraph {
		return nil, reject(CodeStale, "the base graph of %s@%s differs from the receipt's source", p.Workspace, head.Name)
	}
	// Only the outputs are compared: no trace.
	ev := &Evaluator{Registry: reg, Runner: b.runner, Budget: b.budget, untraced: true}
	canonical := p.Candidate.Structure()
	structure := HashBytes(canonical)
	cached := b.cache.get(structure)
	if cached == nil {
		cached = b.cache.put(structure, canonical, p.Candidate.Nodes, p.Candidate.Outputs)
	}
	chk, err := cached.check(reg, p.Candidate.Inputs)
	if err != nil {
		return nil, &ActionError{Code: CodePredictionMismatch, Message: "the candidate no longer evaluates: " + err.Error()}
	}
	after, err := ev.run(ctx, p.Candidate, chk)
	if err != nil {
		if ctx.Err() != nil {
			// Interrupted: nothing is known about the candidate.
			return nil, err
		}
		return nil, &ActionError{Code: CodePredictionMismatch, Message: "the candidate no longer evaluates: " + err.Error()}
	}
	var mismatched []string
	for _, name := range sortedKeys(unionKeys(after.Outputs, p.PredictedOutputs)) {
		got, gok := after.Outputs[name]
		want, wok := p.PredictedOutputs[name]
		if !gok || !wok || !got.Equal(want) {
			mismatched = append(mismatched, name)
		}
	}
	if len(mismatched) > 0 {
		return nil, &ActionError{Code: CodePredictionMismatch, Message: "outputs differ from the prediction: " + strings.Join(mismatched, ", "),
			Details: map[string]any{"outputs": mismatched}}
	}
	// Only locked outputs need the head's outputs.
	before := &Result{Outputs: map[string]Value{}}
	if len(p.Constraints.LockedOutputs) > 0 {
		g, cached, err := b.contentCached(ctx, head)
		if err != nil {
			return nil, err
		}
		var res *Result
		chk, err := cached.check(reg, g.Inputs)
		if err == nil {
			res, err = ev.run(ctx, g, chk)
		}
		if err != nil && ctx.Err() != nil {
			return nil, err
		}
		if res != nil {
			before = res
		}
	}
	prot, cons := checkConstraints(p.Constraints, before.Outputs, after.Outputs)
	var failed []string
	for _, c := range prot {
		if !c.OK {
			failed = append(failed, "locked output "+c.Output+": "+c.Reason)
		}
	}
	for _, c := range cons {
		if !c.OK {
			failed = append(failed, c.Name+": "+c.Message)
		}
	}
	if len(failed) > 0 {
		return nil, &ActionError{Code: CodeConstraintFailed, Message: strings.Join(failed, "; "),
			Details: map[string]any{"protected_outputs": prot, "constraints": cons}}
	}
	if message == "" {
		message = "commit " + r.ProposalID
	}
	rec, err := b.appendChecked(ctx, head, p.Candidate, reg, "commit", head.Name, message)
	if err != nil {
		if errors.Is(err, ErrStale) {
			return nil, reject(CodeStale, "workspace %s moved past %s during the commit", p.Workspace, head.Name)
		}
		return nil, err
	}
	b.log.Info("receipt committed", zap.String("workspace", p.Workspace), zap.String("revision", rec.Name), zap.String("proposal", r.ProposalID))
	return &CommitResult{ProposalID: r.ProposalID, Revision: rec}, nil
}

func unionKeys(a, b map[string]Value) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func (b *Bank) actFork(ctx context.Context, m map[string]any) (any, error) {
	ws, err := str(m, "workspace")
	if err != nil {
		return nil, err
	}
	name, err := str(m, "name")
	if err != nil {
		return nil, err
	}
	exp, err := str(m, "expected_revision")
	if err != nil {
		return nil, err
	}
	if !validName(name) {
		return nil, reject(CodeInvalidName, "invalid workspace name %q", name)
	}
	return b.Fork(ctx, ws, name, exp)
}

func (b *Bank) actUndo(ctx context.Context, m map[string]any) (any, error) {
	ws, err := str(m, "workspace")
	if err != nil {
		return nil, err
	}
	exp, err := str(m, "expected_revision")
	if err != nil {
		return nil, err
	}
	return b.Undo(ctx, ws, exp)
}

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
	a, err := str(m, "a")
	if err != nil {
		return nil, err
	}
	bb, err := str(m, "b")
	if err != nil {
		return nil, err
	}
	return b.Compare(ctx, a, bb)
}

func (b *Bank) actCreate(ctx context.Context, m map[string]any) (any, error) {
	ws, err := str(m, "workspace")
	if err != nil {
		return nil, err
	}
	msg, err := optStr(m, "message")
	if err != nil {
		return nil, err
	}
	if !validName(ws) {
		return nil, reject(CodeInvalidName, "invalid workspace name %q", ws)
	}
	g, err := decodeGraphTree("spec", m["spec"])
	if err != nil {
		return nil, malformed(err)
	}
	return b.Create(ctx, ws, g, msg)
}

func (b *Bank) actCheckout(ctx context.Context, m map[string]any) (any, error) {
	ws, err := str(m, "workspace")
	if err != nil {
		return nil, err
	}
	rev, err := str(m, "revision")
	if err != nil {
		return nil, err
	}
	exp, err := optStr(m, "expected_revision")
	if err != nil {
		return nil, err
	}
	if _, ok := ParseRevisionName(rev); !ok {
		return nil, reject(CodeMalformed, "revision %q: want rNNNNNN", rev)
	}
	return b.Checkout(ctx, ws, rev, exp)
}

// RegisterResult is the result of register.
type RegisterResult struct {
	Name     string `json:"name"`
	Registry string `json:"registry"`
}

func (b *Bank) actRegister(ctx context.Context, m map[string]any) (any, error) {
	name, err := str(m, "name")
	if err != nil {
		return nil, err
	}
	if !ValidOpName(name) {
		return nil, reject(CodeInvalidName, "invalid operation name %q", name)
	}
	fx, hasF := m["function"]
	px, hasP := m["program"]
	var id string
	switch {
	case hasF == hasP:
		return nil, reject(CodeMalformed, "want exactly one of \"function\" or \"program\"")
	case hasF:
		f, err := decodeFunctionTree("function", fx)
		if err != nil {
			return nil, malformed(err)
		}
		if id, err = b.Register(ctx, name, f); err != nil {
			return nil, registerError(err)
		}
	default:
		v, err := decodeValueTree("program", px)
		if err != nil {
			return nil, malformed(err)
		}
		if id, err = b.RegisterProgram(ctx, name, v); err != nil {
			return nil, registerError(err)
		}
	}
	return RegisterResult{Name: name, Registry: id}, nil
}

func registerError(err error) error {
	if errors.Is(err, ErrExists) {
		return reject(CodeExists, "%v", err)
	}
	var ae *ActionError
	if errors.As(err, &ae) {
		return err
	}
	return reject(CodeInvalidGraph, "%v", err)
}

func (b *Bank) actList(ctx context.Context, m map[string]any) (any, error) {
	ws, err := b.Workspaces(ctx)
	if err != nil {
		return nil, err
	}
	reg, err := b.Registry(ctx)
	if err != nil {
		return nil, err
	}
	if ws == nil {
		ws = []WorkspaceInfo{}
	}
	var fns []OpInfo
	for _, op := range reg.Listing() {
		if op.Kind != "builtin" {
			fns = append(fns, op)
		}
	}
	if fns == nil {
		fns = []OpInfo{}
	}
	return map[string]any{"workspaces": ws, "registry": reg.Identity(), "functions": fns}, nil
}

func (b *Bank) actLog(ctx context.Context, m map[string]any) (any, error) {
	ws, err := str(m, "workspace")
	if err != nil {
		return nil, err
	}
	log, err := b.Log(ctx, ws)
	if err != nil {
		return nil, err
	}
	return map[string]any{"workspace": ws, "revisions": log}, nil
}

func (b *Bank) actEvents(ctx context.Context, m map[string]any) (any, error) {
	ws, err := str(m, "workspace")
	if err != nil {
		return nil, err
	}
	ev, err := b.Events(ctx, ws)
	if err != nil {
		return nil, err
	}
	if ev == nil {
		ev = []Event{}
	}
	return map[string]any{"workspace": ws, "events": ev}, nil
}
