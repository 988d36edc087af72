#!/usr/bin/env bash
# Remakes the table of docs/explore.md: for each algorithm, the largest
# network of its family that elect explore explores completely within the
# time limit, and what partial-order reduction saves there.
#
#   docs/explore-table.sh [LIMIT]        (LIMIT: 60s by default)
#
# It builds elect and the examples' elect (Hirschberg-Sinclair, Franklin,
# beacon) into a temporary directory, and prints Markdown rows.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-60s}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/elect" ./cmd/elect
(cd examples && go build -o "$bin/elect-examples" ./cmd/elect)

quick_adhoc="--duration 3s --liveness 1500ms --stabilization 1s -p heartbeat=200ms -p timeout=600ms"
# name | program | family | first n | flags
cases=(
  "chang-roberts|elect|ring|3|--values id"
  "chang-roberts, every arrangement|elect|ring|3|--values id --arrangements"
  "echo|elect|complete|3|--values id"
  "extinction|elect|complete|3|--values id"
  "capture-async|elect|complete|3|--values id"
  "capture-sync|elect|complete|3|--values id --duration 1s"
  "all-to-all|elect|complete|3|--values id --duration 1s"
  "ring|elect|ring|3|--values id --duration 2s --liveness 1500ms --stabilization 1s"
  "bully|elect|complete|3|--values id --duration 2s --liveness 1500ms --stabilization 1s"
  "vkt|elect|line|3|--values id $quick_adhoc -p probe=200ms -p election_timeout=1s"
  "vkt, one crash|elect|line|3|--values id --crashes 1 $quick_adhoc -p probe=200ms -p election_timeout=1s"
  "park|elect|line|3|--values id $quick_adhoc -p resend=200ms -p ack_timeout=600ms -p election_timeout=1s"
  "hs|elect-examples|ring|3|--values id"
  "franklin|elect-examples|ring|3|--values id"
  "beacon|elect-examples|line|3|--values id --duration 2s --liveness 1s --stabilization 500ms -p period=100ms"
)

field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" <<<"$2" | tr -d '"'; }

echo "| algorithm | largest network explored completely | distinct states | steps taken (sleep sets off → on) | states/s | wall |"
echo "|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
  IFS='|' read -r name prog family n flags <<<"$c"
  algo=${name%%,*}
  best="" ; bestjson=""
  while :; do
    # shellcheck disable=SC2086
    out=$("$bin/$prog" explore --algo "$algo" --topology "$family:$n" $flags --time "$limit" --max-states 40000000 --json 2>/dev/null || true)
    [ -n "$out" ] || break
    if [ "$(field complete "$out")" != true ]; then break; fi
    best=$n; bestjson=$out
    n=$((n + 1))
    [ "$n" -le 16 ] || break
  done
  if [ -z "$best" ]; then
    echo "| $name | none within $limit | | | | |"
    continue
  fi
  # shellcheck disable=SC2086
  off=$("$bin/$prog" explore --algo "$algo" --topology "$family:$best" $flags --time "$limit" --max-states 40000000 --json --no-por 2>/dev/null || true)
  offsteps=$(field states "$off"); [ "$(field complete "$off")" = true ] || offsteps=">$offsteps"
  wall=$(field wall_ms "$bestjson")
  printf "| %s | %s:%s | %s | %s → %s | %.0f | %.1f s |\n" "$name" "$family" "$best" "$(field distinct "$bestjson")" \
    "$offsteps" "$(field states "$bestjson")" "$(field states_per_second "$bestjson")" "$(awk "BEGIN{print $wall/1000}")"
done
