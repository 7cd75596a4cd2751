package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/image"
	"github.com/google/go-cmp/cmp"

	"github.com/reconstruct/reconstruct/sandbox"
)

func TestDefaultImageCarriesHarnessDigest(t *testing.T) {
	got := DefaultImage()
	want := DefaultImageRepo + ":" + HarnessDigest([]byte(sandbox.Harness))[:12]
	if got != want {
		t.Errorf("DefaultImage() = %q, want %q", got, want)
	}
	if a, b := HarnessDigest([]byte("a")), HarnessDigest([]byte("b")); a == b {
		t.Errorf("HarnessDigest does not depend on the harness: %s", a)
	}
}

func TestWriteImageTar(t *testing.T) {
	dir := t.TempDir()
	rootfs := filepath.Join(dir, "rootfs.tar")
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range []*tar.Header{
		{Name: "./", Typeflag: tar.TypeDir, Mode: 0o755},
		{Name: "./opt/", Typeflag: tar.TypeDir, Mode: 0o755},
		{Name: "./usr/bin/python3", Typeflag: tar.TypeReg, Mode: 0o755, Size: 3},
	} {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			tw.Write([]byte("elf"))
		}
	}
	tw.Close()
	if err := os.WriteFile(rootfs, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := writeImageTar(&out, rootfs, []byte("print('harness')\n")); err != nil {
		t.Fatalf("writeImageTar: %v", err)
	}
	tr := tar.NewReader(&out)
	var names []string
	var harness string
	var harnessMode int64
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if h.Name == "."+HarnessPath {
			b, _ := io.ReadAll(tr)
			harness, harnessMode = string(b), h.Mode
		}
	}
	want := []string{"./", "./opt/", "./usr/bin/python3", "./opt/reconstruct/", "./workspace/", "./oracle/", "./opt/reconstruct/harness.py"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if harness != "print('harness')\n" || harnessMode != 0o444 {
		t.Errorf("harness entry = %q mode %o, want the harness, mode 444", harness, harnessMode)
	}
}

// TestBuildImage builds an image under a test name with a harness of its
// own, then builds it again: the second build must do nothing.
func TestBuildImage(t *testing.T) {
	api := needEngine(t)
	if os.Geteuid() != 0 {
		skipOrFail(t, "building the image runs debootstrap, which needs root")
	}
	ctx := context.Background()
	ref := "reconstruct-runner-test:build"
	harness := []byte("# build-image test\n" + sandbox.Harness)
	api.ImageRemove(ctx, ref, image.RemoveOptions{Force: true})
	t.Cleanup(func() { api.ImageRemove(context.Background(), ref, image.RemoveOptions{Force: true}) })

	opts := BuildOptions{Image: ref, Harness: harness, CacheDir: testCacheDir()}
	first, err := BuildImage(ctx, api, opts)
	if err != nil {
		t.Fatalf("first build: %v", err)
	}
	if !first.Built || first.Image != ref || first.ID == "" {
		t.Errorf("first build = %+v, want built %s", first, ref)
	}
	if !strings.HasPrefix(first.String(), "built image "+ref) {
		t.Errorf("first build says %q", first)
	}
	second, err := BuildImage(ctx, api, opts)
	if err != nil {
		t.Fatalf("second build: %v", err)
	}
	if second.Built || second.ID != first.ID {
		t.Errorf("second build = %+v, want nothing done (id %s)", second, first.ID)
	}
	if !strings.Contains(second.String(), "already present") {
		t.Errorf("second build says %q", second)
	}

	img, err := api.ImageInspect(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.Config.Labels[LabelHarness], HarnessDigest(harness); got != want {
		t.Errorf("label %s = %q, want %q", LabelHarness, got, want)
	}
	if got := img.Config.User; got != "65534:65534" {
		t.Errorf("image user = %q, want 65534:65534", got)
	}
	if diff := cmp.Diff(harnessCmd(), []string(img.Config.Cmd)); diff != "" {
		t.Errorf("image command (-want +got):\n%s", diff)
	}

	// Another harness under the same name replaces the image.
	opts.Harness = append([]byte("# changed\n"), harness...)
	third, err := BuildImage(ctx, api, opts)
	if err != nil {
		t.Fatalf("third build: %v", err)
	}
	if !third.Built || !third.Replaced || !third.RootfsCached {
		t.Errorf("third build = %+v, want built, replaced, from the cached root filesystem", third)
	}
}

// testCacheDir is where tests keep the root filesystem: the default cache,
// so that the tests and `reconstruct sandbox build-image` share it.
func testCacheDir() string {
	if d := os.Getenv("RECONSTRUCT_TEST_CACHE_DIR"); d != "" {
		return d
	}
	return DefaultCacheDir
}
