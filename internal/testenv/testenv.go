// Package testenv lets tests that need Python or a Docker engine skip with a
// reason when those are missing, except under RECONSTRUCT_REQUIRE_ALL=1
// (CI), where a missing dependency fails the test instead of hiding it. It
// also writes the files a test sets up (WriteFiles) and checks the error of
// a table test's call (WantErr).
package testenv

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
)

// RequireAllEnv names the variable that turns skips into failures.
const RequireAllEnv = "RECONSTRUCT_REQUIRE_ALL"

// Skip skips the test with reason, or fails it under RECONSTRUCT_REQUIRE_ALL.
func Skip(t testing.TB, reason string) {
	t.Helper()
	if os.Getenv(RequireAllEnv) == "1" {
		t.Fatalf("%s (and %s=1 forbids skipping)", reason, RequireAllEnv)
	}
	t.Skip(reason)
}

// NeedPython skips unless python3 is on PATH.
func NeedPython(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		Skip(t, "python3 is not on PATH")
	}
}

// NeedDocker skips unless a Docker engine answers.
func NeedDocker(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := exec.CommandContext(ctx, "docker", "info").Run(); err != nil {
		Skip(t, "no Docker engine answers (docker info: "+err.Error()+")")
	}
}

// PostgresEnv names the variable holding the URL of a PostgreSQL server
// for tests (scripts/with-postgres.sh and scripts/test.sh set it); the
// tests create their own databases on it.
const PostgresEnv = "RECONSTRUCT_TEST_POSTGRES"

// NeedPostgres returns the test server's URL, or skips.
func NeedPostgres(t testing.TB) string {
	t.Helper()
	return needEnv(t, PostgresEnv, "scripts/with-postgres.sh")
}

// TemporalEnv names the variable holding the HOST:PORT of a Temporal
// server for tests (scripts/with-temporal.sh and scripts/test.sh set it).
const TemporalEnv = "RECONSTRUCT_TEST_TEMPORAL"

// NeedTemporal returns the test server's address, or skips.
func NeedTemporal(t testing.TB) string {
	t.Helper()
	return needEnv(t, TemporalEnv, "scripts/with-temporal.sh")
}

// needEnv returns the value of the variable name, or skips naming the
// script that sets it.
func needEnv(t testing.TB, name, script string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		Skip(t, name+" is not set (run the tests under "+script+")")
	}
	return v
}
