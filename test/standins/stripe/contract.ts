/**
 * Stripe's published OpenAPI 3.0 description (spec3, test/contracts/published.ts) as the stand-in's validator, on the
 * kit's OpenAPI validator: requests (the method and path exist; query parameters are ones the operation declares, with
 * the declared types, deepObject ones such as created[gte] and types[] included) and answers (the body against the
 * operation's 200 schema), and the completer of the stand-in's records. Stripe's `format: unix-time` is an
 * integer of seconds.
 */
import { readPublishedJson, STRIPE_OPENAPI } from '../../contracts/published.ts';
import type { StandInContract } from '../kit/host.ts';
import { OpenApiContract, type Operation as ApiOperation } from '../kit/openapi.ts';
import { recordCompleter, type CompleteRecord } from '../kit/openapi-records.ts';

export type Operation = ApiOperation<'stripe'>;

export interface StripeContract {
  /** The operation a request is for, or null when the spec has no such method and path. */
  operation(method: string, path: string): Operation | null;
  /** Problems of a request's query (nested as deepObject: created[gte] → created.gte; types[] → an array). */
  checkQuery(operation: Operation, query: URLSearchParams): string[];
  /** Problems of a 200 answer's body. */
  checkAnswer(operation: Operation, body: unknown): string[];
  /** The operations as the stand-in host routes and checks them: handlers named by path template; only the query is checked. */
  operations: StandInContract<{ path: string }, Operation>;
  /** Problems of one object against a component schema (charge, event, …): the stand-in's records are checked too. */
  checkComponent(name: string, value: unknown): string[];
  /** A record of a component with what the schema requires and the record leaves empty filled in (../kit/openapi-records.ts). */
  complete: CompleteRecord;
}

const unixTime = { type: 'number' as const, validate: (n: number) => Number.isInteger(n) && n >= 0 };

let loaded: Promise<StripeContract> | null = null;

export function stripeContract(): Promise<StripeContract> {
  loaded ??= load();
  return loaded;
}

async function load(): Promise<StripeContract> {
  const raw = await readPublishedJson(STRIPE_OPENAPI);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('not an OpenAPI description');
  const contract = new OpenApiContract({ stripe: { ...raw } }, { formats: { 'unix-time': unixTime }, maxProblems: 10 });
  const checkQuery = (operation: Operation, query: URLSearchParams) =>
    contract.validateParameters(operation, { pathParams: {}, query, headers: {} }, ['query']);
  const checkAnswer = (operation: Operation, body: unknown) => contract.validateResponse(operation, 200, body);
  return {
    operation: (method, path) => contract.find('stripe', method, path)?.operation ?? null,
    checkQuery,
    checkAnswer,
    operations: {
      find: (target, method) => contract.find('stripe', method, target.path),
      names: (operation) => [operation.template],
      requestProblems: (operation, request) => checkQuery(operation, request.query),
      answerProblems: (operation, status, body) => (status === 200 ? checkAnswer(operation, body) : []),
    },
    checkComponent: (name, value) => contract.validateComponent('stripe', name, value),
    complete: recordCompleter({ ...raw }),
  };
}
