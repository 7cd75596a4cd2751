package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

func TestRunProfile(t *testing.T) {
	t.Parallel()
	testenv.NeedPython(t)
	dir := t.TempDir()
	prof := filepath.Join(dir, "prof")
	r := cli(t, dir, []string{"RECONSTRUCT_SANDBOX_KIND=process", "RECONSTRUCT_SANDBOX_CALL_TIMEOUT=120s"},
		"run", "--config", quickstartPath(t), "--workspace", filepath.Join(dir, "ws"), "--profile", prof)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "profile: wall ") || !strings.Contains(r.stderr, "sandbox processes' CPU") {
		t.Errorf("stderr has no profile summary:\n%s", r.stderr)
	}
	// The peak memory beside the CPU time: the resident set's and the Go
	// heap's, neither of them zero.
	m := regexp.MustCompile(`peak memory (\d+) MiB resident, (\d+) MiB Go heap`).FindStringSubmatch(r.stderr)
	if m == nil || m[1] == "0" || m[2] == "0" {
		t.Errorf("profile summary gives no peak memory (%q):\n%s", m, r.stderr)
	}
	for _, name := range []string{profileCPU, profileAllocs} {
		data, err := os.ReadFile(filepath.Join(prof, name))
		if err != nil {
			t.Fatal(err)
		}
		// A pprof file is a gzip-compressed protocol buffer.
		if len(data) < 100 || data[0] != 0x1f || data[1] != 0x8b {
			t.Errorf("%s: %d bytes, not a pprof profile", name, len(data))
		}
	}
}

func TestRunProfileBadDirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	busy := filepath.Join(dir, "busy")
	if err := os.MkdirAll(filepath.Join(busy, profileCPU), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, dir, want string }{
		{"a file", file, file},
		{"a directory in the way", busy, filepath.Join(busy, profileCPU)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := filepath.Join(dir, "ws")
			r := cli(t, dir, nil, "run", "--config", quickstartPath(t), "--workspace", ws, "--profile", tc.dir)
			if r.code != 2 || !strings.Contains(r.stderr, "--profile") || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 naming --profile and %s", r.code, r.stderr, tc.want)
			}
			if _, err := os.Stat(ws); err == nil {
				t.Errorf("a refused --profile created the workspace")
			}
		})
	}
}
