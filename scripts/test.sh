#!/usr/bin/env bash
# test.sh runs the whole test suite the way CI does: it makes sure Python 3,
# a Docker engine, PostgreSQL's server and the Temporal CLI are there (a
# private PostgreSQL cluster and a Temporal development server run for the
# tests), builds the sandbox image when it is absent,
# then runs gofmt, go vet, a go mod tidy check, every test (none may skip
# under CI=true), and a
# short run of each fuzz target.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'test.sh: %s\n' "$*" >&2; }

# python3 runs the process sandbox's harness (the system's one, which other
# users may run, also serves the sandbox's test as an unprivileged user);
# debootstrap builds the Docker sandbox's image offline from Debian's
# packages; postgresql is the server of the shared bank's tests.
missing=""
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
[ -x /usr/bin/python3 ] || [ -x /usr/local/bin/python3 ] || missing="$missing python3"
command -v debootstrap >/dev/null 2>&1 || missing="$missing debootstrap"
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || command -v pg_ctl >/dev/null 2>&1 || missing="$missing postgresql"
if [ -n "$missing" ]; then
	say "installing$missing"
	DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null
fi

sh scripts/docker-up.sh

say "building reconstruct"
mkdir -p bin
go build -o bin/reconstruct ./cmd/reconstruct
say "making sure the sandbox image exists"
bin/reconstruct sandbox build-image

unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
	say "gofmt would change: $unformatted"
	exit 1
fi
go vet ./...
# Direct requirements are not marked indirect, and nothing is missing or
# left over: go.mod and go.sum are as go mod tidy writes them.
if ! go mod tidy -diff >/dev/null; then
	say "go mod tidy would change go.mod or go.sum (run go mod tidy):"
	go mod tidy -diff || true
	exit 1
fi

# No build output is committed: a binary built in the tree (go build in
# cmd/reconstruct leaves one there) is ignored, and any tracked file over
# 1 MiB is refused. (A tracked file deleted in the working tree is not
# there to stat, and stops nothing.)
large=$(git ls-files -z | xargs -0 -r stat -c '%s %n' 2>/dev/null | awk '$1 > 1048576 {print $2}' || true)
if [ -n "$large" ]; then
	say "tracked files over 1 MiB (build output?): $large"
	exit 1
fi

# A private PostgreSQL server for the shared bank's tests, stopped and
# removed on exit (scripts/with-postgres.sh does the same for one command).
# A private Temporal development server for the cluster engine's tests
# likewise (scripts/with-temporal.sh); scripts/temporal.sh builds the
# Temporal CLI with go install when this machine has none yet.
pgdir=$(mktemp -d "${TMPDIR:-/tmp}/reconstruct-pg.XXXXXX")
tdir=$(mktemp -d "${TMPDIR:-/tmp}/reconstruct-temporal.XXXXXX")
# A run given no bank records into the per-user bank: the tests' go to a
# directory of their own, not the user's.
XDG_DATA_HOME=$(mktemp -d "${TMPDIR:-/tmp}/reconstruct-data.XXXXXX")
export XDG_DATA_HOME
cleanup() {
	bash scripts/temporal.sh stop "$tdir" || true
	bash scripts/postgres.sh stop "$pgdir" || true
	rm -rf "$tdir" "$pgdir" "$XDG_DATA_HOME"
}
trap cleanup EXIT
say "starting a private PostgreSQL server"
RECONSTRUCT_TEST_POSTGRES=$(bash scripts/postgres.sh start "$pgdir")
export RECONSTRUCT_TEST_POSTGRES
say "starting a private Temporal server"
RECONSTRUCT_TEST_TEMPORAL=$(bash scripts/temporal.sh start "$tdir")
export RECONSTRUCT_TEST_TEMPORAL

# Tests that need Docker, Python, PostgreSQL or Temporal skip without them; here all
# exist, so a skip is a failure (RECONSTRUCT_REQUIRE_ALL makes the helpers
# fail instead).
export RECONSTRUCT_REQUIRE_ALL=1
go test -count=1 -timeout 40m ./...

# The race detector over the tests that run work concurrently in one
# process: two synthesizer searches at once (a sweep's --parallel runs
# its tasks' agents in one process, sharing the lambda banks).
say "race detector: concurrent searches"
go test -race -count=1 -run '^TestConcurrentSearches$' ./agent/synth

# A count, not a duration: with a duration Go's fuzzing coordinator can see
# its deadline pass before its workers' context is cancelled, and then fails
# the target with a bare "context deadline exceeded" and no failing input
# (it did, once in five whole runs). 50,000 inputs take 5 to 15 s per target here.
fuzz_time=${FUZZ_TIME:-50000x}
for pkg in $(go list ./...); do
	for target in $(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true); do
		say "fuzzing $pkg $target ($fuzz_time)"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzz_time" "$pkg"
	done
done
say "all tests passed"
