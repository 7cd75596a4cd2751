package docker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestContainerPath(t *testing.T) {
	ws := t.TempDir()
	task := t.TempDir()
	for _, f := range []string{"hidden.py", HeldoutFile} {
		if err := os.WriteFile(filepath.Join(task, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(t.TempDir(), "ws-link")
	if err := os.Symlink(ws, link); err != nil {
		t.Fatal(err)
	}
	mounts, err := resolveMounts([]Mount{WorkspaceMount(ws), ProgramMount(task)})
	if err != nil {
		t.Fatalf("resolveMounts: %v", err)
	}
	if got, want := mounts[1].hide, []string{"/oracle/heldout.jsonl"}; !cmp.Equal(got, want) {
		t.Errorf("hidden files = %v, want %v", got, want)
	}
	tests := []struct {
		host    string
		want    string
		wantErr bool
	}{
		{host: filepath.Join(ws, "candidate.py"), want: "/workspace/candidate.py"},
		{host: filepath.Join(ws, "sub", "x.py"), want: "/workspace/sub/x.py"},
		{host: filepath.Join(link, "candidate.py"), want: "/workspace/candidate.py"},
		{host: filepath.Join(task, "hidden.py"), want: "/oracle/hidden.py"},
		{host: "/workspace/candidate.py", want: "/workspace/candidate.py"},
		{host: filepath.Join(ws, "..", "elsewhere.py"), wantErr: true},
		{host: "/etc/passwd", wantErr: true},
	}
	for _, tt := range tests {
		got, err := containerPath(mounts, tt.host)
		if (err != nil) != tt.wantErr {
			t.Errorf("containerPath(%s) error = %v, want error %v", tt.host, err, tt.wantErr)
			continue
		}
		if got != tt.want {
			t.Errorf("containerPath(%s) = %q, want %q", tt.host, got, tt.want)
		}
	}
}

func TestResolveMountsRejects(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		m    []Mount
	}{
		{"relative target", []Mount{{Source: dir, Target: "workspace"}}},
		{"root target", []Mount{{Source: dir, Target: "/"}}},
		{"missing source", []Mount{{Source: filepath.Join(dir, "nope"), Target: "/x"}}},
		{"file source", []Mount{{Source: file, Target: "/x"}}},
		{"same target twice", []Mount{{Source: dir, Target: "/x"}, {Source: dir, Target: "/x/"}}},
		{"hidden file outside", []Mount{{Source: dir, Target: "/x", Hide: []string{"../f"}}}},
	}
	for _, tt := range tests {
		if _, err := resolveMounts(tt.m); err == nil {
			t.Errorf("%s: resolveMounts accepted %+v", tt.name, tt.m)
		}
	}
}
