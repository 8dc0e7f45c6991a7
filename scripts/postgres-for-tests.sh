#!/usr/bin/env bash
# A real PostgreSQL for rampart's own tests of the run store (test/support/postgres.ts runs this): Debian's
# postgresql package, installed when missing (as root, or with passwordless sudo), its cluster started, and a
# login role that may create databases. Prints one line: `url=postgres://…` (the server, database postgres), or
# `skip=why` when that cannot be done here — the tests then skip visibly with the reason. Never a mock.
# Safe to run many times and from several test files at once (one at a time under a lock).
set -uo pipefail

ROLE=rampart_test
PASSWORD=rampart_test_store
say() { printf '%s\n' "$*"; }
log() { printf 'postgres-for-tests: %s\n' "$*" >&2; }

exec 9>"${TMPDIR:-/tmp}/rampart-postgres-for-tests.lock"
flock -w 600 9 || { say "skip=another test setup held the PostgreSQL lock for 10 minutes"; exit 0; }

SUDO=""
if [[ "$(id -u)" != "0" ]]; then
  if sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO="none"; fi
fi
as_root() { if [[ "$SUDO" == "none" ]]; then return 1; fi; $SUDO "$@"; }
as_postgres() {
  if [[ "$(id -u)" == "0" ]]; then runuser -u postgres -- "$@"; elif [[ "$SUDO" != "none" ]]; then sudo -n -u postgres "$@"; else return 1; fi
}

if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  if [[ "$SUDO" == "none" ]] || ! command -v apt-get >/dev/null 2>&1; then
    say "skip=PostgreSQL is not installed and this user cannot install it (apt-get install postgresql needs root or passwordless sudo)"
    exit 0
  fi
  log "installing Debian's postgresql (once per machine)"
  # Installing starts the cluster: the server must not inherit the lock (fd 9) or this script's pipes.
  if ! { as_root apt-get update -qq 9>&- && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq postgresql </dev/null >/dev/null 2>&1 9>&-; }; then
    say "skip=apt-get install postgresql failed on this machine"
    exit 0
  fi
fi

VERSION="$(ls /usr/lib/postgresql | sort -V | tail -1)"
if ! pg_lsclusters -h 2>/dev/null | awk -v v="$VERSION" '$1 == v && $2 == "main"' | grep -q .; then
  as_root pg_createcluster "$VERSION" main </dev/null >/dev/null 2>&1 9>&- || { say "skip=cannot create PostgreSQL $VERSION's cluster (pg_createcluster needs root)"; exit 0; }
fi
LINE="$(pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main"')"
PORT="$(awk '{print $3}' <<<"$LINE")"
if [[ "$(awk '{print $4}' <<<"$LINE")" != online* ]]; then
  log "starting PostgreSQL $VERSION (cluster main, port $PORT)"
  # The server must not inherit the lock (fd 9) or this script's pipes: it outlives the script.
  as_root pg_ctlcluster "$VERSION" main start </dev/null >/dev/null 2>&1 9>&- || { say "skip=pg_ctlcluster $VERSION main start failed"; exit 0; }
fi
for _ in $(seq 1 60); do
  pg_isready -q -h 127.0.0.1 -p "$PORT" && break
  sleep 0.5
done
pg_isready -q -h 127.0.0.1 -p "$PORT" || { say "skip=PostgreSQL $VERSION did not accept connections on 127.0.0.1:$PORT"; exit 0; }

SQL="DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD'; ELSE ALTER ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD'; END IF; END \$\$;"
if ! (cd / && as_postgres psql -q -p "$PORT" -d postgres -c "$SQL" >/dev/null 2>&1); then
  say "skip=cannot create the test role as the postgres user (needs root or passwordless sudo)"
  exit 0
fi
say "url=postgres://$ROLE:$PASSWORD@127.0.0.1:$PORT/postgres"
