package bank

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.uber.org/zap"
)

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
	f := fields{m: m}
	msg := f.optStr("message")
	if f.err != nil {
		return nil, f.err
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
	f := fields{m: m}
	r := Receipt{ProposalID: f.str("proposal_id"), Signature: f.str("signature")}
	if f.err != nil {
		return Receipt{}, f.err
	}
	var err error
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
	p, cached, err := r.open(key, tree, &b.cache)
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
	if cached == nil {
		canonical := p.Candidate.Structure()
		cached = b.cache.put(HashBytes(canonical), canonical, p.Candidate.Nodes, p.Candidate.Outputs)
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
	rec, err := b.appendChecked(ctx, head, p.Candidate, cached, reg, "commit", head.Name, message)
	if err != nil {
		if errors.Is(err, ErrStale) {
			return nil, reject(CodeStale, "workspace %s moved past %s during the commit", p.Workspace, head.Name)
		}
		return nil, err
	}
	b.log.Info("receipt committed", zap.String("workspace", p.Workspace), zap.String("revision", rec.Name), zap.String("proposal", r.ProposalID))
	return &CommitResult{ProposalID: r.ProposalID, Revision: rec}, nil
}
