#!/usr/bin/env bash
# temporal.sh manages a private Temporal development server for the tests
# (the Temporal CLI's `temporal server start-dev`): it never touches any
# other server.
#
#   scripts/temporal.sh install     build the Temporal CLI with `go install` when
#                                   it is not there yet; print its path
#   scripts/temporal.sh start DIR   start a server on a free loopback port, its
#                                   state in DIR (created when missing); print
#                                   its HOST:PORT on stdout
#   scripts/temporal.sh stop DIR    stop it
#   scripts/temporal.sh address DIR print the HOST:PORT of a started server
#
# The CLI is looked for in GOBIN (or GOPATH/bin), where `go install` leaves
# it, then on PATH, and taken when `go version -m` says it was built from
# the wanted version; otherwise `go install` builds that version into the
# Go bin directory, once per machine (about 8 minutes on two cores), where
# every later run finds it. TEMPORAL_CLI overrides the path (no version
# check); TEMPORAL_CLI_VERSION the version (default below).
set -euo pipefail

say() { printf 'temporal.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

version=${TEMPORAL_CLI_VERSION:-v1.5.1}

# version_of prints the module version a Go-built Temporal CLI was built
# from (v1.5.1), or nothing.
version_of() {
	go version -m "$1" 2>/dev/null | awk '$1 == "mod" && $2 == "github.com/temporalio/cli" { print $3 }'
}

# gobin prints the directory go install writes to.
gobin() {
	local d
	d=$(go env GOBIN 2>/dev/null || true)
	[ -n "$d" ] || d="$(go env GOPATH 2>/dev/null)/bin"
	echo "$d"
}

# cli prints the path of the Temporal CLI of the wanted version, or nothing:
# TEMPORAL_CLI when set (taken as it is), else the one go install left in
# the Go bin directory, else one on PATH.
cli() {
	if [ -n "${TEMPORAL_CLI:-}" ]; then
		[ -x "$TEMPORAL_CLI" ] && echo "$TEMPORAL_CLI"
		return
	fi
	local path
	for path in "$(gobin)/temporal" "$(command -v temporal 2>/dev/null || true)"; do
		if [ -n "$path" ] && [ -x "$path" ] && [ "$(version_of "$path")" = "$version" ]; then
			echo "$path"
			return
		fi
	done
}

install() {
	local path
	path=$(cli)
	if [ -z "$path" ]; then
		say "building the Temporal CLI $version with go install (once per machine; several minutes)"
		go install "github.com/temporalio/cli/cmd/temporal@$version" >&2
		path=$(cli)
		[ -n "$path" ] || die "go install succeeded but $(gobin)/temporal is not the Temporal CLI $version"
	fi
	echo "$path"
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

cmd=${1:-}
case "$cmd" in
install)
	install
	exit 0
	;;
start | stop | address) ;;
*) die "usage: temporal.sh install | start DIR | stop DIR | address DIR" ;;
esac
dir=${2:-}
[ -n "$dir" ] || die "usage: temporal.sh $cmd DIR"

case "$cmd" in
start)
	bin=$(install)
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
		die "a server started from $dir is running already (pid $(cat "$dir/pid"))"
	fi
	port=$(free_port)
	# setsid: the server outlives this script and gets its own process
	# group, so that stop reaches it and nothing else.
	setsid "$bin" server start-dev --headless --ip 127.0.0.1 --port "$port" \
		--db-filename "$dir/temporal.db" --log-level warn >"$dir/server.log" 2>&1 </dev/null &
	echo $! >"$dir/pid"
	echo "127.0.0.1:$port" >"$dir/address"
	for _ in $(seq 1 120); do
		if "$bin" operator cluster health --address "127.0.0.1:$port" >/dev/null 2>&1; then
			echo "127.0.0.1:$port"
			exit 0
		fi
		kill -0 "$(cat "$dir/pid")" 2>/dev/null || { cat "$dir/server.log" >&2; die "the server in $dir exited"; }
		sleep 0.5
	done
	cat "$dir/server.log" >&2
	die "the server in $dir did not answer within 60 s"
	;;
stop)
	[ -f "$dir/pid" ] || exit 0
	pid=$(cat "$dir/pid")
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 1 60); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.5
		done
		kill -KILL "$pid" 2>/dev/null || true
	fi
	rm -f "$dir/pid"
	;;
address)
	cat "$dir/address"
	;;
esac
