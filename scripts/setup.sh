#!/usr/bin/env bash
# The repository's setup (npm start / npm test run it first): the pinned load
# and chaos tools through `rampart setup` — the same per-user cache an
# installed rampart uses ($XDG_CACHE_HOME or ~/.cache, rampart/tools/<tool>-<version>/),
# so a clone and an installed copy share one build — then Chromium for the
# report screenshot test where it can. A no-op when everything is there.
# A k6 / toxiproxy-server on PATH whose version matches is used (linked).
# RAMPART_SKIP_TOOLS=1 skips the Go builds entirely.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

say() { printf 'setup: %s\n' "$*" >&2; }

if [[ "${RAMPART_SKIP_TOOLS:-}" == "1" ]]; then
  say "RAMPART_SKIP_TOOLS=1: not building k6 and toxiproxy (load and chaos suites will be skipped)"
  exit 0
fi

# Pins: tools/go.mod (go.sum committed). src/tools/setup.ts finds, links or builds them.
node "$ROOT/bin/rampart.js" setup >&2

# Chromium for the report screenshot test: Debian's package, only where we
# may install system packages (CI as root, or RAMPART_INSTALL_CHROMIUM=1 with
# passwordless sudo). Elsewhere the browser test is skipped visibly.
if [[ -z "${CHROMIUM_PATH:-}" ]] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  if [[ "${RAMPART_INSTALL_CHROMIUM:-}" == "1" ]] && command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    if [[ "$(id -u)" != "0" ]]; then
      if sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO=""; fi
    fi
    if [[ "$(id -u)" == "0" || -n "$SUDO" ]]; then
      say "installing Debian's chromium for the report screenshot test"
      ($SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null) ||
        say "could not install chromium; the report screenshot test will be skipped"
    else
      say "chromium not installed and no root: the report screenshot test will be skipped"
    fi
  fi
fi

