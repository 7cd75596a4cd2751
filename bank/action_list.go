package bank

import "context"

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
	f := fields{m: m}
	ws := f.str("workspace")
	if f.err != nil {
		return nil, f.err
	}
	log, err := b.Log(ctx, ws)
	if err != nil {
		return nil, err
	}
	return map[string]any{"workspace": ws, "revisions": log}, nil
}

func (b *Bank) actEvents(ctx context.Context, m map[string]any) (any, error) {
	f := fields{m: m}
	ws := f.str("workspace")
	if f.err != nil {
		return nil, f.err
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
