#!/usr/bin/env bash
# The image, end to end: builds it from the Dockerfile with buildah, runs the migrations with its CLI (as the Helm
# chart's pre-install Job does), starts an API and a worker container with podman against a PostgreSQL on this
# machine, and runs README.md's walk-through ("## A first walk-through", extracted, not copied) against them. Then
# checks what the walk-through printed, the image's HEALTHCHECK, its user and size, and removes what it made.
#   scripts/image-smoke.sh
# Settings (environment):
#   NODE_IMAGE     base image of both stages; unset: a stand-in built by scripts/image-base.sh (no Docker Hub here)
#   PGHOST/PGPORT/PGUSER  the PostgreSQL to use (127.0.0.1, 5432, postgres; trust authentication): a fresh database
#                  ledgerport_smoke_<random> is made and dropped
#   KEEP=1         leave the containers, the database and the image
# Needs root, buildah, podman and runc (apt-get install -y buildah podman runc), psql, curl and node on the host.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
# Inside an unprivileged container (this project's machines) what works is: the vfs storage driver, chroot isolation
# for the build, the host's network, cgroupfs, runc (crun refuses the hybrid cgroup set-up), and ulimits no higher
# than the container's own (podman's defaults raise them, which is refused). On an ordinary host they are harmless.
STORAGE=(--storage-driver "${STORAGE_DRIVER:-vfs}")
PODMAN=(podman "${STORAGE[@]}" --cgroup-manager cgroupfs --events-backend file --runtime "${OCI_RUNTIME:-runc}")
LIMITS=(--ulimit "nofile=$(ulimit -n):$(ulimit -Hn)" --ulimit "nproc=4096:4096")
IMAGE="localhost/ledgerport:smoke"
PORT=$((26000 + RANDOM % 6000))
DATABASE="ledgerport_smoke_$(date +%s)_$RANDOM"
SUFFIX="$RANDOM"
ADMIN_TOKEN="smoke-admin-token-$(openssl rand -hex 12)"
ENCRYPTION_KEY="$(openssl rand -hex 32)"
work="$(mktemp -d)"
started=$(date +%s)

step() { printf '\n== %s (%ss)\n' "$1" "$(($(date +%s) - started))"; }
cleanup() {
  local status=$?
  if [ "${KEEP:-0}" != 1 ]; then
    "${PODMAN[@]}" rm -f -t 5 "ledgerport-smoke-api-$SUFFIX" "ledgerport-smoke-worker-$SUFFIX" >/dev/null 2>&1 || true
    psql -q -d postgres -c "DROP DATABASE IF EXISTS \"$DATABASE\" WITH (FORCE)" >/dev/null 2>&1 || true
    rm -rf "$work"
  fi
  [ "$status" = 0 ] || echo "image smoke FAILED (exit $status); logs above" >&2
}
trap cleanup EXIT

for tool in buildah podman "${OCI_RUNTIME:-runc}" psql curl node openssl; do
  command -v "$tool" >/dev/null || {
    echo "image-smoke.sh needs $tool (apt-get install -y buildah podman runc postgresql-client curl)" >&2
    exit 1
  }
done

step "base image"
base="${NODE_IMAGE:-$(scripts/image-base.sh)}"
echo "NODE_IMAGE=$base"

step "build $IMAGE"
build_started=$(date +%s)
# --format docker keeps HEALTHCHECK (the OCI image format has no such field); --layers reuses unchanged stages.
# This machine reaches the npm registry through a proxy that re-signs TLS: its CA bundle is lent to npm ci for the build.
ca=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  ca=(-v "$NODE_EXTRA_CA_CERTS:/run/build-ca.crt:ro" --build-arg NPM_CONFIG_CAFILE=/run/build-ca.crt)
fi
buildah bud "${STORAGE[@]}" --isolation chroot --network host --format docker --layers "${ca[@]}" \
  --build-arg NODE_IMAGE="$base" -t "$IMAGE" . >"$work/build.log" 2>&1 || {
  tail -40 "$work/build.log"
  exit 1
}
build_seconds=$(($(date +%s) - build_started))
size=$("${PODMAN[@]}" image inspect "$IMAGE" --format '{{.Size}}')
user=$("${PODMAN[@]}" image inspect "$IMAGE" --format '{{.Config.User}}')
echo "built in ${build_seconds}s; size $((size / 1000000)) MB; user $user"
[ "$user" = "10001:10001" ] || {
  echo "the image runs as '$user', not 10001:10001" >&2
  exit 1
}

step "database $DATABASE on $PGHOST:$PGPORT"
psql -q -d postgres -c "CREATE DATABASE \"$DATABASE\""
# The walk-through reads ./data/credentials.json, which the first process to start writes into DATA_DIR: the same
# host folder is every container's DATA_DIR, owned by the image's user.
mkdir -p "$work/data" && chown 10001:10001 "$work/data" && chmod 700 "$work/data"
common=(
  --network host
  "${LIMITS[@]}"
  -v "$work/data:/var/lib/ledgerport"
  -e DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$DATABASE"
  -e ENCRYPTION_KEY="$ENCRYPTION_KEY"
  -e ADMIN_TOKEN="$ADMIN_TOKEN"
  -e PORT="$PORT"
  -e PUBLIC_URL="http://localhost:$PORT"
  # The walk-through's webhook receiver listens on 127.0.0.1, which NODE_ENV=production refuses by default.
  -e WEBHOOK_ALLOW_PRIVATE=true
)

step "migrations (bin/ledgerport.js migrate, as the chart's Job)"
"${PODMAN[@]}" run --rm --no-healthcheck "${common[@]}" --entrypoint node "$IMAGE" bin/ledgerport.js migrate >"$work/migrate.log" 2>&1 || {
  cat "$work/migrate.log"
  exit 1
}
grep -q 'migrations are up to date' "$work/migrate.log"
tail -3 "$work/migrate.log" | cut -c1-200

step "API and worker containers"
"${PODMAN[@]}" run -d --name "ledgerport-smoke-api-$SUFFIX" "${common[@]}" "$IMAGE" --role=api >/dev/null
"${PODMAN[@]}" run -d --name "ledgerport-smoke-worker-$SUFFIX" --no-healthcheck "${common[@]}" -e PORT=0 -e METRICS_PORT=$((PORT + 1)) \
  "$IMAGE" --role=worker >/dev/null
ready=""
for _ in $(seq 120); do
  if curl -sf "localhost:$PORT/readyz" >/dev/null; then
    ready=1
    break
  fi
  sleep 0.5
done
[ -n "$ready" ] || {
  "${PODMAN[@]}" logs "ledgerport-smoke-api-$SUFFIX" | tail -40
  exit 1
}
echo "ready after $(($(date +%s) - started))s: $(curl -s "localhost:$PORT/readyz")"

step "README walk-through"
block="$(node -e "
const readme = require('fs').readFileSync('$ROOT/README.md', 'utf8');
const section = readme.slice(readme.indexOf('## A first walk-through'));
const match = /\`\`\`sh\n([\s\S]*?)\`\`\`/.exec(section);
if (!match) { console.error('README.md has no sh block under \"## A first walk-through\"'); process.exit(1); }
process.stdout.write(match[1].replaceAll('localhost:8080', 'localhost:$PORT').replace('RECEIVER_PORT=9999', 'RECEIVER_PORT=$((PORT + 2))'));
")"
walk_started=$(date +%s)
(cd "$work" && ADMIN_TOKEN="$ADMIN_TOKEN" timeout 180 bash -e -o pipefail -c "$block") >"$work/walk.out" 2>"$work/walk.err" || {
  echo "the walk-through failed:"
  cat "$work/walk.out" "$work/walk.err"
  "${PODMAN[@]}" logs "ledgerport-smoke-api-$SUFFIX" 2>&1 | tail -20
  "${PODMAN[@]}" logs "ledgerport-smoke-worker-$SUFFIX" 2>&1 | tail -20
  exit 1
}
cut -c1-160 "$work/walk.out"
# What test/startup/readme-walkthrough.test.ts checks of the same block.
failed=0
expect() {
  if grep -qE -- "$1" "$work/walk.out"; then echo "ok: $2"; else
    echo "MISSING: $2 ($1)"
    failed=1
  fi
}
expect '"error_code":"MISSING_VERSION"' 'a request without a version answers MISSING_VERSION'
expect '"is_ready":true' 'the SANDBOX connection finished its initial sync (worker container)'
expect '^\{"bill":\{"id":"' 'one bill read by id'
expect '^HTTP/1.1 200 ' 'the bill write answered 200'
expect '"description":"Office chairs"' 'the written bill came back'
expect '^webhook received: signed \{' 'the local receiver got a signed webhook'
expect '"status":"delivered"' 'the delivery log says delivered'
expect "^http://localhost:$PORT/link/" 'a link URL on PUBLIC_URL'
if grep -q PRODUCT_NOT_READY "$work/walk.out" || [ -s "$work/walk.err" ]; then
  echo "unexpected: PRODUCT_NOT_READY or stderr:"
  cat "$work/walk.err"
  failed=1
fi
echo "walk-through took $(($(date +%s) - walk_started))s"

step "HEALTHCHECK and metrics"
"${PODMAN[@]}" healthcheck run "ledgerport-smoke-api-$SUFFIX" && echo "ok: the API container's HEALTHCHECK passes" || {
  echo "MISSING: the HEALTHCHECK failed"
  failed=1
}
if curl -sf -H "Authorization: Bearer $ADMIN_TOKEN" "localhost:$((PORT + 1))/metrics" | grep -q 'ledgerport_process_info{role="worker"}'; then
  echo "ok: the worker container answers /metrics on METRICS_PORT"
else
  echo "MISSING: the worker's /metrics"
  failed=1
fi
uid=$("${PODMAN[@]}" exec "ledgerport-smoke-api-$SUFFIX" id -u)
[ "$uid" = 10001 ] && echo "ok: the service runs as uid $uid" || {
  echo "MISSING: the service runs as uid $uid"
  failed=1
}

echo
echo "image $IMAGE: build ${build_seconds}s, $((size / 1000000)) MB; whole smoke $(($(date +%s) - started))s"
[ "$failed" = 0 ] && echo "image smoke passed" || exit 1
