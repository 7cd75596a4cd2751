package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	dockerspec "github.com/moby/docker-image-spec/specs-go/v1"

	"github.com/reconstruct/reconstruct/sandbox"
	"github.com/reconstruct/reconstruct/sandbox/docker"
)

func TestSandboxCmdFlags(t *testing.T) {
	tests := []struct {
		args  []string
		build *buildImageOptions
		prune *pruneOptions
	}{
		{
			args:  []string{"build-image"},
			build: &buildImageOptions{CacheDir: docker.DefaultCacheDir},
		},
		{
			args:  []string{"build-image", "--image", "runner:x", "--mirror", "http://mirror.test/debian", "--suite", "trixie", "--keyring", "/k.gpg", "--cache-dir", "/c", "--json"},
			build: &buildImageOptions{Image: "runner:x", Mirror: "http://mirror.test/debian", Suite: "trixie", Keyring: "/k.gpg", CacheDir: "/c", JSON: true},
		},
		{args: []string{"prune"}, prune: &pruneOptions{}},
		{args: []string{"prune", "--run-id", "r1"}, prune: &pruneOptions{RunID: "r1"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var gotBuild *buildImageOptions
			var gotPrune *pruneOptions
			a := &app{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
			cmd := group(newSandboxCmd(),
				newBuildImageCmd(a, func(_ context.Context, o buildImageOptions) error { gotBuild = &o; return nil }),
				newPruneCmd(a, func(_ context.Context, o pruneOptions) error { gotPrune = &o; return nil }),
			)
			cmd.SetArgs(tt.args)
			cmd.SetOut(io.Discard)
			if err := cmd.Execute(); err != nil {
				t.Fatalf("execute: %v", err)
			}
			ignore := cmpopts.IgnoreFields(buildImageOptions{}, "Out", "Log", "Getenv", "API")
			if diff := cmp.Diff(tt.build, gotBuild, ignore); diff != "" {
				t.Errorf("build-image options (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.prune, gotPrune, cmpopts.IgnoreFields(pruneOptions{}, "Out", "API")); diff != "" {
				t.Errorf("prune options (-want +got):\n%s", diff)
			}
		})
	}
}

// fakeEngine answers the few calls the sandbox commands make; any other
// call panics on the nil embedded interface.
type fakeEngine struct {
	client.APIClient
	images     map[string]image.InspectResponse
	inspectErr error
	containers []container.Summary
	removeErr  error
	removed    []string
}

func (f *fakeEngine) Ping(context.Context) (types.Ping, error) { return types.Ping{}, nil }

func (f *fakeEngine) ImageInspect(_ context.Context, ref string, _ ...client.ImageInspectOption) (image.InspectResponse, error) {
	if f.inspectErr != nil {
		return image.InspectResponse{}, f.inspectErr
	}
	img, ok := f.images[ref]
	if !ok {
		return img, notFound{}
	}
	return img, nil
}

func (f *fakeEngine) ContainerList(context.Context, container.ListOptions) ([]container.Summary, error) {
	return f.containers, nil
}

func (f *fakeEngine) ContainerRemove(_ context.Context, id string, _ container.RemoveOptions) error {
	if f.removeErr != nil {
		return f.removeErr
	}
	f.removed = append(f.removed, id)
	return nil
}

type notFound struct{}

func (notFound) Error() string { return "no such image" }
func (notFound) NotFound()     {}

func TestRunBuildImage(t *testing.T) {
	present := image.InspectResponse{
		ID:     "sha256:0123456789abcdef0123",
		Config: &dockerspec.DockerOCIImageConfig{},
	}
	present.Config.Labels = map[string]string{docker.LabelHarness: docker.HarnessDigest([]byte(sandbox.Harness))}
	tests := []struct {
		name     string
		opts     buildImageOptions
		engine   *fakeEngine
		wantOut  string
		wantCode int
	}{
		{
			name:    "already present",
			engine:  &fakeEngine{images: map[string]image.InspectResponse{docker.DefaultImage(): present}},
			wantOut: "image " + docker.DefaultImage() + " already present (0123456789ab); nothing to do\n",
		},
		{
			name:    "image from the environment, JSON",
			opts:    buildImageOptions{JSON: true, Getenv: func(k string) string { return map[string]string{"RECONSTRUCT_SANDBOX_IMAGE": "mine:1"}[k] }},
			engine:  &fakeEngine{images: map[string]image.InspectResponse{"mine:1": present}},
			wantOut: `{"image":"mine:1","id":"sha256:0123456789abcdef0123","built":false,"replaced":false,"rootfs_cached":false}` + "\n",
		},
		{
			name:     "engine error is an infrastructure failure",
			engine:   &fakeEngine{inspectErr: errors.New("engine on fire")},
			wantCode: exitInfra,
		},
		{
			name:     "bad image name",
			opts:     buildImageOptions{Image: "has space:1"},
			engine:   &fakeEngine{},
			wantCode: exitUsage,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			tt.opts.Out, tt.opts.API = &out, tt.engine
			err := runBuildImage(context.Background(), tt.opts)
			if got := exitCode(err); got != tt.wantCode {
				t.Fatalf("exit code %d (%v), want %d", got, err, tt.wantCode)
			}
			if tt.wantCode == 0 && out.String() != tt.wantOut {
				t.Errorf("output %q, want %q", out.String(), tt.wantOut)
			}
		})
	}
}

func TestRunPrune(t *testing.T) {
	tests := []struct {
		name     string
		engine   *fakeEngine
		wantOut  string
		wantCode int
	}{
		{
			name:    "removes every labelled container",
			engine:  &fakeEngine{containers: []container.Summary{{ID: "aaaaaaaaaaaaaaaa1"}, {ID: "bbbbbbbbbbbbbbbb2"}}},
			wantOut: "removed container aaaaaaaaaaaa\nremoved container bbbbbbbbbbbb\n",
		},
		{name: "nothing to do", engine: &fakeEngine{}, wantOut: "nothing to remove\n"},
		{
			name:     "removal failure",
			engine:   &fakeEngine{containers: []container.Summary{{ID: "c1"}}, removeErr: errors.New("device busy")},
			wantCode: exitInfra,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := runPrune(context.Background(), pruneOptions{Out: &out, API: tt.engine, TmpDir: t.TempDir()})
			if got := exitCode(err); got != tt.wantCode {
				t.Fatalf("exit code %d (%v), want %d", got, err, tt.wantCode)
			}
			if out.String() != tt.wantOut {
				t.Errorf("output %q, want %q", out.String(), tt.wantOut)
			}
		})
	}
}

func TestUnreachableEngineExits3(t *testing.T) {
	t.Setenv("DOCKER_HOST", "unix:///nonexistent/reconstruct-test.sock")
	for _, run := range []func() error{
		func() error {
			return runPrune(context.Background(), pruneOptions{Out: io.Discard, TmpDir: t.TempDir()})
		},
		func() error { return runBuildImage(context.Background(), buildImageOptions{Out: io.Discard}) },
	} {
		err := run()
		if got := exitCode(err); got != exitInfra {
			t.Errorf("exit code %d (%v), want %d", got, err, exitInfra)
		}
		if err == nil || !strings.Contains(err.Error(), "does not answer") {
			t.Errorf("error %v does not say the engine does not answer", err)
		}
	}
}
