#!/usr/bin/env bash
# Builds the pinned load and chaos tools into tools/bin from their Go modules
# (tools/go.mod pins them; go.sum is committed). A no-op when the right
# versions are already there. Reuses a k6 / toxiproxy-server on PATH whose
# version matches. RAMPART_SKIP_TOOLS=1 skips the Go builds entirely.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/tools"
BIN="$TOOLS/bin"
# Single source of the pins: tools/go.mod.
K6_VERSION="$(awk '$1=="go.k6.io/k6/v2"{print $2}' "$TOOLS/go.mod")"
TOXIPROXY_VERSION="$(awk '$1=="github.com/Shopify/toxiproxy/v2"{print $2}' "$TOOLS/go.mod")"

say() { printf 'setup: %s\n' "$*" >&2; }

if [[ "${RAMPART_SKIP_TOOLS:-}" == "1" ]]; then
  say "RAMPART_SKIP_TOOLS=1: not building k6 and toxiproxy (load and chaos suites will be skipped)"
  exit 0
fi

mkdir -p "$BIN"

stamp_ok() { [[ -x "$BIN/$1" && -f "$BIN/.$1.version" && "$(cat "$BIN/.$1.version")" == "$2" ]]; }
write_stamp() { printf '%s' "$2" >"$BIN/.$1.version"; }

need_go() {
  if ! command -v go >/dev/null 2>&1; then
    say "the Go toolchain is needed to build $1 $2 (no matching binary on PATH). Install Go ≥ 1.25 or put $1 $2 on PATH."
    exit 1
  fi
}

go_build() { # name package version
  need_go "$1" "$3"
  say "building $1 $3 from its Go module (first run only; k6 takes a couple of minutes)"
  (cd "$TOOLS" && GOFLAGS=-mod=mod go build -trimpath -o "$BIN/$1.tmp" "$2")
  mv "$BIN/$1.tmp" "$BIN/$1"
  write_stamp "$1" "$3"
}

# k6
if ! stamp_ok k6 "$K6_VERSION"; then
  onpath="$(command -v k6 || true)"
  if [[ -n "$onpath" && "$onpath" != "$BIN/k6" ]] && "$onpath" version 2>/dev/null | grep -q "k6 $K6_VERSION\b"; then
    ln -sf "$onpath" "$BIN/k6"
    write_stamp k6 "$K6_VERSION"
    say "using k6 $K6_VERSION from $onpath"
  else
    go_build k6 go.k6.io/k6/v2 "$K6_VERSION"
  fi
fi

# Toxiproxy server and CLI. Built from source, -version prints "git", so the
# pinned version is recorded in the stamp file beside the binary.
for pair in "toxiproxy-server:github.com/Shopify/toxiproxy/v2/cmd/server" "toxiproxy-cli:github.com/Shopify/toxiproxy/v2/cmd/cli"; do
  name="${pair%%:*}"
  pkg="${pair#*:}"
  if stamp_ok "$name" "$TOXIPROXY_VERSION"; then continue; fi
  onpath="$(command -v "$name" || true)"
  if [[ -n "$onpath" && "$onpath" != "$BIN/$name" ]] && "$onpath" -version 2>&1 | grep -q "${TOXIPROXY_VERSION#v}"; then
    ln -sf "$onpath" "$BIN/$name"
    write_stamp "$name" "$TOXIPROXY_VERSION"
    say "using $name $TOXIPROXY_VERSION from $onpath"
  else
    go_build "$name" "$pkg" "$TOXIPROXY_VERSION"
  fi
done

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

say "tools ready: k6 $K6_VERSION, toxiproxy $TOXIPROXY_VERSION in tools/bin"
