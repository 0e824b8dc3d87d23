/**
 * The MCP server's way to the Ledgerport API: the typed client (@ledgerport/client) for the connection endpoints it
 * knows by name, and one generic request for the resource paths a tool names at run time, checked first against the
 * operations the service's own /openapi.json publishes (so the tools follow the API, never a list of ours).
 */
import { LedgerportError, createLedgerportApi, data, items, pages, requestHeaders, type ApiVersion, type LedgerportApi } from '@ledgerport/client';

export interface ApiOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  version?: ApiVersion;
  fetch?: typeof fetch;
}

export type WriteMethod = 'POST' | 'PATCH' | 'DELETE';
type HttpMethod = 'GET' | WriteMethod;

/** A caller's mistake a tool reports without calling the API (unknown path, missing connection...). */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}

export interface ApiAnswer {
  status: number;
  body: unknown;
  requestId: string | null;
  replayed: boolean;
}

interface Operation {
  template: string;
  pattern: RegExp;
  method: HttpMethod;
  queryParameters: Set<string>;
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'DELETE'];
// One path segment of a concrete path: ids, resource names; never '..', '?', '#' or an encoded slash.
const SEGMENT = /^[A-Za-z0-9_:.~-]+$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The /versioned operations of an OpenAPI document, each with the query parameters it declares. */
export function operationsOf(document: unknown): Operation[] {
  const paths = isRecord(document) && isRecord(document.paths) ? document.paths : {};
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    if (!template.startsWith('/versioned/') || !isRecord(item)) continue;
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const method of METHODS) {
      const operation = item[method.toLowerCase()];
      if (!isRecord(operation)) continue;
      const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
      const queryParameters = new Set(
        parameters
          .filter(isRecord)
          .filter((p) => p.in === 'query' && typeof p.name === 'string')
          .map((p) => String(p.name)),
      );
      operations.push({ template, pattern, method, queryParameters });
    }
  }
  return operations;
}

export class LedgerportGateway {
  readonly typed: LedgerportApi;
  private readonly options: ApiOptions;
  private operations: Promise<Operation[]> | null = null;

  constructor(options: ApiOptions) {
    this.options = options;
    this.typed = createLedgerportApi(options);
  }

  private get fetch(): typeof fetch {
    return this.options.fetch ?? globalThis.fetch;
  }

  private baseUrl(): string {
    return this.options.baseUrl.replace(/\/$/, '');
  }

  /** The service's operations, read once from its /openapi.json (a failed read is tried again next time). */
  private async published(): Promise<Operation[]> {
    this.operations ??= this.fetch(`${this.baseUrl()}/openapi.json`).then(async (response) => {
      if (!response.ok) throw await LedgerportError.fromResponse(response);
      return operationsOf(await response.json());
    });
    return this.operations.catch((error: unknown) => {
      this.operations = null;
      throw error;
    });
  }

  /** The operation `method path` (path under /versioned, e.g. accounting/bills/<id>), or a ToolInputError. */
  async operation(method: HttpMethod, path: string): Promise<Operation & { path: string }> {
    const segments = path.replace(/^\/+|\/+$/g, '').split('/');
    if (segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..'))
      throw new ToolInputError(`"${path}" is not a resource path (segments of letters, digits, _ - . : ~ separated by /)`);
    const full = `/versioned/${segments.join('/')}`;
    const operations = await this.published();
    // A literal template wins over one with a parameter (bills/attachments over bills/{id}).
    const matching = operations
      .filter((o) => o.method === method && o.pattern.test(full))
      .sort((a, b) => a.template.split('{').length - b.template.split('{').length);
    const found = matching[0];
    if (found === undefined) {
      const paths = [
        ...new Set(operations.filter((o) => o.method === method && !o.template.includes('{')).map((o) => o.template.slice('/versioned/'.length))),
      ];
      throw new ToolInputError(`the API has no ${method} ${full}; ${method} paths it offers: ${paths.sort().join(', ')}`);
    }
    return { ...found, path: full };
  }

  /** The resource paths the API lists (GET without a path parameter), for the tools' descriptions and errors. */
  async listablePaths(): Promise<string[]> {
    const operations = await this.published();
    return operations.filter((o) => o.method === 'GET' && !o.template.includes('{')).map((o) => o.template.slice('/versioned/'.length));
  }

  /** One request to an operation found by `operation` (its path, its declared query parameters only). */
  async request(
    method: HttpMethod,
    path: string,
    query: Record<string, string | number | undefined>,
    options: { body?: unknown; idempotencyKey?: string } = {},
  ): Promise<ApiAnswer> {
    const operation = await this.operation(method, path);
    const url = new URL(`${this.baseUrl()}${operation.path}`);
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined || value === '') continue;
      if (!operation.queryParameters.has(name))
        throw new ToolInputError(
          `${method} ${operation.template} takes no "${name}" (it takes: ${[...operation.queryParameters].sort().join(', ')})`,
        );
      url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = requestHeaders(this.options);
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.fetch(url, { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) });
    if (!response.ok) throw await LedgerportError.fromResponse(response);
    const text = await response.text();
    return {
      status: response.status,
      body: text === '' ? null : (JSON.parse(text) as unknown),
      requestId: response.headers.get('x-request-id'),
      replayed: response.headers.get('idempotent-replayed') === 'true',
    };
  }

  /** The access token of a connection of the organisation, found by its id among all its connections. */
  async accessTokenOf(connectionId: string): Promise<string> {
    const all = pages((cursor) => data(this.typed.GET('/versioned/connections', { params: { query: { status: 'any', limit: '500', cursor } } })));
    for await (const connection of items(all, 'connections')) if (connection.id === connectionId) return connection.access_token;
    throw new ToolInputError(`no connection ${connectionId} in this organisation (find_connections lists them)`);
  }

  /** Which connection an access token stands for: its id, platform and name, for previews. */
  async connectionOf(accessToken: string): Promise<{ id: string; platform: string; name: string | null; status: string }> {
    const answer = await data(this.typed.GET('/versioned/connections/access_token', { params: { query: { access_token: accessToken } } }));
    const c = answer.connection;
    return { id: c.id, platform: c.platform ?? '', name: c.name, status: c.status };
  }
}
