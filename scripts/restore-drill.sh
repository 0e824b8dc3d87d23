#!/usr/bin/env bash
# The backup and restore drill of docs/operations.md, run against a PostgreSQL on this machine: starts the service on a
# fresh database, makes data (a SANDBOX connection and its initial sync), backs it up with pg_dump while the service
# runs, restores it into another database with pg_restore, starts the service on the copy with the same ENCRYPTION_KEY
# and reads the same data through the API; then shows that the copy with another key refuses to start.
#   scripts/restore-drill.sh          (PGHOST/PGPORT/PGUSER: 127.0.0.1, 5432, postgres; trust authentication)
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/node.sh
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
SOURCE_DB="ledgerport_drill_$(date +%s)_$RANDOM"
RESTORED_DB="${SOURCE_DB}_restored"
PORT=$((26000 + RANDOM % 6000))
KEY="$(openssl rand -hex 32)"
ADMIN="drill-admin-$(openssl rand -hex 12)"
work="$(mktemp -d)"
service=""
cleanup() {
  [ -n "$service" ] && kill "$service" 2>/dev/null && wait "$service" 2>/dev/null
  psql -q -d postgres -c "DROP DATABASE IF EXISTS \"$SOURCE_DB\" WITH (FORCE)" -c "DROP DATABASE IF EXISTS \"$RESTORED_DB\" WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
start() { # database, key, log file
  DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$1" ENCRYPTION_KEY="$2" ADMIN_TOKEN="$ADMIN" PORT="$PORT" HOST=127.0.0.1 \
    DATA_DIR="$work/data-$1" LOG_LEVEL=warn node bin/start.js >"$3" 2>&1 &
  service=$!
  for _ in $(seq 120); do
    curl -sf "localhost:$PORT/readyz" >/dev/null && return 0
    kill -0 "$service" 2>/dev/null || return 1
    sleep 0.5
  done
  return 1
}
stop() {
  kill "$service" && wait "$service" || true
  service=""
}
creds() { node -p "const c = require('$work/data-$SOURCE_DB/credentials.json').credentials.sandbox; c.client_id + ':' + c.client_secret"; }
api() { curl -s -u "$(creds)" -H 'X-Service-Version: 2024-08-31' "$@"; }
fingerprint() { # what the API serves of the connection: its status and its bills' ids and totals
  api "localhost:$PORT/versioned/accounting/bills?access_token=$1&limit=100" | node -pe "
    const j = JSON.parse(require('fs').readFileSync(0));
    const lines = j.bills.map((b) => b.id + ' ' + b.total_amount).sort();
    lines.length + ' bills, sha256 ' + require('crypto').createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16)"
}

psql -q -d postgres -c "CREATE DATABASE \"$SOURCE_DB\""
echo "== 1. service on $SOURCE_DB, a SANDBOX connection, its initial sync"
start "$SOURCE_DB" "$KEY" "$work/source.log" || {
  cat "$work/source.log"
  exit 1
}
TOKEN=$(api -H 'Content-Type: application/json' -d '{"platform": "SANDBOX", "basic_username": "user_good", "basic_password": "pass_good"}' \
  "localhost:$PORT/versioned/connections/create" | node -pe 'JSON.parse(require("fs").readFileSync(0)).connection.access_token')
for _ in $(seq 60); do api "localhost:$PORT/versioned/connections/status?access_token=$TOKEN" | grep -q '"is_ready":true' && break; sleep 1; done
before=$(fingerprint "$TOKEN")
echo "served before the backup: $before"

echo "== 2. pg_dump while the service runs"
dump_started=$(date +%s%N)
pg_dump --format=custom --no-owner --file "$work/ledgerport.dump" "$SOURCE_DB"
echo "pg_dump: $(($(date +%s%N) / 1000000 - dump_started / 1000000)) ms, $(du -h "$work/ledgerport.dump" | cut -f1) (database $(psql -Atc "SELECT pg_size_pretty(pg_database_size('$SOURCE_DB'))" -d postgres))"
stop

echo "== 3. pg_restore into $RESTORED_DB"
psql -q -d postgres -c "CREATE DATABASE \"$RESTORED_DB\""
restore_started=$(date +%s%N)
pg_restore --no-owner --exit-on-error --jobs 2 --dbname "$RESTORED_DB" "$work/ledgerport.dump"
echo "pg_restore: $(($(date +%s%N) / 1000000 - restore_started / 1000000)) ms"
psql -d "$RESTORED_DB" -Atc "SELECT 'schemas: ' || string_agg(nspname, ', ' ORDER BY nspname) FROM pg_namespace WHERE nspname IN ('public', 'pgboss', 'sandbox_platform')"

echo "== 4. the restored copy with the same ENCRYPTION_KEY"
start "$RESTORED_DB" "$KEY" "$work/restored.log" || {
  cat "$work/restored.log"
  exit 1
}
echo "readyz: $(curl -s "localhost:$PORT/readyz")"
after=$(fingerprint "$TOKEN")
echo "served by the restored copy: $after"
[ "$before" = "$after" ] || {
  echo "the restored copy serves other data"
  exit 1
}
api -o /dev/null -w 'an incremental sync on the restored copy (its OAuth-free SANDBOX credentials unsealed with the key): HTTP %{http_code}\n' \
  -H 'Content-Type: application/json' -d '{"object_types": ["VENDOR"]}' "localhost:$PORT/versioned/connections/incremental_sync?access_token=$TOKEN"
stop

echo "== 5. the restored copy with another key"
if start "$RESTORED_DB" "$(openssl rand -hex 32)" "$work/wrong-key.log"; then
  echo "started with the wrong key"
  exit 1
fi
sed -n 's/^\(ledgerport failed to start\|What to do\)/\1/p' "$work/wrong-key.log" | cut -c1-220
service=""
echo "restore drill passed"
