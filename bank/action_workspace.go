package bank

import "context"

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
	g, err := decodeGraphTree("spec", m["spec"], nil)
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
