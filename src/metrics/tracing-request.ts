/** Whether the environment asks for traces: an OTLP endpoint, and the SDK not turned off (src/metrics/tracing-sdk.ts). */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '';
  return endpoint.trim() !== '' && env.OTEL_SDK_DISABLED?.toLowerCase() !== 'true' && env.OTEL_TRACES_EXPORTER?.toLowerCase() !== 'none';
}
