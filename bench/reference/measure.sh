#!/usr/bin/env bash
# Re-measures every reference timing in RESULTS.md with hyperfine.
# Usage (from the repository root): bash bench/reference/measure.sh [group...]
# Groups: c rust rust17 engine gecode (default: all). JSON goes to bench/reference/results/.
# Needs gcc, g++, hyperfine and libgecode-dev (apt-get install -y hyperfine libgecode-dev).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target-counters}"
bin="$CARGO_TARGET_DIR/reference"
out=bench/reference/results
mkdir -p "$bin" "$out"
if [ $# -eq 0 ]; then set -- c rust rust17 engine gecode; fi

build() {
    gcc -O3 -march=native -o "$bin/nqueens_bitboard" bench/reference/nqueens_bitboard.c
    # The issue's reference is built with plain -O3; both are timed.
    gcc -O3 -o "$bin/nqueens_bitboard_O3" bench/reference/nqueens_bitboard.c
    g++ -O3 -o "$bin/gecode_queens" bench/reference/gecode_queens.cpp \
        -lgecodesearch -lgecodeint -lgecodekernel -lgecodesupport
    cargo build --release --manifest-path bench/reference/rust-runner/Cargo.toml
    cp "$CARGO_TARGET_DIR/release/nqueens-runner" "$bin/"
    cargo build --release -p nqueens
    cp "$CARGO_TARGET_DIR/release/nqueens" "$bin/"
}

run_c() {
    hyperfine -N --warmup 1 --runs 5 --export-json "$out/c_bitboard.json" \
        -L n 14,15,16 "$bin/nqueens_bitboard {n}"
    hyperfine -N --warmup 1 --runs 5 --export-json "$out/c_bitboard_O3.json" \
        -L n 14,15,16 "$bin/nqueens_bitboard_O3 {n}"
    hyperfine -N --runs 3 --export-json "$out/c_bitboard_17.json" \
        "$bin/nqueens_bitboard 17" "$bin/nqueens_bitboard_O3 17"
}

# Counters x sizes; the JSON file is named after the first argument.
rust_runs() {
    local tag=$1 sizes=$2
    for counter in bitboard symmetry; do
        hyperfine -N --warmup 1 --runs 5 --export-json "$out/rust_${counter}_$tag.json" \
            -L n "$sizes" "$bin/nqueens-runner $counter {n}"
        hyperfine -N --warmup 1 --runs 5 --export-json "$out/rust_${counter}-par2_$tag.json" \
            -L n "$sizes" "$bin/nqueens-runner $counter-par {n} 2"
    done
}

run_rust() { rust_runs 14-16 14,15,16; }
run_rust17() { rust_runs 17 17; }

# The generic engine through the CLI: forward checking, global model.
run_engine() {
    hyperfine -N --warmup 1 --runs 5 --export-json "$out/engine_fc_input.json" \
        -L n 12,13,14 "$bin/nqueens count {n} --pruning fc --threads 1"
    hyperfine -N --warmup 1 --runs 5 --export-json "$out/engine_fc_14.json" \
        "$bin/nqueens count 14 --pruning fc --var first-fail --threads 1" \
        "$bin/nqueens count 14 --pruning fc --threads 2"
}

run_gecode() {
    hyperfine -N --runs 3 --export-json "$out/gecode_count.json" \
        -L branch input,ff -L n 12,13,14 "$bin/gecode_queens {n} all {branch}"
    hyperfine -N --runs 3 --export-json "$out/gecode_first1000.json" \
        -L value med,min "$bin/gecode_queens 1000 first ff {value}"
}

build
uptime
for group in "$@"; do
    "run_$group"
    uptime # load average after each group: the machine may be shared
done
