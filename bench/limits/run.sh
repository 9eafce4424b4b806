#!/usr/bin/env bash
# The `limits` benchmark (issue 19): how long after its time limit, and how
# long after Ctrl-C (SIGINT), each program really returns, on the cases where
# time is spent outside the search's node loop (root propagation, one long
# Régin propagation, the examples' work before their search, FlatZinc).
#
#   bench/limits/run.sh [RUNS]          (default 5 runs of each measurement)
#
# Build first (the script does not build; it is not run by CI):
#   cargo build --release -p nqueens -p csp-flatzinc --bins
#   cargo build --release -p csp-examples --examples
#
# Environment: BIN (where nqueens and fzn-csp are, default target/release;
# the examples are in $BIN/examples), BENCH_DIR (the shared MiniZinc
# benchmarks, default ../shared/minizinc-benchmarks from the repository root),
# LIMIT_MS (the time limit of the time-limit runs, default 1000), SIGNAL_AFTER
# (seconds before SIGINT is sent in the Ctrl-C runs, default 1), HARD_STOP
# (seconds after which a run that ignores both is killed, default 120).
#
# For each case it prints one Markdown row: the command, the time limit, the
# worst and median overshoot of the time-limit runs (wall time of the whole
# process minus the limit), the worst and median reaction to SIGINT (from
# `kill -INT` to the process's exit), the 1-minute load average when the
# case started, and the exit statuses seen. A run that
# ended before the signal could be sent is shown as "ended first (S s)". Last,
# the load average (`uptime`) before and after. The targets (issue 19): an
# overshoot under 50 ms, a reaction under 100 ms. With SHOW_STDERR=1 each
# row is followed (on standard error) by the last line of standard error of
# its runs and their statuses; run it in a subshell under `ulimit -v 4000000`
# to check that no case aborts:
#
#   (ulimit -v 4000000; SHOW_STDERR=1 bench/limits/run.sh 1)
set -u
set -m # job control: background jobs do not ignore SIGINT
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-5}
bin=${BIN:-$root/target/release}
bench=${BENCH_DIR:-$root/../shared/minizinc-benchmarks}
limit_ms=${LIMIT_MS:-1000}
signal_after=${SIGNAL_AFTER:-1}
hard_stop=${HARD_STOP:-120}

for exe in "$bin/nqueens" "$bin/fzn-csp" "$bin/examples/magic_square" "$bin/examples/graph_coloring" "$bin/examples/all_interval"; do
  if [ ! -x "$exe" ]; then
    echo "error: $exe not found; build it first (see the top of $0)" >&2
    exit 2
  fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The complete graph on 200 vertices (the clique and DSATUR bounds close at
# once) and a dense random graph on 1,000 vertices, edge probability 1/2, from a
# fixed linear congruential generator (the same file on every machine): its
# clique, DSATUR and search all take longer than a second.
awk 'BEGIN { n = 200; print "p edge", n, n * (n - 1) / 2;
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) print "e", i, j }' >"$tmp/k200.col"
awk 'BEGIN { n = 1000; s = 12345; m = 0;
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    if (s >= 1073741824) { e[++m] = i " " j } }
  print "p edge", n, m; for (k = 1; k <= m; k++) print "e", e[k] }' >"$tmp/random1000.col"

# FlatZinc: prop_stress 0200 (unsatisfiable, 9 s for the search) compiled for
# the csp solver's library.
fzn=$tmp/prop_stress_0200.fzn
have_fzn=no
if command -v minizinc >/dev/null && [ -f "$bench/prop_stress/0200.dzn" ]; then
  if MZN_SOLVER_PATH="$root/crates/csp-flatzinc/share" PATH="$bin:$PATH" \
    minizinc --solver csp -c "$bench/prop_stress/prop_stress.mzn" "$bench/prop_stress/0200.dzn" \
    --fzn "$fzn" >/dev/null 2>"$tmp/mzn.err"; then
    have_fzn=yes
  else
    echo "note: minizinc could not compile prop_stress: $(head -1 "$tmp/mzn.err")" >&2
  fi
else
  echo "note: minizinc or $bench/prop_stress not found: the FlatZinc case is skipped" >&2
fi

now_us() { echo $(($(date +%s%N) / 1000)); }

# With SHOW_STDERR=1, each row is followed by the distinct last lines of
# standard error of its runs, with their exit statuses (to check that no run
# panicked or aborted, under `ulimit -v` say).
note_stderr() {
  [ "${SHOW_STDERR:-}" = 1 ] || return 0
  printf 'status %s: %s\n' "$1" "$(tail -1 "$tmp/err" | cut -c1-160)" >>"$tmp/stderr_lines"
}

# time_limited LIMIT_MS CMD...: prints the overshoot in µs and the status.
time_limited() {
  local limit=$1
  shift
  local t0 t1 st
  t0=$(now_us)
  timeout -s KILL "$hard_stop" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  st=$?
  t1=$(now_us)
  note_stderr "$st"
  echo "$((t1 - t0 - limit * 1000)) $st"
}

# interrupted CMD...: starts CMD, sends SIGINT after $signal_after s, prints
# the reaction in µs and the status (or "early STATUS" if it ended before the
# signal).
interrupted() {
  local t0 t1 st pid
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null &
  pid=$!
  (sleep "$hard_stop" && kill -KILL "$pid" 2>/dev/null) >/dev/null 2>&1 &
  local watchdog=$!
  sleep "$signal_after"
  t0=$(now_us)
  if ! kill -INT "$pid" 2>/dev/null; then
    wait "$pid"
    st=$?
    kill "$watchdog" 2>/dev/null
    wait "$watchdog" 2>/dev/null
    echo "early $st"
    return
  fi
  wait "$pid"
  st=$?
  t1=$(now_us)
  note_stderr "$st"
  kill "$watchdog" 2>/dev/null
  wait "$watchdog" 2>/dev/null
  echo "$((t1 - t0)) $st"
}

# A figure in µs as milliseconds.
ms() { awk -v us="$1" 'BEGIN { printf "%.1f ms", us / 1000 }'; }

# worst and median of the µs figures in "$@"
summary() {
  local sorted
  sorted=$(printf '%s\n' "$@" | sort -n)
  local worst median
  worst=$(tail -1 <<<"$sorted")
  median=$(sed -n "$((($# + 1) / 2))p" <<<"$sorted")
  if [ "$worst" -lt 0 ]; then
    # Every run ended before its limit: nothing to overshoot.
    echo "none (ended $(ms $((-worst))) or more before the limit)"
  else
    echo "$(ms "$worst") (median $(ms "$median"))"
  fi
}

# row NAME "LIMITED COMMAND" "UNLIMITED COMMAND" [LIMIT_MS]: the time-limit
# runs use the first command (which must carry a limit of LIMIT_MS, by
# default $limit_ms), the SIGINT runs the second. Commands are words; $tmp,
# $bin and $fzn are expanded first.
row() {
  local name=$1 limited=$2 unlimited=$3 lim=${4:-$limit_ms}
  local over=() react=() statuses=() early=""
  local i out load
  load=$(cut -d' ' -f1 /proc/loadavg)
  for ((i = 0; i < runs; i++)); do
    # shellcheck disable=SC2086
    out=$(time_limited "$lim" $limited)
    over+=("${out% *}")
    statuses+=("t${out#* }")
  done
  for ((i = 0; i < runs; i++)); do
    # shellcheck disable=SC2086
    out=$(interrupted $unlimited)
    if [ "${out%% *}" = early ]; then
      early="ended before the signal"
      statuses+=("i${out#* }")
    else
      react+=("${out% *}")
      statuses+=("i${out#* }")
    fi
  done
  local reaction=${early:-$(summary "${react[@]}")}
  [ ${#react[@]} -gt 0 ] && [ -n "$early" ] && reaction="$(summary "${react[@]}"); $early"
  local shown=${limited//$tmp\//}
  shown=${shown//$bin\//}
  # shellcheck disable=SC2016 # the backquotes are Markdown
  printf '| %s | `%s` | %s ms | %s | %s | %s | %s |\n' "$name" "$shown" "$lim" \
    "$(summary "${over[@]}")" "$reaction" "$load" \
    "$(printf '%s\n' "${statuses[@]}" | sort | uniq -c | awk '{ printf "%s%s×%s", (NR > 1 ? " " : ""), $1, $2 }')"
  if [ -f "$tmp/stderr_lines" ]; then
    sort "$tmp/stderr_lines" | uniq -c | sed 's/^/    /' >&2
    rm -f "$tmp/stderr_lines"
  fi
}

echo "load before: $(uptime)"
echo "runs: $runs of each; time limit $limit_ms ms; SIGINT after $signal_after s"
echo
echo "| case | command (time-limit runs) | limit | worst overshoot | worst Ctrl-C reaction | load (1 min) | statuses (t: limit, i: SIGINT) |"
echo "|---|---|---:|---:|---:|---:|---|"
limit_s="${limit_ms}ms"
e=$bin/examples
row "magic square 30 (setup, root propagation)" \
  "$e/magic_square 30 --time-limit $limit_s" "$e/magic_square 30"
row "nqueens count 3000, propagators (Régin)" \
  "$bin/nqueens count 3000 --pruning propagators --time-limit $limit_s" \
  "$bin/nqueens count 3000 --pruning propagators"
row "nqueens count 10000, propagators (root propagation)" \
  "$bin/nqueens count 10000 --pruning propagators --time-limit $limit_s" \
  "$bin/nqueens count 10000 --pruning propagators"
row "graph colouring, complete graph K200" \
  "$e/graph_coloring $tmp/k200.col --time-limit $limit_s" "$e/graph_coloring $tmp/k200.col"
row "graph colouring, random G(1000, 1/2) (bounds, search)" \
  "$e/graph_coloring $tmp/random1000.col --time-limit $limit_s" \
  "$e/graph_coloring $tmp/random1000.col"
# Where one node is expensive (issue 29): the clock is read by time, not
# every 256 nodes.
row "nqueens solve 2000, fc + first-fail + lcv (one expensive node)" \
  "$bin/nqueens solve 2000 --pruning fc --var first-fail --val lcv --time-limit $limit_s" \
  "$bin/nqueens solve 2000 --pruning fc --var first-fail --val lcv"
row "all_interval 1000 --val lcv" \
  "$e/all_interval 1000 --val lcv --time-limit $limit_s" "$e/all_interval 1000 --val lcv"
row "nqueens tree 30 (recording, layout)" \
  "$bin/nqueens tree 30 --all --time-limit $limit_s -o $tmp/t.svg" \
  "$bin/nqueens tree 30 --all -o $tmp/t.svg"
# Issue 29, round 3: the drawing of a large tree (the SIGINT runs: recording
# 200,000 nodes takes well under a second, drawing them several seconds), the
# explorer's page (the SIGINT runs: signalled while recording), the explorer
# of a search that ends at once and a page that takes long to write (the
# SIGINT runs: signalled while the page is built), and the translation of
# 10^6 free FlatZinc variables.
row "nqueens tree 30, 200,000 nodes drawn (layout, SVG)" \
  "$bin/nqueens tree 30 --all --node-limit 200000 --max-events 10000000 --max-nodes 200000 --time-limit $limit_s -o $tmp/t.svg" \
  "$bin/nqueens tree 30 --all --node-limit 200000 --max-events 10000000 --max-nodes 200000 -o $tmp/t.svg"
row "nqueens explore 12 --all (recording)" \
  "$bin/nqueens explore 12 --all --limit-events 100000000 --node-limit 0 --time-limit $limit_s -o $tmp/e.html" \
  "$bin/nqueens explore 12 --all --limit-events 100000000 --node-limit 0 -o $tmp/e.html"
row "nqueens explore 10 --all, 2 M events (the page)" \
  "$bin/nqueens explore 10 --all --limit-events 100000000 --node-limit 0 --memory-limit 4G --time-limit $limit_s -o $tmp/e.html" \
  "$bin/nqueens explore 10 --all --limit-events 100000000 --node-limit 0 --memory-limit 4G -o $tmp/e.html"
printf 'array [1..1000000] of var 1..3: x :: output_array([1..1000000]);\nsolve satisfy;\n' >"$tmp/free.fzn"
row "FlatZinc, 10^6 free variables (translation, output)" \
  "$bin/fzn-csp -t 2000 $tmp/free.fzn" "$bin/fzn-csp $tmp/free.fzn" 2000
if [ "$have_fzn" = yes ]; then
  row "FlatZinc prop_stress 0200" \
    "$bin/fzn-csp -t $limit_ms $fzn" "$bin/fzn-csp $fzn"
fi
echo
echo "load after: $(uptime)"
