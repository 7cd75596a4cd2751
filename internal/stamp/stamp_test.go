package stamp

import (
	"encoding/json"
	"errors"
	"reflect"
	"runtime/debug"
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

func TestBuildOf(t *testing.T) {
	const rev = "7ad7bbdae60605eba68b02659216e91795883ed0"
	clean := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-11-30T00:29:19Z"}, {Key: "vcs.modified", Value: "false"}}}
	tests := []struct {
		name         string
		info         *debug.BuildInfo
		ok           bool
		set          string
		wantText     string
		wantProducer string
	}{
		{"a module version with its revision", clean, true, "",
			"v1.2.3 (revision 7ad7bbdae606, 2026-11-30T00:29:19Z, go1.26.8)", "v1.2.3+7ad7bbdae606"},
		{"a version set as it was linked wins", clean, true, "v2.0.0-rc1",
			"v2.0.0-rc1 (revision 7ad7bbdae606, 2026-11-30T00:29:19Z, go1.26.8)", "v2.0.0-rc1+7ad7bbdae606"},
		{"a build from a checkout with changes", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}}, true, "",
			"devel (revision 7ad7bbdae606+dirty, go1.26.8)", "devel+7ad7bbdae606"},
		{"no revision recorded", &debug.BuildInfo{GoVersion: "go1.26.8"}, true, "",
			"devel (no VCS revision recorded, go1.26.8)", "devel"},
		{"no build information", nil, false, "", "unknown (built without module information)", "unknown"},
		{"no build information, a version set", nil, false, "v1.0.0", "v1.0.0", "v1.0.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := BuildOf(tt.info, tt.ok, tt.set)
			if b.Text != tt.wantText || b.Producer() != tt.wantProducer {
				t.Errorf("BuildOf = text %q, producer %q; want %q, %q", b.Text, b.Producer(), tt.wantText, tt.wantProducer)
			}
		})
	}
	// The variable a release sets is this package's.
	if pkg := reflect.TypeOf(Build{}).PkgPath(); !strings.HasPrefix(VersionVar, pkg+".") {
		t.Errorf("VersionVar %s is not in package %s", VersionVar, pkg)
	}
}
