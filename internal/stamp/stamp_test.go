package stamp

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		reads   int
		wantErr string
	}{
		{name: "no stamp: format 1, the format before stamps", json: `{}`, reads: 1},
		{name: "the same major", json: `{"format": 1, "producer": "v0.1.0"}`, reads: 1},
		{name: "an older major", json: `{"format": 1}`, reads: 2},
		{name: "a newer major", json: `{"format": 3, "producer": "v9.0.0"}`, reads: 2,
			wantErr: "result.json: written in a newer format: format 3, written by reconstruct v9.0.0; this reconstruct"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Stamp
			if err := json.Unmarshal([]byte(tt.json), &s); err != nil {
				t.Fatal(err)
			}
			err := s.Check("result.json", tt.reads)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrNewerFormat) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Check = %v, want ErrNewerFormat and %q", err, tt.wantErr)
			}
		})
	}
}

func TestNewNamesTheProducerAndHarness(t *testing.T) {
	const harness = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	s := New(2, harness)
	if s.Format != 2 || s.Producer == "" || s.Producer != Producer() || s.Harness != harness {
		t.Errorf("New(2) = %+v", s)
	}
}
