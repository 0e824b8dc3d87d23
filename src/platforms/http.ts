/** Placeholder signature of the shared platform HTTP client; implemented in issue 3. */
export interface PlatformHttp {
  request(input: PlatformRequest): Promise<PlatformResponse>;
}
export interface PlatformRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Whether a failed attempt may be retried (reads: yes; creates: only when proven not applied). */
  idempotent: boolean;
}
export interface PlatformResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}
