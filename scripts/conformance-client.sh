#!/usr/bin/env bash
# Runs the official MCP conformance suite's CLIENT scenarios against examples/conformance/client.ts (mcpbin's
# connect(), signing in with OAuth when a scenario's server asks): the frozen requirement sets of 2025-11-25 and
# 2026-07-28 (each also runs the extension scenarios, unscored). Not part of `npm test`: the suite lives outside
# this repository (PEERS, default /tmp/peers; see scripts/conformance.sh for its set-up line).
#   scripts/conformance-client.sh                 both sets
#   scripts/conformance-client.sh auth/iss-supported   one scenario
set -uo pipefail
cd "$(dirname "$0")/.."
PEERS="${PEERS:-/tmp/peers}"
OUT="${OUT:-$(mktemp -d /tmp/mcpbin-conformance-client.XXXXXX)}"
BUN="$PWD/node_modules/.bin/bun"
SUITE="$PEERS/conf-alpha/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[ -e "$SUITE" ] || { echo "missing $SUITE (see the set-up lines at the top of scripts/conformance.sh)" >&2; exit 2; }
CLIENT="$BUN $PWD/examples/conformance/client.ts"
echo "results: $OUT"
if [ $# -gt 0 ]; then
  for s in "$@"; do "$BUN" "$SUITE" client --command "$CLIENT" --scenario "$s" -o "$OUT" 2>&1 | grep -E '^(Passed|Failed|  - )|OVERALL'; done
  exit 0
fi
for r in 2025-11-25 2026-07-28; do
  echo "== requirements $r"
  "$BUN" "$SUITE" client --command "$CLIENT" --requirements "$r" -o "$OUT/$r" >"$OUT/$r.log" 2>&1
  sed -n '/SUITE SUMMARY/,$p' "$OUT/$r.log"
done
