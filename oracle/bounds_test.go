package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type answering []Answer

func (a answering) Query(context.Context, []json.RawMessage) ([]Answer, error) { return a, nil }
func (a answering) Close() error                                               { return nil }

func TestBounded(t *testing.T) {
	b := Bounds{MaxDepth: 3, MaxBytes: 16}
	tests := []struct {
		name    string
		answers []Answer
		key     string // "" for no error
		index   int
	}{
		{name: "within the bounds", answers: []Answer{{Output: json.RawMessage(`[[[1]]]`)}, {Invalid: "no"}}},
		{name: "too deep", answers: []Answer{{Output: json.RawMessage(`1`)}, {Output: json.RawMessage(`[[[[1]]]]`)}}, key: KeyMaxDepth, index: 2},
		{name: "too large", answers: []Answer{{Output: json.RawMessage(`"0123456789abcdef"`)}}, key: KeyMaxBytes, index: 1},
		{name: "not UTF-8", answers: []Answer{{Output: json.RawMessage("\"\xff\"")}}, key: KeyUTF8, index: 1},
		{name: "a rejected input is not an output", answers: []Answer{{Invalid: strings.Repeat("x", 100)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inputs := []json.RawMessage{json.RawMessage(`10`), json.RawMessage(`20`)}
			_, err := Bounded(answering(tt.answers), b).Query(context.Background(), inputs[:len(tt.answers)])
			var be *BoundError
			switch {
			case tt.key == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tt.key == "":
			case !errors.As(err, &be) || be.Key != tt.key || be.Index != tt.index || string(be.Input) != string(inputs[tt.index-1]):
				t.Fatalf("err = %#v, want a BoundError of %s at input %d", err, tt.key, tt.index)
			case !strings.HasPrefix(err.Error(), tt.key+": the hidden program's answer to input"):
				t.Errorf("message %q does not start with the bound", err)
			}
		})
	}
}
