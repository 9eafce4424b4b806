#!/usr/bin/env bash
# The table micro-benchmark (issue 30, item 3): fzn-csp against Gecode on
# random positive tables that both filter to generalised arc consistency, so
# both walk the same tree (input order, smallest value, every solution).
#
#   bench/table/run.sh [RUNS]     (default 5 runs of each program)
#
# Needs: minizinc (to flatten with csp's library), fzn-gecode, python3, and
#   cargo build --release -p csp-flatzinc --bin fzn-csp
# Environment: FZN_CSP (default target/release/fzn-csp).
#
# The models are written by random_tables.py (arguments: seed, variables,
# domain size, tables, arity, tuples per table). MiniZinc's Gecode library of
# this installation decomposes `table` into element constraints, so Gecode is
# given the same FlatZinc as fzn-csp with `fzn_table_int` renamed to its own
# native `gecode_table_int` (Gecode's Compact-Table). For each program it
# prints the nodes, the propagator calls, and the median CPU time
# (user+system) and solveTime over the runs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=${1:-5}
csp=${FZN_CSP:-$root/target/release/fzn-csp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for cfg in "1 20 10 40 4 1000" "1 20 10 60 4 1200"; do
    python3 "$here/random_tables.py" $cfg > "$work/m.mzn"
    MZN_SOLVER_PATH="$root/crates/csp-flatzinc/share" minizinc --solver org.csp.csp \
        --compile --no-output-ozn --fzn "$work/csp.fzn" "$work/m.mzn"
    sed 's/fzn_table_int(/gecode_table_int(/' "$work/csp.fzn" > "$work/gecode.fzn"
    for prog in fzn-csp fzn-gecode; do
        if [ $prog = fzn-csp ]; then cmd=("$csp" -a -s "$work/csp.fzn"); calls=propagatorCalls
        else cmd=(fzn-gecode -a -s "$work/gecode.fzn"); calls=propagations; fi
        : > "$work/cpu"; : > "$work/solve"
        for _ in $(seq "$runs"); do
            /usr/bin/time -f %U+%S -o "$work/t" "${cmd[@]}" > "$work/out"
            bc <<< "$(cat "$work/t")" >> "$work/cpu"
            grep -o 'solveTime=[0-9.]*' "$work/out" | cut -d= -f2 >> "$work/solve"
        done
        nodes=$(grep -o 'nodes=[0-9]*' "$work/out" | cut -d= -f2)
        n_calls=$(grep -o "$calls=[0-9]*" "$work/out" | cut -d= -f2)
        cpu=$(median < "$work/cpu"); solve=$(median < "$work/solve")
        per_call=$(bc -l <<< "scale=3; $solve * 1000000 / $n_calls")
        echo "| random_tables.py $cfg | $prog | $nodes | $n_calls | $cpu s | $solve s | $per_call µs |"
    done
done
