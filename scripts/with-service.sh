#!/usr/bin/env bash
# with-service.sh is sourced by with-postgres.sh and with-temporal.sh: it
# holds what they share. with_service starts a private service in a temporary
# directory with scripts/SERVICE.sh, exports the address it prints as VAR,
# runs the command and stops the service and removes the directory
# afterwards, whatever the command's outcome; it exits with the command's
# status.
#
#   with_service SERVICE VAR LABEL WRAPPER COMMAND [ARG...]
#
# SERVICE names scripts/SERVICE.sh (start DIR / stop DIR), LABEL is the
# service's name in the message, WRAPPER the calling script's name for the
# usage line and the message.
with_service() {
	local service=$1 var=$2 label=$3 wrapper=$4
	shift 4
	[ $# -gt 0 ] || { echo "usage: $wrapper COMMAND [ARG...]" >&2; exit 2; }
	local here
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	_with_service_script="$here/$service.sh"
	_with_service_dir=$(mktemp -d "${TMPDIR:-/tmp}/reconstruct-$service.XXXXXX")
	trap 'bash "$_with_service_script" stop "$_with_service_dir" || true; rm -rf "$_with_service_dir"' EXIT
	local addr
	addr=$(bash "$_with_service_script" start "$_with_service_dir")
	export "$var=$addr"
	printf '%s: %s at %s\n' "$wrapper" "$label" "$addr" >&2
	set +e
	"$@"
	local status=$?
	set -e
	exit $status
}
