/**
 * Every response a test app gives is checked against the app's own /openapi.json (issue 32): its status is one the
 * operation declares, its content type is one declared for that status, and its body fits the declared schema.
 *
 * Rules for what the document deliberately leaves out:
 * - Routes without a contract (the dashboard's HTML pages, the link pages, /docs, /openapi.json itself, SANDBOX's
 *   pages) are outside the document: not checked.
 * - A request no route matched (404 ROUTE_NOT_FOUND, a path the router refuses) has no operation: its answer must be
 *   the one error body, as JSON; except under /link/, whose pages answer people with their own not-found page.
 * - Every error answer (4xx, 5xx) is checked against the one error body schema (src/http/contract.ts), whatever the
 *   operation says.
 * - Older versions: the document describes the newest; a /versioned success answer for an older version is checked
 *   against the schema the registered version changes make of it (src/http/version-changes.ts).
 * - HEAD answers have no body; they are checked as the GET they stand for, without the body.
 */
import type { ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { expect, inject } from 'vitest';
import { ErrorBodySchema } from '../../src/http/contract.ts';
import type { ApiVersion, JsonSchema, VersionRegistry } from '../../src/http/versioning.ts';
import { recordAnswer } from './contract-violations.ts';
import { ContractValidators } from './contract-validators.ts';
import { parsedBody } from './parsed-body.ts';
import { unexplainedDifferences } from './reference-conformance.ts';

interface MediaObject {
  schema?: JsonSchema;
}
interface ResponseObject {
  content?: Record<string, MediaObject>;
}
interface Operation {
  responses?: Record<string, ResponseObject>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

/** What the app answered, as the checker needs it. */
export interface ObservedResponse {
  method: string;
  /** The path asked for, without its query. */
  path: string;
  /** The matched route's template (`/versioned/jobs/:id`), undefined when no route matched. */
  route: string | undefined;
  /** Whether the route is one of the contract's endpoints (a route without one is outside the document). */
  hasContract: boolean;
  version: ApiVersion | null;
  /** The contract's success status: the one answer older versions reshape. */
  successStatus: number | undefined;
  status: number;
  contentType: string | undefined;
  /** The body as sent, or null when it is a stream or a buffer (a file). */
  body: string | null;
  /** Statuses the contract lets the route answer with no body and no content type (Contract.answersWithoutBody). */
  withoutBody?: readonly number[];
}

// Shared by every checker of this process; compiled once per run (test/support/contract-validators.ts).
const sharedValidators = new ContractValidators(() => inject('contractValidatorsDir'));

/** `/versioned/jobs/:id` as the document writes it: `/versioned/jobs/{id}`. */
export function documentPath(route: string): string {
  return route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Whether a served media type falls under a declared one (`*\/*` and `text/*` ranges included). */
function matchesMedia(served: string, declared: string): boolean {
  const want = mediaType(declared);
  if (want === '*/*' || want === served) return true;
  return want.endsWith('/*') && served.startsWith(want.slice(0, -1));
}

/** Pages for people with their own not-found page (src/link/routes.ts): outside the document, matched or not. */
const PAGES_OUTSIDE_DOCUMENT = /^\/link(\/|$)/;

export class ContractChecker {
  private readonly rendered = new Map<string, JsonSchema>();
  private readonly document: OpenApiDocument;
  private readonly versions: VersionRegistry;
  private readonly validators: ContractValidators;

  constructor(document: OpenApiDocument, versions: VersionRegistry, validators: ContractValidators = sharedValidators) {
    this.document = document;
    this.versions = versions;
    this.validators = validators;
  }

  /** What is wrong with the response; empty when it is as the document says. */
  check(observed: ObservedResponse): string[] {
    if (observed.route !== undefined ? !observed.hasContract : PAGES_OUTSIDE_DOCUMENT.test(observed.path)) return [];
    const problems: string[] = [];
    const bodiless = observed.withoutBody?.includes(observed.status) === true && observed.contentType === undefined && (observed.body ?? '') === '';
    const isError = observed.status >= 400;
    if (isError && !bodiless) problems.push(...this.checkErrorBody(observed));
    if (observed.route === undefined) {
      if (!isError) problems.push(`status ${observed.status} without a route`);
      return problems;
    }
    const method = observed.method === 'HEAD' ? 'get' : observed.method.toLowerCase();
    const operation = this.document.paths[documentPath(observed.route)]?.[method];
    if (operation === undefined) return [...problems, 'the route is not in /openapi.json'];
    const declared = operation.responses?.[String(observed.status)];
    if (declared === undefined) {
      const statuses = Object.keys(operation.responses ?? {}).join(', ');
      return [...problems, `status ${observed.status} is not declared (declared: ${statuses})`];
    }
    if (observed.status === 204 || observed.method === 'HEAD' || bodiless) return problems;
    const served = mediaType(observed.contentType);
    const media = Object.entries(declared.content ?? {}).find(([type]) => matchesMedia(served, type));
    if (media === undefined) {
      const types = Object.keys(declared.content ?? {}).join(', ');
      return [...problems, `content type ${observed.contentType ?? '(none)'} is not declared for ${observed.status} (declared: ${types})`];
    }
    const [type, { schema }] = media;
    if (isError || schema === undefined || !mediaType(type).includes('json') || observed.body === null) return problems;
    return [...problems, ...this.checkBody(observed, schema)];
  }

  private checkErrorBody(observed: ObservedResponse): string[] {
    if (!mediaType(observed.contentType).includes('json')) return [`error answer with content type ${observed.contentType ?? '(none)'}`];
    if (observed.body === null) return ['error answer without a body'];
    return this.validate(this.validators.validatorOf(ErrorBodySchema), observed, 'error body');
  }

  private checkBody(observed: ObservedResponse, schema: JsonSchema): string[] {
    const routeKey = `${observed.method === 'HEAD' ? 'GET' : observed.method} ${observed.route ?? ''}`;
    const version = observed.version;
    let effective = schema;
    if (version !== null && observed.status === observed.successStatus && this.versions.affects(routeKey, version)) {
      const key = `${routeKey} ${observed.status} ${version}`;
      effective = this.rendered.get(key) ?? this.versions.renderSchema(routeKey, version, schema);
      this.rendered.set(key, effective);
    }
    return this.validate(this.validators.validatorOf(effective), observed, 'body');
  }

  private validate(validate: ValidateFunction, observed: ObservedResponse, what: string): string[] {
    const parsed = parsedBody(observed);
    if (parsed === null) return [`${what} is not JSON: ${(observed.body ?? '').slice(0, 200)}`];
    if (validate(parsed.value)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${what}${e.instancePath} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`);
  }
}

/**
 * A mount (BuildOptions.mounts) that records every answer of the app as it leaves (onSend: the body as sent);
 * test/support/contract-setup.ts checks them when the test that received them ends and fails it with what breaks the
 * document.
 */
export function checkResponsesAgainstDocument(app: FastifyInstance): void {
  let checker: ContractChecker | undefined;
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const contract = request.routeOptions.config.contract;
    const contentType = reply.getHeader('content-type');
    const observed: ObservedResponse = {
      method: request.method,
      path: request.url.split('?')[0] ?? '',
      route: request.is404 ? undefined : request.routeOptions.url,
      hasContract: contract !== undefined,
      version: request.apiVersion,
      successStatus: contract?.success.status,
      withoutBody: contract?.answersWithoutBody?.statuses ?? [],
      status: reply.statusCode,
      contentType: typeof contentType === 'string' ? contentType : undefined,
      body: typeof payload === 'string' ? payload : null,
    };
    recordAnswer({
      test: expect.getState().currentTestName,
      request: `${request.method} ${request.url} → ${reply.statusCode}`,
      problems: () => {
        // The document exists once the app is ready; the first check builds the checker.
        checker ??= new ContractChecker(app.swagger() as OpenApiDocument, app.services.versions);
        return [...checker.check(observed), ...unexplainedDifferences(observed, sharedValidators)];
      },
    });
    return payload;
  });
}
