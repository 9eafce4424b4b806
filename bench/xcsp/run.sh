#!/usr/bin/env bash
# Solves every instance of the shared XCSP3 set with xcsp-csp, checks the
# answer against expected.tsv and every printed solution with --check, and
# prints one line per instance: file, expected, answer, objective, CPU seconds.
#
#   bench/xcsp/run.sh [SET_DIR] [TIME_LIMIT] [-- extra xcsp-csp options]
#
# SET_DIR defaults to ../shared/xcsp3-benchmarks beside the repository,
# TIME_LIMIT to 60s. Build first: cargo build --release -p csp-xcsp.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
set_dir=${1:-$root/../shared/xcsp3-benchmarks}
limit=${2:-60s}
shift $(( $# > 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
bin=${XCSP_CSP:-${CARGO_TARGET_DIR:-$root/target}/release/xcsp-csp}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok=0; bad=0
printf '%-50s %-8s %-14s %-8s %s\n' file expected answer obj cpu_s
tail -n +2 "$set_dir/expected.tsv" | while IFS=$'\t' read -r model file kind expected ace constraints; do
  /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" "$set_dir/$file" --time-limit "$limit" "$@" > "$tmp/out" 2> "$tmp/err"
  answer=$(grep '^s ' "$tmp/out" | sed 's/^s //')
  obj=$(grep '^o ' "$tmp/out" | tail -1 | sed 's/^o //')
  cpu=$(tail -1 "$tmp/time" | awk '{printf "%.2f", $1 + $2}')
  verdict=ok
  case "$expected" in
    sat) [ "$answer" = SATISFIABLE ] || verdict=WRONG ;;
    unsat) [ "$answer" = UNSATISFIABLE ] || verdict=WRONG ;;
    *) [ "$answer" = "OPTIMUM FOUND" ] && [ "$obj" = "$expected" ] || verdict=WRONG ;;
  esac
  if grep -q '^v ' "$tmp/out"; then
    "$bin" "$set_dir/$file" --check "$tmp/out" > /dev/null 2> "$tmp/check" || verdict="$verdict,CHECK-FAILED"
  fi
  [ "$answer" = UNKNOWN ] && verdict="$verdict(unknown)"
  printf '%-50s %-8s %-14s %-8s %-6s %s\n' "$file" "$expected" "$answer" "${obj:--}" "$cpu" "$verdict"
done
