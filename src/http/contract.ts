/**
 * One contract per endpoint: method, URL, request schemas, success response and
 * the error codes it can answer. The handler, the tests and the OpenAPI
 * document all read the same object. Error responses are added to the schema
 * from the error codes, so the document lists every status an endpoint can give.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors/catalogue.ts';
import type { DashboardRole } from '../sql/dashboard-users.ts';
import { operationIdOf } from './operation-ids.ts';

export const ErrorBodySchema = Type.Object(
  {
    error_type: Type.String({ description: 'Kind of error, e.g. INVALID_REQUEST, CONNECTION_ERROR, PLATFORM_ERROR.' }),
    error_code: Type.String({ description: 'Specific code, e.g. INVALID_CURSOR.' }),
    error_message: Type.String({ description: 'What went wrong and what to fix.' }),
    error_metadata: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'source (service|platform), human_readable, platform, duplicate_property, field, location.',
      }),
    ),
  },
  { description: 'Error body of every failed request.' },
);

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Which authentication guards the route; the edge hooks enforce it. */
export type AuthKind = 'none' | 'client' | 'admin' | 'session';

/**
 * Whether a dashboard session may call the route, and with which role at least (src/http/dashboard-roles.ts). An
 * admin route without it is the operator's alone; client routes default to viewer for reads, developer for writes.
 */
export interface DashboardAccess {
  role: DashboardRole;
}

export interface Contract {
  method: Method;
  url: string;
  auth: AuthKind;
  /** Dashboard sessions: the least role that may call it (client and session routes have a default). */
  dashboard?: DashboardAccess;
  summary: string;
  description?: string;
  tags: readonly string[];
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  headers?: TSchema;
  /**
   * Success status and its body schema; null body for 204. contentType when the body is not JSON (declared as such in
   * the OpenAPI document): a media range such as `*\/*` for files served with their own type.
   */
  success: { status: number; schema: TSchema | null; contentType?: string };
  /** Other successful answers the handler may choose (202 with async_response for writes). */
  alsoSucceeds?: readonly { status: number; schema: TSchema }[];
  errors: readonly ErrorCode[];
  /** Content types the body may have (default JSON). */
  consumes?: readonly string[];
  /**
   * Statuses this route may answer with no body and no content type, and when: a platform whose documentation wants
   * no body in the answer to its webhook (Xero). Said in the description too; the contract check reads it from here.
   */
  answersWithoutBody?: { statuses: readonly number[]; when: string };
}

type StaticOr<T, Fallback> = T extends TSchema ? Static<T> : Fallback;

export type ContractRequest<C extends Contract> = FastifyRequest<{
  Params: StaticOr<C['params'], unknown>;
  Querystring: StaticOr<C['querystring'], unknown>;
  Body: StaticOr<C['body'], unknown>;
  Headers: StaticOr<C['headers'], unknown>;
}>;

export type ContractReply<C extends Contract> = C['success']['schema'] extends TSchema ? Static<C['success']['schema']> : undefined;

export type Handler<C extends Contract> = (request: ContractRequest<C>, reply: FastifyReply) => Promise<ContractReply<C>>;

/** A registered endpoint; its handler's request type was checked against the contract in defineEndpoint. */
export interface Endpoint {
  contract: Contract;
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

export function defineContract<const C extends Contract>(contract: C): C {
  return contract;
}

export function defineEndpoint<const C extends Contract>(contract: C, handler: Handler<C>): Endpoint {
  // Fastify validated the request against the same contract's schemas before the handler runs,
  // so the request has the contract's static types; this is the one place that says so.
  return { contract, handler: (request, reply) => handler(request as ContractRequest<C>, reply) };
}

/** `none` says so explicitly (an empty requirement): health probes, signed file URLs and signed platform webhooks. */
const SECURITY: Record<AuthKind, Record<string, string[]>[]> = {
  none: [],
  client: [{ basicAuth: [] }],
  admin: [{ adminToken: [] }],
  session: [{ dashboardSession: [] }],
};

/** A dashboard session's refusals: it reaches client and operator routes too (src/http/session-auth.ts). */
const SESSION_ERRORS: readonly ErrorCode[] = ['SESSION_REQUIRED', 'ROLE_NOT_ALLOWED', 'CSRF_TOKEN_INVALID', 'RATE_LIMIT_EXCEEDED'];

/**
 * What authentication itself may answer: a refused credential, and too many refused ones
 * (src/ratelimit/auth-failures.ts); on client and operator routes also a dashboard session's refusals.
 */
const AUTH_ERRORS: Record<AuthKind, readonly ErrorCode[]> = {
  none: [],
  client: ['INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED', ...SESSION_ERRORS],
  admin: ['INVALID_ADMIN_TOKEN', 'RATE_LIMIT_EXCEEDED', ...SESSION_ERRORS],
  session: SESSION_ERRORS,
};

const WRITE_METHODS = new Set<Method>(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * What the edge may answer on any route of its kind, whatever its handler does (docs/reference.md, "Declared
 * statuses"): on every route a failure, an overloaded server and a refused input (the query string and headers of
 * every request are checked for text PostgreSQL cannot store, src/http/storable-input.ts); a refused body where there
 * is one; the version header, an endpoint the operator turned off and idempotency keys on client routes.
 */
function edgeErrors(contract: Contract): ErrorCode[] {
  const codes: ErrorCode[] = ['VALIDATION_ERROR', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
  if (contract.body !== undefined || contract.consumes !== undefined) codes.push('MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE');
  if (contract.auth === 'client') {
    codes.push('MISSING_VERSION', 'UNSUPPORTED_VERSION', 'ENDPOINT_NOT_SUPPORTED_FOR_YOUR_ORGANIZATION');
    if (WRITE_METHODS.has(contract.method)) codes.push('IDEMPOTENCY_KEY_MISMATCH', 'IDEMPOTENCY_KEY_IN_USE');
  }
  return codes;
}

/** The success answer: its schema under JSON, or under the content type the contract names (files, metrics). */
function successResponse(success: Contract['success']): unknown {
  const schema = success.schema ?? { type: 'null', description: 'No content' };
  if (success.contentType === undefined) return schema;
  const description = 'description' in schema && typeof schema.description === 'string' ? schema.description : '';
  return { description, content: { [success.contentType]: { schema } } };
}

/** The Fastify route schema (validation, serialization and OpenAPI) of a contract served under `prefix`. */
export function routeSchema(contract: Contract, prefix = ''): NonNullable<RouteShorthandOptions['schema']> & Record<string, unknown> {
  const response: Record<string, unknown> = { [contract.success.status]: successResponse(contract.success) };
  for (const other of contract.alsoSucceeds ?? []) response[other.status] = other.schema;
  for (const code of new Set([...contract.errors, ...AUTH_ERRORS[contract.auth], ...edgeErrors(contract)])) {
    const status = ERROR_CATALOGUE[code].status;
    response[status] ??= { ...ErrorBodySchema, description: '' };
    const entry = response[status] as { description: string };
    entry.description = entry.description === '' ? code : `${entry.description}, ${code}`;
  }
  return {
    operationId: operationIdOf(contract.method, `${prefix}${contract.url}`),
    summary: contract.summary,
    ...(contract.description !== undefined ? { description: contract.description } : {}),
    tags: [...contract.tags],
    ...(contract.params !== undefined ? { params: contract.params } : {}),
    ...(contract.querystring !== undefined ? { querystring: contract.querystring } : {}),
    ...(contract.body !== undefined ? { body: contract.body } : {}),
    ...(contract.headers !== undefined ? { headers: contract.headers } : {}),
    ...(contract.consumes !== undefined ? { consumes: [...contract.consumes] } : {}),
    security: SECURITY[contract.auth],
    response,
  };
}

export function registerEndpoint(app: FastifyInstance, endpoint: Endpoint, prefix = ''): void {
  const { contract } = endpoint;
  app.route({
    method: contract.method,
    url: `${prefix}${contract.url}`,
    schema: routeSchema(contract, prefix),
    config: { auth: contract.auth, contract },
    handler: (request, reply) => {
      // The handler may choose another documented status (e.g. 202); the contract's is the default.
      void reply.code(contract.success.status);
      return endpoint.handler(request, reply);
    },
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthKind;
    contract?: Contract;
  }
}
