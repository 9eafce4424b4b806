#!/bin/sh
# Re-flattens every model here into the committed .fzn beside it, with csp's mznlib.
# Needs MiniZinc 2.6 or newer on PATH. Run from anywhere: sh flatten.sh [model.mzn ...]
# The explain_* models are flattened in debug mode (-g), which keeps the
# constraints' names for fzn-csp --explain.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
share=$(cd "$here/../../share" && pwd)
cd "$here"
[ $# -gt 0 ] || set -- *.mzn
for model in "$@"; do
    name=${model%.mzn}
    case $name in explain_*) debug=-g ;; *) debug= ;; esac
    MZN_SOLVER_PATH="$share" minizinc --solver org.csp.csp --compile --no-output-ozn \
        $debug --fzn "$name.fzn" "$model"
    echo "flattened $name.fzn"
done
