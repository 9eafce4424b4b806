#!/usr/bin/env bash
# Submits an N-Queens count to Slurm: a job array of K shares, then a merge job
# that starts when all of them succeeded. See docs/cluster.md.
#
# Usage: deploy/slurm/submit.sh N K [nqueens count options...]
#   deploy/slurm/submit.sh 19 16 --method symmetry
# Environment: OUT (shared folder for share lines, checkpoints and total.txt;
# default $PWD/nqueens-N-of-K), NQUEENS (the binary on the compute nodes),
# CHECKPOINT_INTERVAL; SBATCH_OPTS adds sbatch options (partition, account, time).
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: $0 N K [nqueens count options...]" >&2
  exit 2
fi
N=$1
K=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/nqueens-$N-of-$K}
mkdir -p "$OUT"
export N K OUT
NQUEENS_OPTS="$*"
export NQUEENS_OPTS

# SBATCH_OPTS is split into words on purpose: "--partition=long --account=me".
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTS:-} --array="1-$K" --export=ALL "$here/nqueens-count.sbatch")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTS:-} --dependency="afterok:${array%%;*}" --export=ALL "$here/nqueens-merge.sbatch")
echo "array job $array (K = $K shares), merge job $merge; the total will be in $OUT/total.txt"
