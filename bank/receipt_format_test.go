package bank

import (
	"errors"
	"strings"
	"testing"

	recordstamp "github.com/reconstruct/reconstruct/internal/stamp"
)

// A receipt of a newer format is refused as every record of a newer
// format is (internal/stamp's ErrNewerFormat, the same message); one of this format
// or an older one is read on.
func TestReceiptFormats(t *testing.T) {
	for _, tt := range []struct {
		format, want string
		newer        bool
	}{
		{"2", "payload.format: receipt: written in a newer format: format 2; this reconstruct", true},
		{"0", "payload.format: unsupported receipt format 0, want 1 to 1", false},
		{"1", "payload.sources", false},
	} {
		t.Run(tt.format, func(t *testing.T) {
			tree, err := parseJSON([]byte(`{"format":` + tt.format + `,"workspace":"w","base_revision":"r000001","registry":"x",` +
				`"candidate":7,"predicted_outputs":{},"constraints":[],"sources":{}}`))
			if err != nil {
				t.Fatal(err)
			}
			_, err = decodePayload(tree, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) || errors.Is(err, recordstamp.ErrNewerFormat) != tt.newer {
				t.Errorf("decodePayload: %v, want %q (newer format: %v)", err, tt.want, tt.newer)
			}
		})
	}
}
