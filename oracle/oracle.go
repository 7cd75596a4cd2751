package oracle

import (
	"context"
	"encoding/json"
)

// Answer is the hidden program's response to one input.
type Answer struct {
	Output json.RawMessage `json:"output,omitempty"`
	// Invalid, when non-empty, says why the hidden program rejected the input.
	Invalid string `json:"invalid,omitempty"`
}

// Oracle answers queries to a hidden program.
type Oracle interface {
	Query(ctx context.Context, inputs []json.RawMessage) ([]Answer, error)
	Close() error
}
