/** Xero's answers: the list envelope and its error shapes (403 problem, 404, 400 ValidationException and QueryParseException). */
import { randomUUID } from 'node:crypto';
import type { SimulatorAnswer } from '../kit.ts';
import { msDate } from './dates.ts';
import type { Json } from './view.ts';

/** A 200 answer carrying `records` under `key`, from `provider` (the stand-in names itself) at `at` (epoch ms). */
export function envelope(key: string, records: readonly Json[], provider = 'Ledgerport Xero simulator', at = Date.now()): SimulatorAnswer {
  return {
    status: 200,
    body: {
      Id: randomUUID(),
      Status: 'OK',
      ProviderName: provider,
      DateTimeUTC: msDate(new Date(at).toISOString()),
      [key]: records,
    },
  };
}

/** Xero's problem answer (401, 403, 404, 500). */
export const problem = (status: number, title: string, detail: string): SimulatorAnswer => ({
  status,
  body: { Type: null, Title: title, Status: status, Detail: detail },
});

export const forbidden = (): SimulatorAnswer => problem(403, 'Forbidden', 'AuthenticationUnsuccessful');

export const notFound = (): SimulatorAnswer => problem(404, 'Resource Not Found', "The resource you're looking for cannot be found");

export function validationError(messages: readonly string[], element: Json = {}): SimulatorAnswer {
  return {
    status: 400,
    body: {
      ErrorNumber: 10,
      Type: 'ValidationException',
      Message: 'A validation exception occurred',
      Elements: [{ ...element, ValidationErrors: messages.map((Message) => ({ Message })) }],
    },
  };
}

export const queryParseError = (message: string): SimulatorAnswer => ({
  status: 400,
  body: { ErrorNumber: 16, Type: 'QueryParseException', Message: message },
});
