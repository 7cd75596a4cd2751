#!/usr/bin/env bash
# memory-growth.sh measures how the memory of a sweep grows with the number
# of tasks it runs: for each count N (default 20, 60 and 200) one sweep of
# the first N tasks of a task set, each in a process and a bank of its own,
# and prints a table of what each process held at its peak and once its
# last run had ended (resident set and Go heap, from the summary the sweep
# writes), its CPU and wall time, and the bank file's size. For the largest
# sweep it also compares, within the one process, the resident peak of its
# first 20 runs with that of its last 20 (in the order they were started):
# what finished runs left behind shows there.
#
#   scripts/memory-growth.sh [OUT]
#
# OUT (default: a temporary directory, removed) keeps the sweeps' output
# directories and banks. Settings: COUNTS (the task counts, default
# "20 60 200"), PARALLEL (tasks at once, default 2), TASKS (the task set),
# MAX_PROGRAMS (bounds every session's search by programs, as
# RECONSTRUCT_AGENT_SYNTH_MAX_PROGRAMS does: the same work on a loaded
# machine), SANDBOX (process or docker, default process), RECONSTRUCT_BIN
# (a built binary instead of building one).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'memory-growth.sh: %s\n' "$*" >&2; }
COUNTS=${COUNTS:-20 60 200}
PARALLEL=${PARALLEL:-2}
TASKS=${TASKS:-benchmarks/tasks/io2code-style}
SANDBOX=${SANDBOX:-process}

work=$(mktemp -d "${TMPDIR:-/tmp}/reconstruct-growth.XXXXXX")
trap 'rm -rf "$work"' EXIT
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
if [ -n "${MAX_PROGRAMS:-}" ]; then
	export RECONSTRUCT_AGENT_SYNTH_MAX_PROGRAMS=$MAX_PROGRAMS
fi
base=$work/base.yaml
printf 'sandbox: {kind: %s, call_timeout: 60s}\n' "$SANDBOX" >"$base"

# The task directories in the sweep's own order (by name).
mapfile -t all < <(find "$TASKS" -mindepth 2 -maxdepth 2 -name task.yaml -printf '%h\n' | xargs -n1 basename | sort)

say "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); ${#all[@]} tasks in $TASKS"
echo "| tasks | parallel | wall s | CPU s | peak RSS MiB | peak Go heap MiB | final RSS MiB | final Go heap MiB | bank MiB | solved |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
largest=
for n in $COUNTS; do
	if [ "$n" -gt "${#all[@]}" ]; then
		say "$n tasks asked, $TASKS has ${#all[@]}: skipped"
		continue
	fi
	filter="^($(printf '%s\n' "${all[@]:0:$n}" | paste -sd'|'))\$"
	dir=$out/sweep-$n bank=$out/bank-$n.db
	rm -rf "$dir" "$bank" "$bank-wal" "$bank-shm"
	say "running $n tasks at --parallel $PARALLEL"
	"$bin" bench run --tasks "$TASKS" --filter "$filter" --config "$base" --bank "$bank" --out "$dir" \
		--parallel "$PARALLEL" >/dev/null 2>"$out/sweep-$n.log" || say "the sweep of $n tasks exited $? (see $out/sweep-$n.log)"
	python3 - "$dir" "$bank" "$n" "$PARALLEL" <<'EOF'
import json, os, sys
d, bank, n, par = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
s = json.load(open(os.path.join(d, "summary.json")))
se = s["sessions"][-1]
mib = lambda b: b / (1 << 20)
size = sum(os.path.getsize(p) for p in (bank, bank + "-wal") if os.path.exists(p))
print(f"| {n} | {par} | {se['wall_seconds']:.0f} | {se.get('cpu_seconds', 0):.0f} | {mib(se.get('peak_rss_bytes', 0)):.0f} | "
      f"{mib(se.get('peak_heap_bytes', 0)):.0f} | {mib(se.get('final_rss_bytes', 0)):.0f} | {mib(se.get('final_heap_bytes', 0)):.0f} | "
      f"{mib(size):.1f} | {s['solved']} |")
EOF
	largest=$n
done

if [ -n "$largest" ] && [ "$largest" -ge 40 ]; then
	python3 - "$out/sweep-$largest" <<'EOF'
import json, os, sys
d = sys.argv[1]
rs = sorted(json.load(open(os.path.join(d, "summary.json")))["results"], key=lambda r: r["id"])
mean = lambda xs: sum(xs) / max(1, len(xs)) / (1 << 20)
first = [r.get("peak_rss_bytes", 0) for r in rs[:20]]
last = [r.get("peak_rss_bytes", 0) for r in rs[-20:]]
a, b = mean(first), mean(last)
print(f"\nIn the sweep of {len(rs)} tasks: the resident peak while a run went on, {a:.0f} MiB on average over the first 20 runs, "
      f"{b:.0f} MiB over the last 20 ({(b - a) / a * 100 if a else 0:+.0f}%).")
EOF
fi
say "load average afterwards $(cut -d' ' -f1-3 /proc/loadavg)"
