package bank

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestFields checks that an action's fields read in one go report the first
// missing or mistyped field in reading order, and that later reads neither
// replace that error nor return values.
func TestFields(t *testing.T) {
	m := map[string]any{"workspace": "w", "revision": "r000001", "count": json.Number("3")}
	tests := []struct {
		name    string
		read    func(f *fields) []string
		want    []string
		wantErr string // "" for none
	}{
		{"required fields", func(f *fields) []string { return []string{f.str("workspace"), f.str("revision")} },
			[]string{"w", "r000001"}, ""},
		{"optional field absent", func(f *fields) []string { return []string{f.str("workspace"), f.optStr("message")} },
			[]string{"w", ""}, ""},
		{"optional field present", func(f *fields) []string { return []string{f.optStr("revision")} },
			[]string{"r000001"}, ""},
		{"required field missing", func(f *fields) []string { return []string{f.str("name"), f.str("workspace")} },
			[]string{"", ""}, `malformed_request: field "name": want a string, got null`},
		{"first error kept", func(f *fields) []string { return []string{f.str("workspace"), f.str("count"), f.str("name")} },
			[]string{"w", "", ""}, `malformed_request: field "count": want a string, got number`},
		{"optional field of another type", func(f *fields) []string { return []string{f.optStr("count")} },
			[]string{""}, `malformed_request: field "count": want a string, got number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fields{m: m}
			got := tt.read(&f)
			for i := range tt.want {
				if got[i] != tt.want[i] {
					t.Errorf("read %d = %q, want %q", i, got[i], tt.want[i])
				}
			}
			if tt.wantErr == "" {
				if f.err != nil {
					t.Errorf("err = %v, want none", f.err)
				}
				return
			}
			var ae *ActionError
			if !errors.As(f.err, &ae) || ae.Code != CodeMalformed || f.err.Error() != tt.wantErr {
				t.Errorf("err = %v, want %s", f.err, tt.wantErr)
			}
		})
	}
}
