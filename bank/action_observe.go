package bank

import (
	"bytes"
	"context"
	"encoding/json"
)

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
	f := fields{m: m}
	ws, rev := f.str("workspace"), f.optStr("revision")
	if f.err != nil {
		return nil, f.err
	}
	return b.Observe(ctx, ws, rev)
}
