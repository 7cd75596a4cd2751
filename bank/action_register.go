package bank

import (
	"context"
	"errors"
)

// RegisterResult is the result of register.
type RegisterResult struct {
	Name     string `json:"name"`
	Registry string `json:"registry"`
}

func (b *Bank) actRegister(ctx context.Context, m map[string]any) (any, error) {
	f := fields{m: m}
	name := f.str("name")
	if f.err != nil {
		return nil, f.err
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
