{{- define "ledgerport.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "ledgerport.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component: api, worker or migrate. */}}
{{- define "ledgerport.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "ledgerport.secretName" -}}
{{- default (include "ledgerport.fullname" .) .Values.existingSecret -}}
{{- end -}}

{{- define "ledgerport.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "ledgerport.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "ledgerport.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* The environment every process shares: the Secret's keys, then config, then extraEnv. */}}
{{- define "ledgerport.env" -}}
{{- $secret := include "ledgerport.secretName" . -}}
{{- range $name := list "DATABASE_URL" "ENCRYPTION_KEY" "ADMIN_TOKEN" }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef: {name: {{ $secret }}, key: {{ $name }}}
{{- end }}
{{- /* Only during a key rotation (docs/operations.md, "Rotating the key"): absent from the Secret, absent here. */}}
- name: ENCRYPTION_KEY_PREVIOUS
  valueFrom:
    secretKeyRef: {name: {{ $secret }}, key: ENCRYPTION_KEY_PREVIOUS, optional: true}
{{- $c := .Values.config }}
- {name: NODE_ENV, value: production}
- {name: DATA_DIR, value: /var/lib/ledgerport}
- {name: PUBLIC_URL, value: {{ .Values.publicUrl | quote }}}
- {name: LOG_LEVEL, value: {{ $c.logLevel | quote }}}
- {name: TRUST_PROXY, value: {{ $c.trustProxy | toString | quote }}}
- {name: HTTP_MAX_CONNECTIONS_PER_CLIENT, value: {{ $c.httpMaxConnectionsPerClient | toString | quote }}}
- {name: HTTP_KEEP_ALIVE_TIMEOUT_SECONDS, value: {{ $c.httpKeepAliveTimeoutSeconds | toString | quote }}}
- {name: RATE_LIMIT_PER_WINDOW, value: {{ $c.rateLimit.perWindow | toString | quote }}}
- {name: RATE_LIMIT_WINDOW_SECONDS, value: {{ $c.rateLimit.windowSeconds | toString | quote }}}
- {name: DATABASE_POOL_API, value: {{ $c.databasePools.api | toString | quote }}}
- {name: DATABASE_POOL_WORKER, value: {{ $c.databasePools.worker | toString | quote }}}
- {name: DATABASE_POOL_WEBHOOKS, value: {{ $c.databasePools.webhooks | toString | quote }}}
- {name: DATABASE_ACQUIRE_TIMEOUT_MS, value: {{ $c.databaseAcquireTimeoutMs | toString | quote }}}
- {name: WEBHOOK_CONCURRENCY, value: {{ $c.webhooks.concurrency | toString | quote }}}
- {name: WEBHOOK_ENDPOINT_CONCURRENCY, value: {{ $c.webhooks.endpointConcurrency | toString | quote }}}
- {name: WEBHOOK_TIMEOUT_MS, value: {{ $c.webhooks.timeoutMs | toString | quote }}}
- {name: WEBHOOK_ALLOW_PRIVATE, value: {{ $c.webhooks.allowPrivate | toString | quote }}}
- {name: WRITE_SYNC_WAIT_SECONDS, value: {{ $c.writeSyncWaitSeconds | toString | quote }}}
- {name: SANDBOX_ENABLED, value: {{ $c.sandboxEnabled | toString | quote }}}
- {name: DASHBOARD_ADMIN_EMAIL, value: {{ $c.dashboardAdminEmail | quote }}}
{{- with $c.redisUrl }}
- {name: REDIS_URL, value: {{ . | quote }}}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* DATA_DIR and the compile cache's /tmp: the root file system is read-only; neither holds anything to keep. */}}
{{- define "ledgerport.volumes" -}}
- name: data
  emptyDir: {}
- name: tmp
  emptyDir: {}
{{- end -}}
{{- define "ledgerport.volumeMounts" -}}
- {name: data, mountPath: /var/lib/ledgerport}
- {name: tmp, mountPath: /tmp}
{{- end -}}

{{- define "ledgerport.podSpecCommon" -}}
automountServiceAccountToken: false
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
volumes:
  {{- include "ledgerport.volumes" . | nindent 2 }}
{{- end -}}
