#!/usr/bin/env bash
# with-postgres.sh runs a command with a private PostgreSQL cluster: it
# starts one in a temporary directory (scripts/postgres.sh), exports its URL
# as RECONSTRUCT_TEST_POSTGRES, runs the command and stops and removes the
# cluster afterwards, whatever the command's outcome.
#
#   scripts/with-postgres.sh go test ./bank/...
set -euo pipefail
. "$(cd "$(dirname "$0")" && pwd)/with-service.sh"
with_service postgres RECONSTRUCT_TEST_POSTGRES PostgreSQL with-postgres.sh "$@"
