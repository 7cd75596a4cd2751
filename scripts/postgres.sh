#!/usr/bin/env bash
# postgres.sh manages a private PostgreSQL cluster for the tests: it never
# touches the system's clusters.
#
#   scripts/postgres.sh start DIR     initdb in DIR (created when missing), start
#                                     the server on a free loopback port, print
#                                     its URL on stdout
#   scripts/postgres.sh stop DIR      stop it (fast shutdown)
#   scripts/postgres.sh restart DIR   stop and start it again on the same port
#   scripts/postgres.sh url DIR       print the URL of a started cluster
#
# PostgreSQL refuses to run as root: as root the cluster belongs to the
# `postgres` system user (Debian's postgresql package creates it) and every
# server command runs as that user. PG_BINDIR overrides where the server
# binaries are looked for (default: the newest /usr/lib/postgresql/*/bin,
# else pg_config --bindir). Authentication is `trust`, on 127.0.0.1 only.
set -euo pipefail

say() { printf 'postgres.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

bindir() {
	if [ -n "${PG_BINDIR:-}" ]; then
		echo "$PG_BINDIR"
		return
	fi
	local d
	d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
	if [ -z "$d" ] && command -v pg_config >/dev/null 2>&1; then
		d=$(pg_config --bindir)
	fi
	[ -n "$d" ] && [ -x "$d/pg_ctl" ] || die "no PostgreSQL server binaries (install Debian's postgresql, or set PG_BINDIR)"
	echo "$d"
}

# as_owner runs a command as the cluster's owner: postgres when we are root.
as_owner() {
	if [ "$(id -u)" = 0 ]; then
		if command -v runuser >/dev/null 2>&1; then
			runuser -u postgres -- "$@"
		else
			su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
		fi
	else
		"$@"
	fi
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || die "usage: postgres.sh start|stop|restart|url DIR"
bin=$(bindir)
data="$dir/data"

url() {
	local port
	port=$(cat "$dir/port")
	echo "postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
}

start() {
	as_owner "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 60 -o "-p $(cat "$dir/port")" start >/dev/null ||
		{ cat "$dir/server.log" >&2 || true; die "the server in $dir did not start"; }
}

case "$cmd" in
start)
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	data="$dir/data"
	if [ "$(id -u)" = 0 ]; then
		id postgres >/dev/null 2>&1 || die "PostgreSQL refuses to run as root and there is no postgres user"
		chown postgres: "$dir"
	fi
	if [ ! -f "$data/PG_VERSION" ]; then
		as_owner "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
			{ cat "$dir/initdb.log" >&2; die "initdb in $data failed"; }
		# Loopback TCP only; the socket lives in the cluster's directory, so
		# nothing under /var/run is needed. Enough connections for the
		# concurrency tests (8 processes, each with a pool) and parallel
		# packages.
		cat >>"$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
max_connections = 300
shared_buffers = 64MB
CONF
	fi
	free_port >"$dir/port"
	start
	url
	;;
stop)
	[ -f "$data/postmaster.pid" ] || exit 0
	as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t 60 stop >/dev/null
	;;
restart)
	if [ -f "$data/postmaster.pid" ]; then
		as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t 60 stop >/dev/null
	fi
	start
	url
	;;
url)
	url
	;;
*)
	die "unknown command $cmd (want start, stop, restart or url)"
	;;
esac
