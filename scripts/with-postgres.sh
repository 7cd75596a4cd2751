#!/usr/bin/env bash
# with-postgres.sh runs a command with a private PostgreSQL cluster: it
# starts one in a temporary directory (scripts/postgres.sh), exports its URL
# as RECONSTRUCT_TEST_POSTGRES, runs the command and stops and removes the
# cluster afterwards, whatever the command's outcome.
#
#   scripts/with-postgres.sh go test ./bank/...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || { echo "usage: with-postgres.sh COMMAND [ARG...]" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/reconstruct-pg.XXXXXX")
cleanup() {
	bash "$here/postgres.sh" stop "$dir" || true
	rm -rf "$dir"
}
trap cleanup EXIT
RECONSTRUCT_TEST_POSTGRES=$(bash "$here/postgres.sh" start "$dir")
export RECONSTRUCT_TEST_POSTGRES
printf 'with-postgres.sh: PostgreSQL at %s\n' "$RECONSTRUCT_TEST_POSTGRES" >&2
set +e
"$@"
status=$?
set -e
exit $status
