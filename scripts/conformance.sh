#!/usr/bin/env bash
# Runs the official MCP conformance suite and the inspector CLI against the compiled examples/conformance server.
# Not part of `npm test`: it needs the suite, mcp-proxy and the inspector installed outside this repo.
#
#   scripts/conformance.sh            build, then: suite for 2025-11-25 (default), json-schema-2020-12 at
#                                     2025-11-25, suite for --requirements 2026-07-28, inspector CLI in both eras
#   scripts/conformance.sh --http     the same suite runs against the binary's own Streamable HTTP
#                                     transport (`--http 127.0.0.1:$PORT`) instead of the stdio bridge
#   scripts/conformance.sh --handler  the same suite against mcpHandler() mounted in a Bun.serve app
#                                     (scripts/conformance-handler.ts); compare with --http
#   scripts/conformance.sh --proxy    the same suite against `mcpbin proxy --http` in front of the binary
#                                     over stdio (one servers-file entry); compare with --http
# Env:
#   PEERS  where the peers live (default /tmp/peers), set up once with
#            npm i --prefix $PEERS/conf-alpha @modelcontextprotocol/conformance@0.2.0-alpha.12
#            npm i --prefix $PEERS mcp-proxy@6.7.19 bun@1.4.4
#            npm i --prefix $PEERS/insp2 @modelcontextprotocol/inspector@2.12.0
#   PORT   the bridge's port (default 3199)
#   OUT    results directory (default a new /tmp/mcpbin-conformance.XXXXXX)
# The suite's server mode speaks Streamable HTTP only, so mcp-proxy bridges it to the stdio binary
# (the same bridge as ../shared/bench/conformance.sh). The suite needs Node >= 22 (fs.globSync); it is run with Bun.
set -uo pipefail
cd "$(dirname "$0")/.."
PEERS="${PEERS:-/tmp/peers}"
PORT="${PORT:-3199}"
OUT="${OUT:-$(mktemp -d /tmp/mcpbin-conformance.XXXXXX)}"
BUN=node_modules/.bin/bun
SUITE="$PEERS/conf-alpha/node_modules/@modelcontextprotocol/conformance/dist/index.js"
PROXY="$PEERS/node_modules/.bin/mcp-proxy"
INSPECTOR="$PEERS/insp2/node_modules/.bin/mcp-inspector"
TRANSPORT=stdio
[ "${1:-}" = "--http" ] && TRANSPORT=http
[ "${1:-}" = "--handler" ] && TRANSPORT=handler
[ "${1:-}" = "--proxy" ] && TRANSPORT=proxy
NEEDED="$SUITE"
[ "$TRANSPORT" = stdio ] && NEEDED="$SUITE $PROXY"
for f in $NEEDED; do [ -e "$f" ] || { echo "missing $f (see the set-up lines at the top of $0)" >&2; exit 2; }; done
mkdir -p "$OUT"
BIN="$PWD/.test-build/conformance"
"$BUN" bin/mcpbin.ts build examples/conformance/server.ts --outfile "$BIN" >/dev/null || exit 1
echo "binary: $BIN"
echo "results: $OUT (transport: $TRANSPORT)"

# One suite run through a fresh bridge; $1 names the run, the rest are suite arguments.
run_suite() {
  local name="$1"; shift
  local dir="$OUT/$name"
  mkdir -p "$dir"
  if [ "$TRANSPORT" = http ]; then
    "$BIN" --http "127.0.0.1:$PORT" >"$dir/server.log" 2>&1 &
  elif [ "$TRANSPORT" = handler ]; then
    PORT="$PORT" "$BUN" scripts/conformance-handler.ts >"$dir/server.log" 2>&1 &
  elif [ "$TRANSPORT" = proxy ]; then
    printf '{"mcpServers":{"conformance":{"command":"%s"}}}' "$BIN" >"$dir/servers.json"
    "$BUN" bin/mcpbin.ts proxy --servers "$dir/servers.json" --http "127.0.0.1:$PORT" >"$dir/server.log" 2>&1 &
  else
    node "$PROXY" --port "$PORT" --host 127.0.0.1 --server stream -- "$BIN" >"$dir/proxy.log" 2>&1 &
  fi
  local proxy=$!
  for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/mcp" && break; sleep 0.2; done
  "$BUN" "$SUITE" server --url "http://127.0.0.1:$PORT/mcp" -o "$dir" "$@" >"$dir/suite.log" 2>&1
  echo "== $name (suite exit $?)"
  kill "$proxy" 2>/dev/null; wait "$proxy" 2>/dev/null
  # One line per scenario: its checks counted by status.
  node -e '
    const fs = require("fs"), path = require("path");
    const dir = process.argv[1];
    for (const d of fs.readdirSync(dir).sort()) {
      const f = path.join(dir, d, "checks.json");
      if (!fs.existsSync(f)) continue;
      const n = {};
      for (const c of JSON.parse(fs.readFileSync(f, "utf8"))) n[c.status] = (n[c.status] ?? 0) + 1;
      const scenario = d.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "");
      const verdict = n.FAILURE ? "FAIL" : "pass";
      console.log(`${verdict}  ${scenario.padEnd(48)} ${Object.entries(n).map(([k, v]) => `${k.toLowerCase()} ${v}`).join(", ")}`);
    }' "$dir"
}

run_suite default-2025-11-25
run_suite json-schema-2025-11-25 --spec-version 2025-11-25 --scenario json-schema-2020-12
run_suite requirements-2026-07-28 --requirements 2026-07-28

# The inspector CLI in both eras over stdio: tools/list and one tools/call each.
if [ "$TRANSPORT" != stdio ]; then
  :
elif [ -x "$INSPECTOR" ]; then
  for era in legacy modern; do
    echo "== inspector --protocol-era $era"
    "$INSPECTOR" --cli "$BIN" --protocol-era "$era" --method tools/list --format json -q >"$OUT/inspector-$era-list.json" 2>&1
    echo "tools/list exit $?: $(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));const x=r.result??r;console.log(x.tools.length+" tools"+(x.resultType?", resultType "+x.resultType:""))' "$OUT/inspector-$era-list.json" 2>&1)"
    "$INSPECTOR" --cli "$BIN" --protocol-era "$era" --method tools/call --tool-name test_simple_text --format json -q 2>&1 | tee "$OUT/inspector-$era-call.json"
    echo
  done
else
  echo "inspector not found at $INSPECTOR: skipped"
fi
