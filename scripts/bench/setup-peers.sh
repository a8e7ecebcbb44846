#!/usr/bin/env bash
# Installs the peer MCP servers scripts/bench.ts compares mcpbin with (and the peer proxy of scripts/bench-proxy.ts), into a scratch dir (default /tmp/peers):
# pinned npm installs, the equivalent servers (./peers/), and the bun --compile binaries.
# Adapted from ../shared/bench/peers/setup-peers.sh (the calibration harness of this benchmark).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PEERS="${1:-/tmp/peers}"
mkdir -p "$PEERS/servers" "$PEERS/bin"
cd "$PEERS"
[ -f package.json ] || npm init -y >/dev/null
npm install --no-audit --no-fund --save-exact \
  bun@1.4.4 @modelcontextprotocol/sdk@1.32.2 \
  @modelcontextprotocol/server@2.4.0 @modelcontextprotocol/client@2.4.0 \
  fastmcp@4.20.16 tmcp@1.20.0 @tmcp/transport-stdio@0.5.0 @tmcp/adapter-valibot@0.1.6 \
  valibot@1.5.0 zod@4.6.7 \
  mcp-proxy@6.7.19   # the peer proxy of scripts/bench-proxy.ts (punkpeye's stdio → Streamable HTTP proxy)
cp "$HERE"/peers/* "$PEERS/servers/"
BUN="$PEERS/node_modules/.bin/bun"
"$BUN" build --compile servers/baseline-bun.ts --outfile bin/baseline-bun
"$BUN" build --compile servers/sdk-v1.mjs --outfile bin/sdk-v1
"$BUN" build --compile --minify --bytecode --format=esm servers/sdk-v1.mjs --outfile bin/sdk-v1-bytecode
"$BUN" build --compile servers/sdk-v2.mjs --outfile bin/sdk-v2
"$BUN" build --compile servers/tmcp.mjs --outfile bin/tmcp
echo "peers ready in $PEERS (bun $("$BUN" --version), node $(node --version))"
