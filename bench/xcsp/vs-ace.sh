#!/usr/bin/env bash
# Times xcsp-csp against ACE on the shared XCSP3 set, in CPU time (user +
# system, /usr/bin/time), the two solvers alternating instance by instance,
# and writes the table between the "xcsp-vs-ace" markers of
# docs/performance.md (or of $DOC).
#
#   bench/xcsp/vs-ace.sh [SET_DIR] [ACE_JAR]
#
# SET_DIR: ../shared/xcsp3-benchmarks beside the repository. ACE_JAR: the
# ACE-*.jar shipped inside the pycsp3 package (pip install pycsp3; found under
# site-packages/pycsp3/solvers/ace/). Needs java (17). ACE's JVM start-up is
# taken off its times: the CPU time of ACE on a one-variable instance, run
# three times in the same session (the median). Run on a quiet machine: CPU
# time still grows when two cores are shared.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
set_dir=${1:-$root/../shared/xcsp3-benchmarks}
# Found without importing pycsp3 (which compiles a model at exit).
jar=${2:-$(${PYTHON:-python3} -c 'import importlib.util, os, glob; d = os.path.dirname(importlib.util.find_spec("pycsp3").origin); print(sorted(glob.glob(os.path.join(d, "solvers", "ace", "*.jar")))[-1])')}
limit=${LIMIT:-60}
bin=${XCSP_CSP:-${CARGO_TARGET_DIR:-$root/target}/release/xcsp-csp}
[ -x "$bin" ] || { echo "build first: cargo build --release -p csp-xcsp" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cpu() { tail -1 "$1" | awk '{printf "%.2f", $1 + $2}'; }

# ACE's start-up: a one-variable instance.
cat > "$tmp/one.xml" <<'XML'
<instance format="XCSP3" type="CSP"><variables><var id="x"> 0..1 </var></variables>
<constraints><intension> eq(x,1) </intension></constraints></instance>
XML
for i in 1 2 3; do
  /usr/bin/time -f '%U %S' -o "$tmp/t" java -jar "$jar" "$tmp/one.xml" > /dev/null 2>&1 || true
  cpu "$tmp/t"; echo
done | sort -n | sed -n 2p > "$tmp/startup"
startup=$(cat "$tmp/startup")
echo "ACE start-up (median of 3): ${startup}s CPU" >&2

rows=""
ratios=""
while IFS=$'\t' read -r model file kind expected ace_ref constraints; do
  [ "$model" = model ] && continue
  # ACE first on odd rows, xcsp-csp first on even rows.
  n=$(( ${n:-0} + 1 ))
  for who in $( [ $((n % 2)) = 1 ] && echo "ace csp" || echo "csp ace" ); do
    if [ "$who" = ace ]; then
      /usr/bin/time -f '%U %S' -o "$tmp/ta" timeout $((limit + 10)) java -jar "$jar" "$set_dir/$file" -t=${limit}s > "$tmp/ace.out" 2>&1 || true
    else
      /usr/bin/time -f '%U %S' -o "$tmp/tc" timeout $((limit + 10)) "$bin" "$set_dir/$file" --time-limit ${limit}s > "$tmp/csp.out" 2>&1 || true
    fi
  done
  ace=$(awk -v a="$(cpu "$tmp/ta")" -v s="$startup" 'BEGIN { t = a - s; if (t < 0.01) t = 0.01; printf "%.2f", t }')
  ours=$(cpu "$tmp/tc")
  ours_s=$(grep '^s ' "$tmp/csp.out" | head -1 | sed 's/^s //')
  # ACE colours its output: strip the escape sequences first.
  ace_s=$(sed 's/\x1b\[[0-9;]*m//g' "$tmp/ace.out" | grep '^s ' | head -1 | sed 's/^s //')
  ratio=$(awk -v c="$ours" -v a="$ace" 'BEGIN { if (c < 0.01) c = 0.01; printf "%.2f", c / a }')
  ratios="$ratios $ratio"
  rows="$rows| $file | $ace_s | $ace | $ours_s | $ours | ${ratio}x |\n"
  echo "$file ace=$ace ($ace_s) csp=$ours ($ours_s) ${ratio}x" >&2
done < "$set_dir/expected.tsv"
geomean=$(echo "$ratios" | awk '{ s = 0; for (i = 1; i <= NF; i++) s += log($i); printf "%.2f", exp(s / NF) }')
worst=$(echo "$ratios" | tr ' ' '\n' | sort -g | tail -1)

table="<!-- xcsp-vs-ace -->
### xcsp-csp against ACE on the shared XCSP3 set

Measured by \`bench/xcsp/vs-ace.sh\` on $(date -u +%Y-%m-%d): CPU seconds (user + system),
time limit ${limit}s, ACE's JVM start-up (${startup}s, a one-variable instance) taken off,
the two solvers alternating. Geometric mean of xcsp-csp/ACE: **${geomean}x**, worst ${worst}x.

| instance | ACE answer | ACE CPU s | xcsp-csp answer | xcsp-csp CPU s | ratio |
|---|---|---|---|---|---|
$(printf "$rows")
<!-- /xcsp-vs-ace -->"
doc=${DOC:-$root/docs/performance.md}
if grep -q '<!-- xcsp-vs-ace -->' "$doc"; then
  awk -v t="$table" '/<!-- xcsp-vs-ace -->/ { print t; skip = 1 } /<!-- \/xcsp-vs-ace -->/ { skip = 0; next } !skip' "$doc" > "$tmp/doc"
  cp "$tmp/doc" "$doc"
else
  printf '\n%s\n' "$table" >> "$doc"
fi
echo "geomean ${geomean}x, worst ${worst}x; table written to $doc" >&2
