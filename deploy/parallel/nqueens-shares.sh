#!/usr/bin/env bash
# Count N-Queens as K shares with GNU parallel, on this machine or on several
# hosts over ssh (--sshlogin), each share with a checkpoint, then merge them.
# See docs/cluster.md.
#
# Usage: deploy/parallel/nqueens-shares.sh N K [nqueens count options...]
#   deploy/parallel/nqueens-shares.sh 14 16
#   SSHLOGINS=2/node1,2/node2 OUT=/shared/q19 deploy/parallel/nqueens-shares.sh 19 16 --method symmetry
#
# Environment (all optional):
#   NQUEENS              the nqueens binary, the same path on every host (default: nqueens)
#   SSHLOGINS            GNU parallel --sshlogin list, comma-separated, such as
#                        "2/node1,2/node2" (2 shares at once on each); ":" is this
#                        machine (the default)
#   JOBS                 shares at once on a host without a "N/" prefix (default: its cores)
#   OUT                  folder for the share lines and checkpoints (default:
#                        ./nqueens-N-of-K); with several hosts, shared storage
#                        mounted at the same path on every host
#   CHECKPOINT_INTERVAL  how often a share saves its checkpoint (default: 30s)
#
# Rerunning the same command after an interruption resumes: finished shares
# (OUT/share-I.txt) are skipped and the others continue from their checkpoints.
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: $0 N K [nqueens count options...]" >&2
  exit 2
fi
n=$1
k=$2
shift 2
nqueens=${NQUEENS:-nqueens}
sshlogins=${SSHLOGINS:-:}
jobs=${JOBS:-100%}
out=${OUT:-./nqueens-$n-of-$k}
interval=${CHECKPOINT_INTERVAL:-30s}

if ! command -v parallel >/dev/null 2>&1; then
  echo "error: GNU parallel is not installed (apt-get install parallel)" >&2
  exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

# One share: skip it if its line is there; otherwise count it with a
# checkpoint and keep the line only once the share is complete.
share='f={out}/share-{i}.txt; [ -s "$f" ] || { {nqueens} count {n} --part {i}/{k} --checkpoint {out}/share-{i}.ckpt --checkpoint-interval {interval} {opts} > "$f.tmp" && mv "$f.tmp" "$f"; }'
opts=""
for o in "$@"; do opts="$opts $(printf '%q' "$o")"; done
share=${share//\{out\}/$(printf '%q' "$out")}
share=${share//\{nqueens\}/$(printf '%q' "$nqueens")}
share=${share//\{n\}/$n}
share=${share//\{k\}/$k}
share=${share//\{interval\}/$interval}
share=${share//\{opts\}/$opts}
share=${share//\{i\}/\{\}}

seq 1 "$k" | parallel --will-cite --halt now,fail=1 --sshlogin "$sshlogins" -j "$jobs" "$share"
"$nqueens" merge "$out"/share-*.txt
