#!/usr/bin/env bash
# Times a count in 16 symmetry shares through deploy/parallel/nqueens-shares.sh
# (2 at a time), interrupted once on purpose and resumed: docs/performance.md,
# "N = 19 from 16 shares, interrupted and resumed".
#
# Usage: bench/shares/interrupt-resume.sh N SECONDS
#   N        board size (19 for the documented figure; 17 takes seconds)
#   SECONDS  when to interrupt the first run (SIGINT to its whole process group,
#            as Ctrl-C on a terminal does)
# Environment: NQUEENS (default target/release/nqueens), OUT (default /tmp/nqueens-shares-N).
set -euo pipefail
cd "$(dirname "$0")/../.."
n=$1
after=$2
export NQUEENS=${NQUEENS:-$PWD/target/release/nqueens}
export OUT=${OUT:-/tmp/nqueens-shares-$n}
export JOBS=2 CHECKPOINT_INTERVAL=5s
rm -rf "$OUT"
script=deploy/parallel/nqueens-shares.sh

start=$(date +%s.%N)
# A session of its own, so that the interrupt reaches parallel and every share.
setsid bash "$script" "$n" 16 --method symmetry > "$OUT.first.log" 2>&1 &
leader=$!
sleep "$after"
kill -INT -- "-$leader" 2>/dev/null || true
status=0
wait "$leader" || status=$?
middle=$(date +%s.%N)
echo "first run: exit $status, $(find "$OUT" -name 'share-*.txt' | wc -l) shares finished"
for f in "$OUT"/share-*.ckpt; do
  [ -e "$f" ] && echo "$(basename "$f"): $(grep '^done' "$f")"
done
bash "$script" "$n" 16 --method symmetry
end=$(date +%s.%N)
echo "interrupted run $(echo "$middle - $start" | bc) s, resumed run $(echo "$end - $middle" | bc) s, total $(echo "$end - $start" | bc) s"
