#!/bin/sh
# Re-flattens every model here into the committed .fzn beside it, with csp's mznlib.
# Needs MiniZinc 2.6 or newer on PATH. Run from anywhere: sh flatten.sh [model.mzn ...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
share=$(cd "$here/../../share" && pwd)
cd "$here"
[ $# -gt 0 ] || set -- *.mzn
for model in "$@"; do
    name=${model%.mzn}
    MZN_SOLVER_PATH="$share" minizinc --solver org.csp.csp --compile --no-output-ozn \
        --fzn "$name.fzn" "$model"
    echo "flattened $name.fzn"
done
