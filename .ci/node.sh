#!/usr/bin/env bash
# Makes sure Node.js 20+ and npm are installed, for the JavaScript SDK
# interoperability tests (internal/jsinterop) and make conformance. It uses
# Debian's nodejs and npm packages; Debian 12's nodejs is Node 18, older
# than the MCP SDK's HTTP server allows (@hono/node-server needs 20), so
# Node 20 then comes from the npm registry's `node` package.
set -euo pipefail

have_node() {
  command -v node >/dev/null && command -v npm >/dev/null || return 1
  [ "$(node -p 'process.versions.node.split(".")[0]')" -ge 20 ]
}

if ! have_node; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo ".ci/node.sh: Node.js 20 or newer and npm are needed (internal/jsinterop): install them" >&2
    exit 1
  fi
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "installing Node.js and npm from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
  fi
  if ! have_node; then
    echo "installing Node.js 20 from the npm registry (Debian's is $(node --version))"
    npm install --global --no-audit --no-fund node@20 >/dev/null
    hash -r
  fi
  if ! have_node; then
    echo ".ci/node.sh: still no Node.js 20+: $(command -v node) is $(node --version)" >&2
    exit 1
  fi
fi
echo "node $(node --version), npm $(npm --version)"
