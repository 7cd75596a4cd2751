#!/usr/bin/env bash
# cluster-figure.sh times one sweep on this machine with the local engine
# (--parallel 1 and 2) and with the Temporal engine (1 and 2 workers of one
# slot each), and prints a table: wall time, the CPU time of the processes
# that ran it (bench run and the workers; the Temporal and PostgreSQL
# servers not included), and for the Temporal engine where a task's time
# went on average (waiting in the queue, fetching the task from the bank,
# running, scoring), from each sweep's cluster.json.
#
# It needs a Temporal server and a PostgreSQL server, as the tests do:
#
#   scripts/with-postgres.sh scripts/with-temporal.sh scripts/cluster-figure.sh [OUT]
#
# OUT (default: a temporary directory, removed) keeps the four sweeps'
# output directories. Settings: TASKS (the task set), FILTER (tasks of it),
# REPEAT (runs per task), RUNS (which of local1 local2 temporal1 temporal2),
# RECONSTRUCT_BIN (a built binary instead of building one).
# The default is 12 tasks of benchmarks/tasks/io2code-style that the
# built-in synthesizer solves after a small search, twice each: 24 runs,
# in the process sandbox.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'cluster-figure.sh: %s\n' "$*" >&2; }
: "${RECONSTRUCT_TEST_POSTGRES:?run under scripts/with-postgres.sh}"
: "${RECONSTRUCT_TEST_TEMPORAL:?run under scripts/with-temporal.sh}"
TASKS=${TASKS:-benchmarks/tasks/io2code-style}
FILTER=${FILTER:-'^(base_(abs_each|add_seven|double_each|running_max|reverse|square_each|sign_each|prefix_sum)|algorithm_(digit_sum|popcount|gcd_pair|reverse_words))$'}
REPEAT=${REPEAT:-2}
RUNS=${RUNS:-local1 local2 temporal1 temporal2}

work=$(mktemp -d "${TMPDIR:-/tmp}/reconstruct-figure.XXXXXX")
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
out=${1:-$work/out}
mkdir -p "$out"

bin=${RECONSTRUCT_BIN:-}
if [ -z "$bin" ]; then
	bin=$work/reconstruct
	say "building reconstruct"
	go build -o "$bin" ./cmd/reconstruct
fi
# No run records into the user's own bank.
export XDG_DATA_HOME=$work/data
base=$work/base.yaml
printf 'sandbox: {kind: process, call_timeout: 30s}\ntask: {oracle: {timeout: 60s}}\nworkflow: {max_iterations: 8}\n' >"$base"
bank=$RECONSTRUCT_TEST_POSTGRES
"$bin" bank migrate --bank "$bank" >/dev/null

# cpu prints the user+system CPU seconds of the finished children in the
# output of the times builtin (which must run in the shell whose children
# they are, not in a command substitution).
cpu() { awk 'NR == 2 { gsub(/[ms]/, " "); print $1 * 60 + $2 + $3 * 60 + $4 }' "$1"; }

# one NAME runs one configuration in a subshell of its own (its own CPU
# count) and prints a row: name, wall seconds, CPU seconds, tasks, solved.
one() {
	local name=$1 dir=$out/$1
	rm -rf "$dir"
	(
		start=$(date +%s.%N)
		case $name in
		local*)
			"$bin" bench run --tasks "$TASKS" --filter "$FILTER" --repeat "$REPEAT" --config "$base" \
				--bank "$work/local-$name.db" --out "$dir" --parallel "${name#local}" >/dev/null 2>"$work/$name.log" || true
			;;
		temporal*)
			queue=figure-$name-$$
			wpids=()
			for i in $(seq 1 "${name#temporal}"); do
				"$bin" worker --temporal "$RECONSTRUCT_TEST_TEMPORAL" --task-queue "$queue" --bank "$bank" \
					--workdir "$work/$name-w$i" --identity "w$i" 2>>"$work/$name.log" &
				wpids+=($!)
			done
			"$bin" bench run --engine temporal --temporal "$RECONSTRUCT_TEST_TEMPORAL" --task-queue "$queue" --bank "$bank" \
				--tasks "$TASKS" --filter "$FILTER" --repeat "$REPEAT" --config "$base" --out "$dir" >/dev/null 2>>"$work/$name.log" || true
			kill -TERM "${wpids[@]}" 2>/dev/null || true
			wait "${wpids[@]}" 2>/dev/null || true
			;;
		esac
		end=$(date +%s.%N)
		times >"$work/$name.times"
		python3 - "$dir" "$name" "$start" "$end" "$(cpu "$work/$name.times")" <<'EOF'
import json, os, sys
d, name, cpu = sys.argv[1], sys.argv[2], float(sys.argv[5])
wall = float(sys.argv[4]) - float(sys.argv[3])
s = json.load(open(os.path.join(d, "summary.json")))
row = f"| {name} | {wall:.0f} | {cpu:.0f} | {s['tasks']} | {s['solved']} | {s['errors']} |"
p = os.path.join(d, "cluster.json")
if os.path.exists(p):
    outs = json.load(open(p))["outcomes"]
    n = max(1, len(outs))
    mean = lambda k: sum(o["timing"][k] for o in outs) / n
    row += f" {mean('queued'):.1f} | {mean('fetch'):.2f} | {mean('run'):.1f} | {mean('score'):.2f} |"
else:
    row += " | | | |"
print(row)
EOF
	)
}

say "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| sweep | wall s | CPU s | tasks | solved | errors | queued s/task | fetch s/task | run s/task | score s/task |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in $RUNS; do
	say "running $name"
	one "$name"
done
say "load average afterwards $(cut -d' ' -f1-3 /proc/loadavg)"
