#!/usr/bin/env bash
# Regenerates the measured tables of docs/strategies.md and the charts
# docs/img/strategies-*.svg: every block between `<!-- begin NAME -->` and
# `<!-- end NAME -->` in the doc is replaced; the prose around them is kept.
#
#   scripts/strategies.sh            # everything (10 to 15 minutes on 2 cores)
#   scripts/strategies.sh --quick    # small sizes only, to try the script (doc unchanged)
#
# Node counts are exact and the same on every machine; times are medians of
# up to 5 runs (runs under 0.2 s are repeated) and depend on the machine and
# its load, which the doc records.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
[[ "${1:-}" == "--quick" ]] && quick=true

target="${CARGO_TARGET_DIR:-target}"
cargo build --release --quiet -p nqueens --bin nqueens
cargo build --release --quiet -p csp-examples --example strategies
nqueens="$target/release/nqueens"
others="$target/release/examples/strategies"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p docs/img

load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")

if $quick; then
    count_sizes="4..=8"; first_sizes="8,16,32"; img="$tmp"
else
    count_sizes="4..=12"; first_sizes="8,12,16,20,24,32,50,100,200"; img=docs/img
fi

echo "N-Queens, count mode, n = $count_sizes ..." >&2
"$nqueens" compare --n "$count_sizes" --format csv -o "$tmp/nq-count.csv" \
    --chart "$img/strategies-nqueens.svg"
echo "N-Queens, first-solution mode, n = $first_sizes ..." >&2
"$nqueens" compare --mode first --n "$first_sizes" --node-limit 10000000 --time-limit 10s --format csv \
    -o "$tmp/nq-first.csv" --chart "$img/strategies-nqueens-first.svg"
echo "Sudoku ..." >&2
"$others" --model sudoku --format csv -o "$tmp/sudoku.csv" --chart "$img/strategies-sudoku.svg"
echo "Graph colouring ..." >&2
"$others" --model coloring --format csv -o "$tmp/coloring.csv" \
    --chart "$img/strategies-coloring.svg"

load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")

# pivot CSV FIELD SIZE_HEADER: one row per strategy, one column per size.
# FIELD is "nodes" or "seconds"; a run stopped by a limit reads "limit: X".
pivot() {
    awk -F, -v field="$2" -v head="$3" '
    function commas(v,   s) {
        s = sprintf("%d", v)
        while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]([,]|$)/, ",&", s)
        return s
    }
    # The CSV has microsecond resolution: 0 is a run under half a microsecond.
    function secs(s) {
        if (s == 0) return "< 1 µs"
        if (s < 1e-3) return sprintf("%.0f µs", s * 1e6)
        if (s < 1) return sprintf("%.1f ms", s * 1e3)
        return sprintf("%.2f s", s)
    }
    NR == 1 { next }
    {
        n = $1; s = $2
        if (!(n in seen_n)) { seen_n[n] = 1; sizes[++ns] = n }
        if (!(s in seen_s)) { seen_s[s] = 1; names[++nn] = s }
        v = (field == "nodes") ? ($6 == "" ? "-" : commas($6)) : secs($10)
        if ($4 == "false" && v != "-") v = "limit: " v
        cell[s, n] = v
        if ($4 == "true" && !(n in sol)) sol[n] = $3
    }
    END {
        line = "| strategy |"; rule = "|---|"
        for (i = 1; i <= ns; i++) { line = line " " head sizes[i] " |"; rule = rule "---:|" }
        print line; print rule
        for (j = 1; j <= nn; j++) {
            line = "| " names[j] " |"
            for (i = 1; i <= ns; i++) line = line " " cell[names[j], sizes[i]] " |"
            print line
        }
        if (field == "nodes") {
            line = "| *solutions (all complete runs agree)* |"
            for (i = 1; i <= ns; i++) line = line " " sol[sizes[i]] " |"
            print line
        }
    }' "$1"
}

# fill NAME FILE: replace the block NAME of docs/strategies.md by FILE.
fill() {
    awk -v name="$1" -v file="$2" '
        $0 == "<!-- begin " name " -->" { print; while ((getline l < file) > 0) print l; skip = 1; next }
        $0 == "<!-- end " name " -->" { skip = 0 }
        !skip { print }' docs/strategies.md > "$tmp/doc"
    cat "$tmp/doc" > docs/strategies.md
}

for t in nq-count nq-first sudoku coloring; do
    case $t in
        nq-*) head="n=" ;;
        sudoku) head="#" ;;
        coloring) head="k=" ;;
    esac
    pivot "$tmp/$t.csv" nodes "$head" > "$tmp/$t-nodes.md"
    pivot "$tmp/$t.csv" seconds "$head" > "$tmp/$t-time.md"
done

{
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo "with $(rustc -V | cut -d' ' -f1-2), release profile, on $(nproc) cores"
    echo "(load average before: $load_before; after: $load_after)."
} > "$tmp/machine.md"

if $quick; then
    for f in "$tmp"/*-nodes.md "$tmp"/*-time.md "$tmp/machine.md"; do
        echo "== $(basename "$f")"; cat "$f"
    done
    exit 0
fi

fill machine "$tmp/machine.md"
for t in nq-count nq-first sudoku coloring; do
    fill "$t-nodes" "$tmp/$t-nodes.md"
    fill "$t-time" "$tmp/$t-time.md"
done
echo "Updated docs/strategies.md and docs/img/strategies-{nqueens,nqueens-first,sudoku,coloring}.svg" >&2
