#!/usr/bin/env bash
# with-temporal.sh runs a command with a private Temporal development server:
# it builds the Temporal CLI when missing (scripts/temporal.sh), starts a
# server on a free loopback port with its state in a temporary directory,
# exports its address as RECONSTRUCT_TEST_TEMPORAL, runs the command, and
# stops the server and removes the directory afterwards, whatever the
# command's outcome. It composes with with-postgres.sh:
#
#   scripts/with-postgres.sh scripts/with-temporal.sh go test ./benchmarks/cluster/...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || { echo "usage: with-temporal.sh COMMAND [ARG...]" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/reconstruct-temporal.XXXXXX")
cleanup() {
	bash "$here/temporal.sh" stop "$dir" || true
	rm -rf "$dir"
}
trap cleanup EXIT
RECONSTRUCT_TEST_TEMPORAL=$(bash "$here/temporal.sh" start "$dir")
export RECONSTRUCT_TEST_TEMPORAL
printf 'with-temporal.sh: Temporal at %s\n' "$RECONSTRUCT_TEST_TEMPORAL" >&2
set +e
"$@"
status=$?
set -e
exit $status
