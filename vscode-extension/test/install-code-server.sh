#!/usr/bin/env bash
# Installs code-server@4.100.3 (the last line for Node 20) under test/.cache/code-server,
# with the offline workarounds documented in the machine notes.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
D="$HERE/.cache/code-server"
if [ -x "$D/node_modules/.bin/code-server" ]; then exit 0; fi
mkdir -p "$D/tmp/vscode-ripgrep-cache-1.15.11"
RG="$(command -v rg || true)"
if [ -n "$RG" ]; then
  tar czf "$D/tmp/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$RG")" rg
fi
cd "$D"
[ -f package.json ] || echo '{"name":"cs-host","private":true}' > package.json
TMPDIR="$D/tmp" npm_config_yes=true npm_config_unsafe_perm=true npm_config_nodedir=/usr \
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefer-offline --no-audit --no-fund code-server@4.100.3
