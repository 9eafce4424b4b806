#!/usr/bin/env bash
# Times `minizinc --solver csp` against Gecode on every instance of the shared
# MiniZinc benchmark set, checks both answers against expected.tsv, and prints
# a table with the geometric mean of the time ratios (issue 15, part 5).
#
#   bench/minizinc/vs-gecode.sh [--markdown] [--output FILE] [TIMEOUT_SECONDS]
#   bench/minizinc/vs-gecode.sh --gecode-solver-dir DIR
#
# TIMEOUT_SECONDS (default 60) limits each run. For every instance the two
# solvers run alternately (csp run 1, Gecode run 1, csp run 2, ...), RUNS times
# each; the table shows the median wall time of each solver. A time is the
# wall time of the whole minizinc command (compilation included, for both). A
# run that gives no complete answer within the limit counts as TIMEOUT_SECONDS
# and its time is marked `*`.
#
# Gecode is Debian's Gecode 6.2 with a copy of its mznlib in which inverse.mzn
# and nvalue.mzn are replaced by bench/minizinc/gecode-mznlib/ (Gecode 6.2's
# versions do not type-check with MiniZinc 2.6.4's globals.mzn; see
# bench/minizinc/README.md). The copy and a solver configuration (id
# org.csp.bench.gecode-adapted) are made in a temporary folder at each run;
# `--gecode-solver-dir DIR` writes them to DIR instead and exits, for use by
# hand with MZN_SOLVER_PATH=DIR/solvers.
#
# Options:
#   --markdown       print markdown tables instead of tab-separated ones
#   --output FILE    also write the tables as markdown to FILE, with the date,
#                    the command, the load and the versions (for
#                    docs/performance.md); the OUTPUT variable does the same
# Environment:
#   RUNS          runs per solver and instance (default 3)
#   BENCH_DIR     the benchmark set (default ../shared/minizinc-benchmarks
#                 from the repository root); its expected.tsv lists the
#                 instances (family, model, data, kind, expected, ...) with
#                 paths relative to BENCH_DIR
#   EXTRA_TSV     a second list in the same format (paths relative to its own
#                 folder), our own instances, timed into a separate table
#   ONLY          an extended regular expression: run only the instances
#                 whose name matches (e.g. ONLY='queens|golomb/09')
#   FZN_CSP_DIR   where fzn-csp is (default target/release; build it with
#                 `cargo build --release -p csp-flatzinc`)
#   EXTRA         more minizinc flags for csp only (e.g. "--pruning mac")
#   GECODE_MZNLIB Gecode's mznlib (default: the gecode folder of minizinc's
#                 standard library, as `-Ggecode` in Gecode's gecode.msc)
#   FZN_GECODE    Gecode's FlatZinc executable (default fzn-gecode on PATH)
#
# Columns: instance; answers, csp's then Gecode's (ok; timeout: no complete
# answer in time; wrong: a different answer, a bug; unsupported: fzn-csp
# refused the model; error), the worst over the runs; the median times in
# seconds; the ratio csp/Gecode of the medians (`>`: csp timed out, so the
# true ratio is larger; `<`: Gecode timed out; `~`: both); the nodes each
# solver reports with -s (`%%%mzn-stat: nodes=`; for csp the values tried,
# for Gecode the nodes of its search tree), from the run with the median time;
# MiniZinc's compilation time with each solver's library (`%%%mzn-stat:
# flatTime=`, median over the runs); the ratio of the solver parts, csp's over
# Gecode's (a command's time minus its flatTime: the solver's run and the
# output's processing; medians), which tells the solver apart from the
# library's compilation. Under each table: the geometric mean of the ratios
# over the instances where both answers are ok, or one is ok and the other
# timed out (counted at TIMEOUT_SECONDS), then the same for the solver parts;
# the instances slower than 2x Gecode; the instances left
# out of the mean (both timed out; an answer wrong, unsupported or an error).
# Progress, one line per run, goes to stderr.
#
# Exits 1 if any answer is wrong, unsupported or an error, 2 on bad usage.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/bench/minizinc"
gecode_id=org.csp.bench.gecode-adapted
# sha256 of the Gecode 6.2 files that gecode-mznlib/ replaces (Debian's
# flatzinc package 6.2.0); another version gets a warning.
known_inverse=0b0917a4271ef86dc46339230a256736fe632e264ae32eef19e827dcda9571a3
known_nvalue=7ddef188747873a5a83dcf81b4dd3f5621114ea00a5fa916bdd8692082c7efba

usage() {
  echo "usage: $0 [--markdown] [--output FILE] [TIMEOUT_SECONDS] | --gecode-solver-dir DIR" >&2
  exit 2
}

markdown=0
outfile=${OUTPUT:-}
setup_only=
limit=60
while [ $# -gt 0 ]; do
  case $1 in
    --markdown) markdown=1 ;;
    --output)
      [ $# -ge 2 ] || usage
      outfile=$2
      shift
      ;;
    --gecode-solver-dir)
      [ $# -ge 2 ] || usage
      setup_only=$2
      shift
      ;;
    -h | --help)
      sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    -*) usage ;;
    *)
      [[ $1 =~ ^[1-9][0-9]*$ ]] || {
        echo "error: the timeout must be a whole number of seconds, not '$1'" >&2
        exit 2
      }
      limit=$1
      ;;
  esac
  shift
done
runs=${RUNS:-3}
[[ $runs =~ ^[1-9][0-9]*$ ]] || {
  echo "error: RUNS must be a positive whole number, not '$runs'" >&2
  exit 2
}

if ! command -v minizinc >/dev/null; then
  echo "error: minizinc is not on PATH" >&2
  exit 2
fi

# --- the adapted Gecode solver ----------------------------------------------

# make_gecode DIR: copies Gecode's mznlib to DIR/gecode-mznlib, puts the
# adapted files over it, and writes DIR/solvers/gecode-adapted.msc.
make_gecode() {
  local dir=$1 stdlib lib exe version f
  stdlib=$(minizinc --config-dirs | sed -n 's/.*"mznStdlibDir" *: *"\(.*\)".*/\1/p')
  lib=${GECODE_MZNLIB:-$stdlib/gecode}
  exe=${FZN_GECODE:-$(command -v fzn-gecode)}
  if [ ! -f "$lib/gecode.mzn" ]; then
    echo "error: Gecode's mznlib not found at '$lib' (set GECODE_MZNLIB)" >&2
    return 2
  fi
  if [ -z "$exe" ] || [ ! -x "$exe" ]; then
    echo "error: fzn-gecode not found (install Debian's flatzinc package or set FZN_GECODE)" >&2
    return 2
  fi
  for f in inverse nvalue; do
    local want sum
    want=$([ "$f" = inverse ] && echo "$known_inverse" || echo "$known_nvalue")
    sum=$(sha256sum "$lib/$f.mzn" 2>/dev/null | cut -d' ' -f1)
    if [ "$sum" != "$want" ]; then
      echo "warning: $lib/$f.mzn is not the Gecode 6.2 file that bench/minizinc/gecode-mznlib/$f.mzn adapts; check bench/minizinc/README.md" >&2
    fi
  done
  version=$("$exe" -help 2>&1 | sed -n 's/.*Version: *//p' | head -1)
  mkdir -p "$dir/solvers" || return 2
  rm -rf "$dir/gecode-mznlib"
  cp -r "$lib" "$dir/gecode-mznlib" || return 2
  cp "$here"/gecode-mznlib/*.mzn "$dir/gecode-mznlib/" || return 2
  cat >"$dir/solvers/gecode-adapted.msc" <<EOF
{
  "id": "$gecode_id",
  "name": "gecode-adapted",
  "description": "Gecode ${version:-6.2} with bench/minizinc/gecode-mznlib over its mznlib",
  "version": "${version:-6.2.0}",
  "mznlib": "$dir/gecode-mznlib",
  "executable": "$exe",
  "tags": ["cp", "int", "float", "set", "restart"],
  "stdFlags": ["-a", "-f", "-n", "-p", "-r", "-s", "-t"],
  "supportsMzn": false,
  "supportsFzn": true,
  "needsSolns2Out": true,
  "needsMznExecutable": false,
  "needsStdlibDir": false,
  "isGUIApplication": false
}
EOF
}

if [ -n "$setup_only" ]; then
  mkdir -p "$setup_only" || exit 2
  setup_only=$(cd "$setup_only" && pwd)
  make_gecode "$setup_only" || exit 2
  echo "MZN_SOLVER_PATH=$setup_only/solvers minizinc --solver $gecode_id ..."
  exit 0
fi

bench=${BENCH_DIR:-$root/../shared/minizinc-benchmarks}
bin=${FZN_CSP_DIR:-$root/target/release}
if [ ! -x "$bin/fzn-csp" ]; then
  echo "error: $bin/fzn-csp not found; run cargo build --release -p csp-flatzinc" >&2
  exit 2
fi
if [ ! -f "$bench/expected.tsv" ]; then
  echo "error: $bench/expected.tsv not found (set BENCH_DIR)" >&2
  exit 2
fi
if [ -n "${EXTRA_TSV:-}" ] && [ ! -f "$EXTRA_TSV" ]; then
  echo "error: EXTRA_TSV file '$EXTRA_TSV' not found" >&2
  exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make_gecode "$tmp" || exit 2
export PATH="$bin:$PATH" MZN_SOLVER_PATH="$root/crates/csp-flatzinc/share:$tmp/solvers"
if ! minizinc --solvers | grep -q "($gecode_id,"; then
  echo "error: minizinc does not list the solver $gecode_id written to $tmp/solvers" >&2
  exit 2
fi
if [ -n "$outfile" ]; then
  : >"$outfile" || exit 2
fi

# --- one run ------------------------------------------------------------------

# run_one SOLVER KIND EXPECTED SENSE MODEL [DATA]: runs minizinc once and sets
# r_secs, r_timeout (1 or 0), r_verdict, r_answer, r_nodes and r_flat
# (MiniZinc's flatTime: its compilation, in seconds; 0 if not printed).
run_one() {
  local solver=$1 kind=$2 expected=$3 sense=$4 start status out last_obj
  shift 4
  local flags=(--solver "$solver" -s --output-mode dzn --output-objective
    --time-limit $((limit * 1000)))
  if [ "$solver" = csp ]; then
    # shellcheck disable=SC2206 # EXTRA is a list of flags
    flags+=(${EXTRA:-})
  fi
  start=$(date +%s.%N)
  # minizinc's own limit (it passes -t to the solver), and a hard stop after it.
  timeout -k 5 $((limit + 15)) minizinc "${flags[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
  status=$?
  r_secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
  out=$(cat "$tmp/out" "$tmp/err")
  r_nodes=$(sed -n 's/^%%%mzn-stat: nodes=\([0-9]*\).*/\1/p' "$tmp/out" | tail -1)
  r_nodes=${r_nodes:--}
  r_flat=$(sed -n 's/^%%%mzn-stat: flatTime=\([0-9.e+-]*\).*/\1/p' "$tmp/out" | head -1)
  r_flat=${r_flat:-0}
  last_obj=$(grep -o '^_objective = -\?[0-9]*' "$tmp/out" | tail -1 | awk '{print $3}')
  r_answer=-
  r_verdict=timeout
  if grep -q '^=====UNSATISFIABLE=====' "$tmp/out"; then
    r_answer=unsat
    [ "$expected" = unsat ] && r_verdict=ok || r_verdict=wrong
  elif [ "$kind" = satisfy ] && grep -q -- '^----------' "$tmp/out"; then
    r_answer=sat
    [ "$expected" = sat ] && r_verdict=ok || r_verdict=wrong
  elif [ "$kind" = optimize ] && [ -n "$last_obj" ] && grep -q '^==========' "$tmp/out"; then
    r_answer=$last_obj
    [ "$last_obj" = "$expected" ] && r_verdict=ok || r_verdict=wrong
  elif [ "$kind" = optimize ] && [ -n "$last_obj" ]; then
    # Stopped early: the best so far must not beat the proved optimum.
    r_answer=$last_obj
    if { [ "$sense" = min ] && [ "$last_obj" -lt "$expected" ]; } ||
      { [ "$sense" = max ] && [ "$last_obj" -gt "$expected" ]; }; then
      r_verdict=wrong
    fi
  elif [ "$solver" = csp ] && grep -qi unsupported <<<"$out"; then
    r_verdict=unsupported
    r_answer=$(grep -i -m1 unsupported <<<"$out")
  elif [ "$status" -ne 0 ] && [ "$status" -ne 124 ] && [ "$status" -ne 137 ] &&
    ! grep -q '^=====UNKNOWN=====' "$tmp/out"; then
    r_verdict=error
    r_answer=$(grep -v -e '^Warning' -e '^$' "$tmp/err" | head -1 | head -c 200)
  fi
  r_timeout=0
  if [ "$r_verdict" = timeout ]; then
    r_timeout=1
    r_secs=$limit
  fi
}

# --- tables -------------------------------------------------------------------

# rank VERDICT: 0 (ok) to 4 (wrong).
rank() {
  case $1 in ok) echo 0 ;; timeout) echo 1 ;; error) echo 2 ;; unsupported) echo 3 ;; *) echo 4 ;; esac
}

# worst A B: the worse of two verdicts.
worst() {
  if [ "$(rank "$1")" -ge "$(rank "$2")" ]; then echo "$1"; else echo "$2"; fi
}

# commas N: 1234567 -> 1,234,567 (markdown only).
commas() {
  sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta' <<<"$1"
}

header=(instance answers csp_s gecode_s csp/gecode csp_nodes gecode_nodes csp_compile_s gecode_compile_s solver_part_csp/gecode)
md_header='| instance | answers (csp/Gecode) | csp (s) | Gecode (s) | csp/Gecode | csp nodes | Gecode nodes | csp compile (s) | Gecode compile (s) | solver part csp/Gecode |'
md_rule='|---|---|---:|---:|---:|---:|---:|---:|---:|---:|'

# emit FIELDS...: one row, to stdout in the chosen format and to the file.
emit() {
  local md
  md="| $1 | $2 | $3 | $4 | $5 | $(commas "$6") | $(commas "$7") | $8 | $9 | ${10} |"
  if [ "$markdown" = 1 ]; then echo "$md"; else (IFS=$'\t' && echo "$*"); fi
  [ -z "$outfile" ] || echo "$md" >>"$outfile"
}

# say TEXT: a line under or over a table, to stdout and the file.
say() {
  echo "$1"
  [ -z "$outfile" ] || echo "$1" >>"$outfile"
}

# median of the numbers on stdin (the mean of the middle two for an even count).
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

bad=0

# table TSV TITLE: runs every instance listed in TSV (paths relative to its
# folder) and prints the table and its summary.
table() {
  local list=$1 title=$2 dir family model data kind expected name sense
  local ratios=() parts=() slow=() unsure=() excluded=() both=() n=0
  dir=$(cd "$(dirname "$list")" && pwd)
  say ""
  say "$title"
  say ""
  if [ "$markdown" = 1 ]; then
    echo "$md_header"
    echo "$md_rule"
  else
    (IFS=$'\t' && echo "${header[*]}")
  fi
  [ -z "$outfile" ] || printf '%s\n%s\n' "$md_header" "$md_rule" >>"$outfile"
  while IFS=$'\t' read -r family model data kind expected _ <&3; do
    [ "$family" = family ] && continue
    [ -n "$family" ] || continue
    [[ $model == /* ]] || model="$dir/$model"
    [[ $data == /* ]] || [ "$data" = - ] || data="$dir/$data"
    local args=("$model")
    name=$(basename "$(dirname "$model")")/$(basename "${model%.mzn}")
    if [ "$data" != - ]; then
      args+=("$data")
      name="$family/$(basename "${data%.dzn}")"
    fi
    if [ -n "${ONLY:-}" ] && ! [[ $name =~ $ONLY ]]; then
      continue
    fi
    sense=
    if [ "$kind" = optimize ]; then
      # min or max, from minizinc's view of the model (for runs stopped early).
      sense=$(minizinc --solver csp --model-interface-only "${args[@]}" 2>/dev/null |
        sed -n 's/.*"method" *: *"\([a-z]*\)".*/\1/p')
    fi
    local s v_csp=ok v_gec=ok t_csp=() t_gec=() n_csp=() n_gec=() o_csp=0 o_gec=0 i
    local f_csp=() f_gec=() p_csp=() p_gec=()
    for ((i = 1; i <= runs; i++)); do
      for s in csp "$gecode_id"; do
        run_one "$s" "$kind" "$expected" "$sense" "${args[@]}"
        printf '  %s run %d/%d %s: %.2f s, %s (%s), nodes %s\n' "$name" "$i" "$runs" \
          "$([ "$s" = csp ] && echo csp || echo gecode)" "$r_secs" "$r_verdict" "$r_answer" "$r_nodes" >&2
        if [ "$s" = csp ]; then
          v_csp=$(worst "$v_csp" "$r_verdict")
          t_csp+=("$r_secs")
          n_csp+=("$r_nodes")
          o_csp=$((o_csp + r_timeout))
          f_csp+=("$r_flat")
          p_csp+=("$(awk -v a="$r_secs" -v b="$r_flat" 'BEGIN { printf "%.3f", a - b }')")
        else
          v_gec=$(worst "$v_gec" "$r_verdict")
          t_gec+=("$r_secs")
          n_gec+=("$r_nodes")
          o_gec=$((o_gec + r_timeout))
          f_gec+=("$r_flat")
          p_gec+=("$(awk -v a="$r_secs" -v b="$r_flat" 'BEGIN { printf "%.3f", a - b }')")
        fi
      done
    done
    local m_csp m_gec nodes_csp nodes_gec ratio mark=
    m_csp=$(printf '%s\n' "${t_csp[@]}" | median)
    m_gec=$(printf '%s\n' "${t_gec[@]}" | median)
    # The nodes of the run whose time is nearest the median.
    nodes_csp=$(paste <(printf '%s\n' "${t_csp[@]}") <(printf '%s\n' "${n_csp[@]}") |
      awk -v m="$m_csp" '{ d = $1 - m; if (d < 0) d = -d; if (NR == 1 || d < b) { b = d; n = $2 } } END { print n }')
    nodes_gec=$(paste <(printf '%s\n' "${t_gec[@]}") <(printf '%s\n' "${n_gec[@]}") |
      awk -v m="$m_gec" '{ d = $1 - m; if (d < 0) d = -d; if (NR == 1 || d < b) { b = d; n = $2 } } END { print n }')
    ratio=$(awk -v a="$m_csp" -v b="$m_gec" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 0.001) }')
    # The compilation (MiniZinc's flatTime) and the rest of the command (the
    # solver's run and the output's processing), each a median over the runs.
    local fc_csp fc_gec pm_csp pm_gec part
    fc_csp=$(printf '%s\n' "${f_csp[@]}" | median)
    fc_gec=$(printf '%s\n' "${f_gec[@]}" | median)
    pm_csp=$(printf '%s\n' "${p_csp[@]}" | median)
    pm_gec=$(printf '%s\n' "${p_gec[@]}" | median)
    part=$(awk -v a="$pm_csp" -v b="$pm_gec" 'BEGIN { printf "%.2f", (a > 0.001 ? a : 0.001) / (b > 0.001 ? b : 0.001) }')
    if [ "$o_csp" -gt 0 ] && [ "$o_gec" -gt 0 ]; then
      mark='~'
    elif [ "$o_csp" -gt 0 ]; then
      mark='>'
    elif [ "$o_gec" -gt 0 ]; then
      mark='<'
    fi
    local c_csp g_gec
    c_csp=$(printf '%.3f' "$m_csp")
    g_gec=$(printf '%.3f' "$m_gec")
    [ "$o_csp" -gt 0 ] && c_csp="$c_csp*"
    [ "$o_gec" -gt 0 ] && g_gec="$g_gec*"
    emit "$name" "$v_csp/$v_gec" "$c_csp" "$g_gec" "$mark$ratio" "$nodes_csp" "$nodes_gec" \
      "$(printf '%.3f' "$fc_csp")" "$(printf '%.3f' "$fc_gec")" "$mark$part"
    n=$((n + 1))
    case $v_csp/$v_gec in
      *wrong* | *unsupported* | *error*)
        bad=1
        excluded+=("$name")
        ;;
      */*)
        if [ "$mark" = '~' ]; then
          both+=("$name")
          continue
        fi
        ratios+=("$m_csp $m_gec")
        parts+=("$part")
        if awk -v r="$ratio" 'BEGIN { exit !(r > 2) }'; then
          slow+=("$name ($mark${ratio}x)")
        elif [ "$mark" = '>' ]; then
          unsure+=("$name")
        fi
        ;;
    esac
  done 3<"$list"
  say ""
  if [ "$n" -eq 0 ]; then
    say "No instance ran (the list is empty, or ONLY matches none)."
  elif [ ${#ratios[@]} -gt 0 ]; then
    local geo
    geo=$(printf '%s\n' "${ratios[@]}" |
      awk '{ b = ($2 > 0 ? $2 : 0.001); s += log($1 / b) } END { printf "%.2f", exp(s / NR) }')
    say "Geometric mean of csp/Gecode: ${geo}x over ${#ratios[@]} of $n instances; slower than 2x Gecode: ${#slow[@]}."
    geo=$(printf '%s\n' "${parts[@]}" | awk '{ s += log($1) } END { printf "%.2f", exp(s / NR) }')
    say "Geometric mean of the solver parts (each command's time minus MiniZinc's compilation): ${geo}x over the same instances."
  else
    say "No instance with both answers ok (or one timed out): no geometric mean."
  fi
  [ ${#slow[@]} -eq 0 ] || say "Slower than 2x: $(printf '%s, ' "${slow[@]}" | sed 's/, $//')."
  [ ${#unsure[@]} -eq 0 ] ||
    say "csp timed out under 2x Gecode's time (raise the limit to know): $(printf '%s, ' "${unsure[@]}" | sed 's/, $//')."
  [ ${#both[@]} -eq 0 ] ||
    say "Left out of the mean (both timed out): $(printf '%s, ' "${both[@]}" | sed 's/, $//')."
  [ ${#excluded[@]} -eq 0 ] ||
    say "Left out of the mean (an answer wrong, unsupported or an error): $(printf '%s, ' "${excluded[@]}" | sed 's/, $//')."
  say "Times: wall clock of the whole minizinc command (compile + solve), median of $runs run(s) per solver, alternating; * = at least one run hit the ${limit} s limit and counts as ${limit} s; ratio > / < / ~ = a bound (csp / Gecode / both timed out). Compile: MiniZinc's flatTime with each solver's library (median); solver part: the command's time minus its flatTime (the solver's run and the output's processing; median), csp's over Gecode's."
}

if [ -n "$outfile" ]; then
  {
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores ($(uptime | sed 's/.*load average/load average/') at the start)."
    echo "Command: \`RUNS=$runs bench/minizinc/vs-gecode.sh $limit\`$([ -n "${EXTRA:-}" ] && echo " with EXTRA=\"$EXTRA\"")$([ -n "${ONLY:-}" ] && echo " with ONLY='$ONLY'")$([ -n "${EXTRA_TSV:-}" ] && echo " with EXTRA_TSV=$EXTRA_TSV")."
    echo "csp $(git -C "$root" describe --always --dirty 2>/dev/null || echo '(no git)'), $(minizinc --version | head -1 | sed 's/.*version/MiniZinc/'), Gecode $("${FZN_GECODE:-fzn-gecode}" -help 2>&1 | sed -n 's/.*Version: *//p' | head -1) (adapted mznlib)."
  } >>"$outfile"
fi
table "$bench/expected.tsv" "MiniZinc benchmark set (${BENCH_DIR:-../shared/minizinc-benchmarks}/expected.tsv):"
if [ -n "${EXTRA_TSV:-}" ]; then
  table "$EXTRA_TSV" "Our own instances ($EXTRA_TSV):"
fi
[ -z "$outfile" ] || echo "load at the end: $(uptime | sed 's/.*load average: //')" >>"$outfile"
exit $bad
