package bank

import "context"

func (b *Bank) actFork(ctx context.Context, m map[string]any) (any, error) {
	f := fields{m: m}
	ws, name, exp := f.str("workspace"), f.str("name"), f.str("expected_revision")
	if f.err != nil {
		return nil, f.err
	}
	if !validName(name) {
		return nil, reject(CodeInvalidName, "invalid workspace name %q", name)
	}
	return b.Fork(ctx, ws, name, exp)
}

func (b *Bank) actUndo(ctx context.Context, m map[string]any) (any, error) {
	f := fields{m: m}
	ws, exp := f.str("workspace"), f.str("expected_revision")
	if f.err != nil {
		return nil, f.err
	}
	return b.Undo(ctx, ws, exp)
}

func (b *Bank) actCreate(ctx context.Context, m map[string]any) (any, error) {
	f := fields{m: m}
	ws, msg := f.str("workspace"), f.optStr("message")
	if f.err != nil {
		return nil, f.err
	}
	if !validName(ws) {
		return nil, reject(CodeInvalidName, "invalid workspace name %q", ws)
	}
	g, err := decodeGraphTree("spec", m["spec"], nil)
	if err != nil {
		return nil, malformed(err)
	}
	return b.Create(ctx, ws, g, msg)
}

func (b *Bank) actCheckout(ctx context.Context, m map[string]any) (any, error) {
	f := fields{m: m}
	ws, rev, exp := f.str("workspace"), f.str("revision"), f.optStr("expected_revision")
	if f.err != nil {
		return nil, f.err
	}
	if _, ok := ParseRevisionName(rev); !ok {
		return nil, reject(CodeMalformed, "revision %q: want rNNNNNN", rev)
	}
	return b.Checkout(ctx, ws, rev, exp)
}
