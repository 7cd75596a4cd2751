package docker

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"go.uber.org/zap"

	"github.com/reconstruct/reconstruct/sandbox"
)

// Image defaults.
const (
	// DefaultImageRepo is the repository of the runner image; the tag is
	// the harness digest (see DefaultImage).
	DefaultImageRepo = "reconstruct-runner"
	// DefaultCacheDir holds the debootstrap root filesystem tarballs.
	DefaultCacheDir = "/var/cache/reconstruct"
	// MirrorEnv overrides the Debian mirror read from the apt sources.
	MirrorEnv = "RECONSTRUCT_SANDBOX_MIRROR"
)

// Paths and labels inside the runner image.
const (
	// HarnessPath is where the harness lives in the image, owned by root
	// and read-only.
	HarnessPath = "/opt/reconstruct/harness.py"
	// LabelHarness carries the harness digest the image was built with.
	LabelHarness = "reconstruct.harness"
	// imageFormat changes when the image layout or config changes.
	imageFormat = "runner-v2"
)

// HarnessDigest is the digest of harness as the runner image records it: a
// change to the harness or to the image layout changes it.
func HarnessDigest(harness []byte) string {
	h := sha256.New()
	io.WriteString(h, imageFormat+"\n")
	h.Write(harness)
	return hex.EncodeToString(h.Sum(nil))
}

// DefaultImage is the runner image that matches the harness embedded in
// this binary: reconstruct-runner:<first 12 hex digits of its digest>.
func DefaultImage() string { return imageFor([]byte(sandbox.Harness)) }

func imageFor(harness []byte) string {
	return DefaultImageRepo + ":" + HarnessDigest(harness)[:12]
}

// BuildOptions says how to build the runner image.
type BuildOptions struct {
	// Image is the name:tag to build; default
	// reconstruct-runner:<digest of Harness> (DefaultImage).
	Image string
	// Harness is the source of the resident harness put in the image;
	// default the harness embedded in this binary (sandbox.Harness).
	Harness []byte
	// Mirror is the Debian mirror debootstrap downloads from; default
	// $RECONSTRUCT_SANDBOX_MIRROR, then the first release entry of the
	// machine's apt sources.
	Mirror string
	// Suite is the Debian release; default the suite of that apt entry.
	Suite string
	// Keyring verifies the mirror's Release file; default the apt entry's
	// Signed-By file.
	Keyring string
	// Packages are installed with debootstrap --include; default python3
	// (the full standard library: candidates may import any module).
	Packages []string
	// CacheDir holds root filesystem tarballs; default DefaultCacheDir.
	CacheDir string
	Log      *zap.Logger
}

// BuildResult says what BuildImage did.
type BuildResult struct {
	Image string `json:"image"`
	ID    string `json:"id"`
	// Built is false when the image with the right harness was already
	// present and nothing was done.
	Built bool `json:"built"`
	// Replaced is true when Image existed with another harness and now names
	// the new build.
	Replaced bool `json:"replaced"`
	// RootfsCached is true when the root filesystem tarball was reused.
	RootfsCached bool   `json:"rootfs_cached"`
	Rootfs       string `json:"rootfs,omitempty"`
}

// String says what happened in one line.
func (r BuildResult) String() string {
	switch {
	case !r.Built:
		return fmt.Sprintf("image %s already present (%s); nothing to do", r.Image, shortID(r.ID))
	case r.Replaced:
		return fmt.Sprintf("built image %s (%s), replacing an image of the same name built for another harness", r.Image, shortID(r.ID))
	default:
		cache := "built the root filesystem"
		if r.RootfsCached {
			cache = "reused the cached root filesystem"
		}
		return fmt.Sprintf("built image %s (%s); %s %s", r.Image, shortID(r.ID), cache, r.Rootfs)
	}
}

func shortID(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// NewClient connects to the Docker engine named by the environment
// (DOCKER_HOST, DOCKER_API_VERSION, DOCKER_CERT_PATH, DOCKER_TLS_VERIFY),
// negotiating the API version with the engine.
func NewClient() (*client.Client, error) {
	api, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		return nil, fmt.Errorf("docker client: %w", err)
	}
	return api, nil
}

// BuildImage builds the runner image offline: a minimal Debian root
// filesystem made by debootstrap (cached under CacheDir), plus the harness,
// imported with docker import. It does nothing when the image exists with
// the same harness. A nil api connects to the engine named by the
// environment.
func BuildImage(ctx context.Context, api client.APIClient, opts BuildOptions) (BuildResult, error) {
	if api == nil {
		c, err := NewClient()
		if err != nil {
			return BuildResult{}, err
		}
		defer c.Close()
		api = c
	}
	if len(opts.Harness) == 0 {
		opts.Harness = []byte(sandbox.Harness)
	}
	log := opts.Log
	if log == nil {
		log = zap.NewNop()
	}
	digest := HarnessDigest(opts.Harness)
	ref := opts.Image
	if ref == "" {
		ref = imageFor(opts.Harness)
	}
	res := BuildResult{Image: ref}

	existing, err := api.ImageInspect(ctx, ref)
	oldID := ""
	switch {
	case err == nil && existing.Config != nil && existing.Config.Labels[LabelHarness] == digest:
		res.ID = existing.ID
		return res, nil
	case err == nil:
		res.Replaced, oldID = true, existing.ID
	case !client.IsErrNotFound(err):
		return res, fmt.Errorf("inspect image %s: %w", ref, err)
	}

	spec, err := opts.rootfsSpec()
	if err != nil {
		return res, err
	}
	cacheDir := opts.CacheDir
	if cacheDir == "" {
		cacheDir = DefaultCacheDir
	}
	rootfs, cached, err := ensureRootfs(ctx, spec, cacheDir, log)
	if err != nil {
		return res, fmt.Errorf("build image %s: %w", ref, err)
	}
	res.Rootfs, res.RootfsCached = rootfs, cached

	id, err := importImage(ctx, api, ref, rootfs, opts.Harness, digest)
	if err != nil {
		return res, fmt.Errorf("build image %s: %w", ref, err)
	}
	res.ID, res.Built = id, true
	if oldID != "" && oldID != id {
		// The old image lost its name; drop it unless a container uses it.
		if _, err := api.ImageRemove(ctx, oldID, image.RemoveOptions{PruneChildren: true}); err != nil {
			log.Info("old image kept", zap.String("id", shortID(oldID)), zap.Error(err))
		}
	}
	return res, nil
}

// rootfsSpec fills the mirror, suite and keyring from the options, the
// environment and the machine's apt sources, in that order.
func (o BuildOptions) rootfsSpec() (rootfsSpec, error) {
	spec := rootfsSpec{Mirror: o.Mirror, Suite: o.Suite, Keyring: o.Keyring, Packages: o.Packages}
	if len(spec.Packages) == 0 {
		spec.Packages = []string{"python3"}
	}
	if spec.Mirror == "" {
		spec.Mirror = os.Getenv(MirrorEnv)
	}
	if spec.Mirror == "" || spec.Suite == "" {
		sources, err := readAptSources("/")
		if err != nil {
			return spec, fmt.Errorf("find a Debian mirror: %w", err)
		}
		src, ok := debianSource(sources)
		if !ok {
			return spec, fmt.Errorf("find a Debian mirror: no release entry in /etc/apt/sources.list or /etc/apt/sources.list.d/; pass --mirror and --suite or set %s", MirrorEnv)
		}
		if spec.Mirror == "" {
			spec.Mirror = src.URI
			if spec.Keyring == "" {
				spec.Keyring = src.Keyring
			}
		}
		if spec.Suite == "" {
			spec.Suite = src.Suite
		}
	}
	if spec.Keyring != "" {
		if _, err := os.Stat(spec.Keyring); err != nil {
			// debootstrap falls back to its default keyring.
			spec.Keyring = ""
		}
	}
	return spec, nil
}

// harnessCmd starts the harness: isolated mode (no user site, no PYTHON*
// variables), unbuffered, no bytecode files written.
func harnessCmd() []string { return []string{"python3", "-I", "-u", "-B", HarnessPath} }

// importChanges configure the imported image: the non-root user, the
// environment and the command that starts the harness.
func importChanges(digest string) []string {
	cmd, _ := json.Marshal(harnessCmd())
	return []string{
		"USER 65534:65534",
		"WORKDIR /tmp",
		"ENV HOME=/tmp",
		"ENV PYTHONDONTWRITEBYTECODE=1",
		"ENV LANG=C.UTF-8",
		"CMD " + string(cmd),
		"LABEL " + LabelHarness + "=" + digest,
	}
}

// importImage streams the cached root filesystem plus the harness into
// docker import and returns the new image's ID.
func importImage(ctx context.Context, api client.APIClient, ref, rootfs string, harness []byte, digest string) (string, error) {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeImageTar(pw, rootfs, harness)) }()
	defer pr.Close()

	body, err := api.ImageImport(ctx, image.ImportSource{Source: pr, SourceName: "-"}, ref, image.ImportOptions{
		Message: "reconstruct sandbox build-image",
		Changes: importChanges(digest),
	})
	if err != nil {
		return "", fmt.Errorf("docker import: %w", err)
	}
	defer body.Close()
	if err := readJSONMessages(body); err != nil {
		return "", fmt.Errorf("docker import: %w", err)
	}
	img, err := api.ImageInspect(ctx, ref)
	if err != nil {
		return "", fmt.Errorf("inspect imported image: %w", err)
	}
	return img.ID, nil
}

// writeImageTar copies the root filesystem tarball to w and appends the
// harness and the mount points.
func writeImageTar(w io.Writer, rootfs string, harness []byte) error {
	f, err := os.Open(rootfs)
	if err != nil {
		return fmt.Errorf("open root filesystem: %w", err)
	}
	defer f.Close()
	tw := tar.NewWriter(w)
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", rootfs, err)
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("copy %s: %w", hdr.Name, err)
		}
		if _, err := io.Copy(tw, tr); err != nil {
			return fmt.Errorf("copy %s: %w", hdr.Name, err)
		}
	}
	now := time.Now()
	// The mount points. /workspace is sticky and world-writable like /tmp:
	// the evaluator's scratch tmpfs takes the mode of the directory it is
	// mounted on; a bind mount (the agent's workspace) hides it.
	dirs := []struct {
		name string
		mode int64
	}{{"./opt/reconstruct/", 0o755}, {"." + WorkspaceDir + "/", 0o1777}, {"." + ProgramDir + "/", 0o755}}
	for _, d := range dirs {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d.name, Mode: d.mode, ModTime: now}); err != nil {
			return fmt.Errorf("add %s: %w", d.name, err)
		}
	}
	name := "." + filepath.ToSlash(HarnessPath)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o444, Size: int64(len(harness)), ModTime: now}); err != nil {
		return fmt.Errorf("add harness: %w", err)
	}
	if _, err := tw.Write(harness); err != nil {
		return fmt.Errorf("add harness: %w", err)
	}
	return tw.Close()
}

// readJSONMessages drains a progress stream of the engine and returns the
// first error it reports.
func readJSONMessages(r io.Reader) error {
	dec := json.NewDecoder(r)
	for {
		var msg struct {
			Error       string `json:"error"`
			ErrorDetail *struct {
				Message string `json:"message"`
			} `json:"errorDetail"`
		}
		if err := dec.Decode(&msg); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return fmt.Errorf("read progress: %w", err)
		}
		if msg.ErrorDetail != nil && msg.ErrorDetail.Message != "" {
			return errors.New(msg.ErrorDetail.Message)
		}
		if msg.Error != "" {
			return errors.New(msg.Error)
		}
	}
}
