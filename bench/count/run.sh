#!/usr/bin/env bash
# Magic sequences (issue 30, item 4): fzn-csp against Gecode on the models of
# this directory, each solved for its first solution with the same search on
# both sides, so that the trees are comparable.
#
#   bench/count/run.sh [N ...]      (default 20 50 100)
#
# Needs: minizinc (to flatten with each solver's library), fzn-gecode, and
#   cargo build --release -p csp-flatzinc --bin fzn-csp
# Environment: FZN_CSP (default target/release/fzn-csp), MODELS (default all
# four), RUNS (default 1: the
# median CPU time over RUNS runs), LIMIT (seconds per run, default 30).
#
# Models: magic_count.mzn (count(s, i, s[i]) for every i), magic_bool.mzn (the
# MiniZinc library's classic, s[i] = count(j)(s[j] = i)), magic_gcc.mzn
# (global_cardinality(s, 0..n-1, s)), selfcount.mzn (magic_bool written
# with bool2int: reified equalities and sums on both sides); each without
# and with the redundant
# sums (sum(s) = n, sum(i * s[i]) = n). Searches: none (each solver's default:
# afc/size on both), int_search(s, input_order, indomain_min) and
# int_search(s, first_fail, indomain_min). MiniZinc flattens each model with
# the solver's own library: csp's sends count_eq and global_cardinality as
# natives; Gecode 6.2's sends count and global_cardinality as its natives,
# and decomposes magic_bool into sums of Booleans. Prints, for each program,
# the nodes, the propagator calls (Gecode: propagations) and the CPU time
# (user+system), or "limit" when the run did not finish.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
csp=${FZN_CSP:-$root/target/release/fzn-csp}
runs=${RUNS:-1}
limit=${LIMIT:-30}
sizes=${*:-20 50 100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
stat() { grep -o "$1=[0-9.]*" "$2" | tail -1 | cut -d= -f2; }
echo "| model | n | sums | search | csp nodes | csp calls | csp CPU | Gecode nodes | Gecode propagations | Gecode CPU |"
echo "|---|---:|---|---|---:|---:|---:|---:|---:|---:|"
for model in ${MODELS:-magic_count magic_bool magic_gcc selfcount}; do
  for n in $sizes; do
    for sums in false true; do
      for search in "" "int_search(s, input_order, indomain_min)" "int_search(s, first_fail, indomain_min)"; do
        if [ -n "$search" ]; then solve="solve :: $search satisfy;"; else solve="solve satisfy;"; fi
        sed "s/^solve .*/$solve/" "$here/$model.mzn" > "$work/m.mzn"
        MZN_SOLVER_PATH="$root/crates/csp-flatzinc/share" minizinc --solver org.csp.csp \
          --compile --no-output-ozn -D "n=$n; sums=$sums;" --fzn "$work/csp.fzn" "$work/m.mzn"
        minizinc --solver gecode --compile --no-output-ozn -D "n=$n; sums=$sums;" \
          --fzn "$work/gecode.fzn" "$work/m.mzn" 2>/dev/null
        row="| $model | $n | $sums | ${search:-default} |"
        for prog in csp gecode; do
          if [ $prog = csp ]; then cmd=("$csp" -s "$work/csp.fzn"); calls=propagatorCalls
          else cmd=(fzn-gecode -s "$work/gecode.fzn"); calls=propagations; fi
          : > "$work/cpu"
          ok=1
          for _ in $(seq "$runs"); do
            if ! /usr/bin/time -f %U+%S -o "$work/t" timeout "$limit" "${cmd[@]}" > "$work/out" \
                || ! grep -q -- '^----------' "$work/out"; then
              ok=0; break
            fi
            printf '%.2f\n' "$(bc <<< "$(cat "$work/t")")" >> "$work/cpu"
          done
          if [ $ok = 1 ]; then
            row="$row $(stat nodes "$work/out") | $(stat $calls "$work/out") | $(median < "$work/cpu") s |"
          else
            row="$row limit | | |"
          fi
        done
        echo "$row"
      done
    done
  done
done
