#!/usr/bin/env bash
# Runs every instance of the shared MiniZinc benchmark set through
# `minizinc --solver csp` and compares each answer with expected.tsv.
#
#   bench/minizinc/check.sh [TIMEOUT_SECONDS]     (default 60 per instance)
#
# Environment: BENCH_DIR (default ../shared/minizinc-benchmarks from the
# repository root), FZN_CSP_DIR (where fzn-csp is; default target/release,
# built first with `cargo build --release -p csp-flatzinc`), EXTRA (more
# minizinc flags, e.g. "--pruning mac" or "--var dom-wdeg --restart luby"),
# FREE=1 (free search: minizinc's -f, so fzn-csp ignores the models' search
# annotations and uses its default search or the EXTRA heuristics).
#
# Prints one tab-separated line per instance: instance, kind, expected, answer,
# verdict, seconds. Verdicts: ok; wrong (a different answer: a bug);
# unsupported (fzn-csp refused the model); timeout (no complete answer within
# the limit; for optimisation the best objective found so far is the answer
# column, and it is "wrong" if it is better than the optimum); error. Exits 1
# if any instance is wrong, unsupported or an error.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bench=${BENCH_DIR:-$root/../shared/minizinc-benchmarks}
limit=${1:-60}
bin=${FZN_CSP_DIR:-$root/target/release}
if [ ! -x "$bin/fzn-csp" ]; then
  echo "error: $bin/fzn-csp not found; run cargo build --release -p csp-flatzinc" >&2
  exit 2
fi
if ! command -v minizinc >/dev/null; then
  echo "error: minizinc is not on PATH" >&2
  exit 2
fi
export PATH="$bin:$PATH" MZN_SOLVER_PATH="$root/crates/csp-flatzinc/share"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
printf 'instance\tkind\texpected\tanswer\tverdict\tseconds\n'
while IFS=$'\t' read -r family model data kind expected _; do
  [ "$family" = family ] && continue
  args=("$bench/$model")
  name=${model%.mzn}
  if [ "$data" != - ]; then
    args+=("$bench/$data")
    name="$family/$(basename "${data%.dzn}")"
  fi
  start=$(date +%s.%N)
  # minizinc's own limit (passed to fzn-csp as -t), and a hard stop after it.
  # shellcheck disable=SC2086
  timeout -k 10 $((limit + 30)) minizinc --solver csp --output-mode dzn --output-objective \
    --time-limit $((limit * 1000)) ${FREE:+-f} ${EXTRA:-} "${args[@]}" >"$tmp/out" 2>"$tmp/err"
  status=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
  out=$(cat "$tmp/out" "$tmp/err")
  last_obj=$(grep -o '_objective = -\?[0-9]*' "$tmp/out" | tail -1 | awk '{print $3}')
  answer=-
  verdict=timeout
  if grep -qi unsupported <<<"$out"; then
    verdict=unsupported
    answer=$(grep -i -m1 unsupported <<<"$out")
  elif grep -q '=====UNSATISFIABLE=====' "$tmp/out"; then
    answer=unsat
    [ "$expected" = unsat ] && verdict=ok || verdict=wrong
  elif [ "$kind" = satisfy ] && grep -q -- '^----------' "$tmp/out"; then
    answer=sat
    [ "$expected" = sat ] && verdict=ok || verdict=wrong
  elif [ "$kind" = optimize ] && [ -n "$last_obj" ]; then
    answer=$last_obj
    if grep -q '^==========' "$tmp/out"; then
      [ "$last_obj" = "$expected" ] && verdict=ok || verdict=wrong
    else
      # Stopped early: the best so far must not beat the proved optimum.
      # The solve item may be in a file the model includes (bacp).
      sources=("$bench/$model")
      for inc in $(grep -o 'include "[^"]*"' "$bench/$model" | cut -d'"' -f2); do
        [ -f "$(dirname "$bench/$model")/$inc" ] && sources+=("$(dirname "$bench/$model")/$inc")
      done
      if grep -q 'minimize' "${sources[@]}"; then
        [ "$last_obj" -lt "$expected" ] && verdict=wrong
      else
        [ "$last_obj" -gt "$expected" ] && verdict=wrong
      fi
    fi
  elif [ "$status" -ne 0 ] && [ "$status" -ne 124 ] && ! grep -q 'UNKNOWN' "$tmp/out"; then
    verdict=error
    answer=$(head -c 200 "$tmp/err" | head -1)
  fi
  case $verdict in wrong | unsupported | error) bad=1 ;; esac
  printf '%s\t%s\t%s\t%s\t%s\t%.1f\n' "$name" "$kind" "$expected" "$answer" "$verdict" "$secs"
done <"$bench/expected.tsv"
exit $bad
