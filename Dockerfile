# Ledgerport's image: the service (API, worker or both, by --role) and its CLI, on Node 24, as a non-root user.
#   buildah bud --format docker -t ledgerport .     (or: docker build -t ledgerport .)
#   docker run -e DATABASE_URL=postgres://… -e ENCRYPTION_KEY=$(openssl rand -hex 32) -p 8080:8080 ledgerport --role=api
# NODE_IMAGE is the base of both stages: any Debian-based image with Node >= 22.18 and npm at /usr/local/bin. Only a
# build machine that cannot pull from Docker Hub sets it (scripts/image-smoke.sh builds such a base; docs/operations.md).
ARG NODE_IMAGE=node:24-bookworm-slim

# Production dependencies only, installed exactly as package-lock.json says. The SANDBOX workspace's package.json is
# needed for the lock file to match; its source comes in the next stage.
FROM ${NODE_IMAGE} AS deps
# Behind a proxy that re-signs TLS: --build-arg NPM_CONFIG_CAFILE=<its CA bundle, mounted with -v>. Only this stage
# sees it; the image does not keep it.
ARG NPM_CONFIG_CAFILE
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/sandbox/package.json packages/sandbox/package.json
COPY packages/client/package.json packages/client/package.json
COPY packages/mcp/package.json packages/mcp/package.json
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
# A user of its own (no login, no shell), numeric so Kubernetes' runAsNonRoot can check it.
RUN groupadd --system --gid 10001 ledgerport \
  && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/ledgerport --shell /usr/sbin/nologin ledgerport \
  && mkdir -p /var/lib/ledgerport \
  && chown 10001:10001 /var/lib/ledgerport
WORKDIR /app
# NODE_ENV=production: ENCRYPTION_KEY is required and webhooks to private addresses are refused (README, Configuration).
# DATA_DIR holds only what a start without DATABASE_URL keeps there (the embedded PostgreSQL, a generated key,
# credentials.json): with DATABASE_URL and ENCRYPTION_KEY set the container keeps nothing that must survive it.
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=8080 \
  DATA_DIR=/var/lib/ledgerport
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY bin ./bin
COPY src ./src
COPY packages/sandbox ./packages/sandbox
# The MCP server (`ledgerport mcp`) and the client it is built on.
COPY packages/client ./packages/client
COPY packages/mcp ./packages/mcp
USER 10001:10001
EXPOSE 8080
# Liveness only (GET /healthz: the process answers); readiness (/readyz: database reachable, migrations applied) is for
# the orchestrator's own probe. A worker-only process has no HTTP API: override this check (compose.yaml opens its
# METRICS_PORT instead; the Helm chart probes that port) or run it with --no-healthcheck.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/start.js"]
# API and worker in one process; --role=api or --role=worker for one of them. The CLI: --entrypoint node … bin/ledgerport.js migrate.
CMD ["--role=all"]
