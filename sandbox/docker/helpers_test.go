package docker

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/docker/docker/client"

	"github.com/reconstruct/reconstruct/internal/testenv"
)

// skipOrFail skips, or fails under RECONSTRUCT_REQUIRE_ALL=1 (CI): nothing
// may skip there.
func skipOrFail(t testing.TB, reason string) {
	t.Helper()
	testenv.Skip(t, reason)
}

// needEngine returns a client of an engine that answers, or skips.
func needEngine(t testing.TB) *client.Client {
	t.Helper()
	api, err := NewClient()
	if err != nil {
		skipOrFail(t, "no Docker client: "+err.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, err := api.Ping(ctx); err != nil {
		api.Close()
		skipOrFail(t, "no Docker engine answers at "+api.DaemonHost()+" (start one with scripts/docker-up.sh): "+err.Error())
	}
	t.Cleanup(func() { api.Close() })
	return api
}

// BuildEnv, when set, lets the tests build the runner image (as
// `reconstruct sandbox build-image` would) when it is absent, instead of
// skipping.
const BuildEnv = "RECONSTRUCT_TEST_BUILD_IMAGE"

var buildOnce struct {
	sync.Once
	err error
}

// needImage returns an engine client and the runner image
// ($RECONSTRUCT_SANDBOX_IMAGE or DefaultImage), or skips when either is
// missing.
func needImage(t testing.TB) (*client.Client, string) {
	t.Helper()
	api := needEngine(t)
	ref := os.Getenv("RECONSTRUCT_SANDBOX_IMAGE")
	if ref == "" {
		ref = DefaultImage()
	}
	ok, reason := Available(context.Background(), ref)
	if !ok && os.Getenv(BuildEnv) != "" {
		buildOnce.Do(func() {
			_, buildOnce.err = BuildImage(context.Background(), api, BuildOptions{Image: ref, CacheDir: testCacheDir()})
		})
		if buildOnce.err != nil {
			t.Fatalf("%s is set but building %s failed: %v", BuildEnv, ref, buildOnce.err)
		}
		ok, reason = Available(context.Background(), ref)
	}
	if !ok {
		skipOrFail(t, reason)
	}
	return api, ref
}
