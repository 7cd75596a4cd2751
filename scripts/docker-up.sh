#!/bin/sh
# docker-up.sh makes sure a Docker engine answers on this machine.
#
# Idempotent: installs Debian's docker.io when dockerd is missing, starts
# dockerd in the background (logs in $DOCKERD_LOG) when `docker info` fails,
# and waits until the engine answers. Exits non-zero with a clear message
# when the engine cannot be reached within $DOCKER_UP_TIMEOUT seconds.
#
# When DOCKER_HOST points at a remote engine, nothing is installed or
# started: the script only waits for that engine.
set -eu

DOCKERD_LOG=${DOCKERD_LOG:-/var/log/dockerd.log}
DOCKER_UP_TIMEOUT=${DOCKER_UP_TIMEOUT:-60}

say() { printf 'docker-up: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

engine_answers() { docker info >/dev/null 2>&1; }

wait_for_engine() {
	deadline=$(( $(date +%s) + DOCKER_UP_TIMEOUT ))
	until engine_answers; do
		if [ "$(date +%s)" -ge "$deadline" ]; then
			return 1
		fi
		sleep 1
	done
}

if engine_answers; then
	say "engine already answers ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo unknown))"
	exit 0
fi

case "${DOCKER_HOST:-unix:///var/run/docker.sock}" in
unix://*) ;;
*)
	say "DOCKER_HOST=${DOCKER_HOST} is remote; waiting for it, starting nothing"
	wait_for_engine || die "no engine answers at ${DOCKER_HOST} after ${DOCKER_UP_TIMEOUT}s"
	exit 0
	;;
esac

if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker >/dev/null 2>&1; then
	[ "$(id -u)" -eq 0 ] || die "dockerd is not installed and we are not root: install the docker.io package"
	say "installing docker.io"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null || die "apt-get update failed"
	apt-get install -y -q docker.io >/dev/null || die "apt-get install docker.io failed"
fi

if pgrep -x dockerd >/dev/null 2>&1; then
	say "dockerd is running but does not answer yet; waiting"
else
	[ "$(id -u)" -eq 0 ] || die "no engine answers and starting dockerd needs root"
	say "starting dockerd (log: ${DOCKERD_LOG})"
	mkdir -p "$(dirname "$DOCKERD_LOG")"
	# setsid detaches dockerd from this script's session so it outlives it.
	setsid dockerd >>"$DOCKERD_LOG" 2>&1 </dev/null &
fi

if ! wait_for_engine; then
	say "last lines of ${DOCKERD_LOG}:"
	tail -n 20 "$DOCKERD_LOG" >&2 2>/dev/null || true
	die "the Docker engine did not answer within ${DOCKER_UP_TIMEOUT}s"
fi
say "engine answers ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo unknown))"
