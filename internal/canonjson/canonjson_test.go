package canonjson

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"testing"
)

// errLeaf is what the test encoder's Scalar returns for a value it refuses.
var errLeaf = errors.New("refused")

func TestWrite(t *testing.T) {
	// The test encoder quotes strings with strconv (so a test sees that keys
	// and values go through String) and writes ints, refusing anything else.
	e := Encoder{
		String: func(buf *bytes.Buffer, s string) { buf.WriteString(strconv.Quote(s)) },
		Scalar: func(buf *bytes.Buffer, v any) error {
			n, ok := v.(int)
			if !ok {
				return fmt.Errorf("%T: %w", v, errLeaf)
			}
			buf.WriteString(strconv.Itoa(n))
			return nil
		},
		MaxDepth: 2,
	}
	nest := func(v any, n int) any {
		for range n {
			v = []any{v}
		}
		return v
	}
	tests := []struct {
		name    string
		v       any
		want    string
		wantErr error // nil for success
	}{
		{"null", nil, "null", nil},
		{"booleans", []any{true, false}, "[true,false]", nil},
		{"string", "a\tb", `"a\tb"`, nil},
		{"scalar", 42, "42", nil},
		{"empty containers", []any{[]any{}, map[string]any{}}, "[[],{}]", nil},
		{"keys sorted, quoted by String", map[string]any{"b": 1, "a": "x\n", "c": nil}, `{"a":"x\n","b":1,"c":null}`, nil},
		{"as deep as allowed", nest(1, 2), "[[1]]", nil},
		{"too deep", nest(1, 3), "", errors.New("JSON nested deeper than 2 levels")},
		{"scalar refused inside an array", []any{1, 2.5}, "", errLeaf},
		{"scalar refused inside an object", map[string]any{"a": uint(1)}, "", errLeaf},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := e.Write(&buf, tt.v)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("error %v", err)
			case tt.wantErr == nil:
				if got := buf.String(); got != tt.want {
					t.Errorf("got %s, want %s", got, tt.want)
				}
			case err == nil:
				t.Fatalf("wrote %s, want error %v", buf.String(), tt.wantErr)
			case !errors.Is(err, tt.wantErr) && err.Error() != tt.wantErr.Error():
				t.Errorf("error %v, want %v", err, tt.wantErr)
			}
		})
	}
}

// TestUnbounded checks that MaxDepth 0 puts no bound on the nesting.
func TestUnbounded(t *testing.T) {
	e := Encoder{String: func(buf *bytes.Buffer, s string) { buf.WriteString(strconv.Quote(s)) }}
	var v any = "x"
	for range 1000 {
		v = map[string]any{"k": v}
	}
	var buf bytes.Buffer
	if err := e.Write(&buf, v); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.Len(), 1000*len(`{"k":}`)+len(`"x"`); got != want {
		t.Errorf("wrote %d bytes, want %d", got, want)
	}
}
