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
. "$(cd "$(dirname "$0")" && pwd)/with-service.sh"
with_service temporal RECONSTRUCT_TEST_TEMPORAL Temporal with-temporal.sh "$@"
