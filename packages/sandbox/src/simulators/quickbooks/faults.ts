/** QBO's error answers: `{ Fault: { Error: [{ Message, Detail, code, element }], type }, time }`, as Intuit documents them. */
import type { NativeError } from '../../native-error.ts';
import type { SimulatorAnswer } from '../kit.ts';
import { qboTime } from './shapes.ts';

type FaultType = 'ValidationFault' | 'AuthorizationFault' | 'SystemFault';

export function fault(status: number, type: FaultType, code: string, message: string, detail: string, element = ''): SimulatorAnswer {
  return {
    status,
    body: { Fault: { Error: [{ Message: message, Detail: detail, code, element }], type }, time: qboTime(Date.now(), true) },
  };
}

/** 403: the token's company is not the one in the path. */
export function forbidden(realmId: string): SimulatorAnswer {
  return fault(
    403,
    'AuthorizationFault',
    '3100',
    'message=ApplicationAuthorizationFailed; errorCode=003100; statusCode=403',
    `not authorized for company ${realmId}`,
  );
}

export function unsupported(method: string, path: string): SimulatorAnswer {
  return fault(400, 'ValidationFault', '500', 'Unsupported Operation', `Operation ${method} ${path} is not supported.`);
}

export function notFound(entity: string, id: string): SimulatorAnswer {
  return fault(400, 'ValidationFault', '610', 'Object Not Found', `Object Not Found : ${entity} ${id} does not exist or was deleted`);
}

export function queryError(message: string, query: string): SimulatorAnswer {
  return fault(400, 'ValidationFault', '4000', 'Error parsing query', `QueryParserError: ${message} in "${query}"`);
}

export function required(element: string, detail: string): SimulatorAnswer {
  return fault(400, 'ValidationFault', '2020', 'Required param missing, need to supply the required value for the API', detail, element);
}

export function stale(entity: string, id: string): SimulatorAnswer {
  return fault(
    400,
    'ValidationFault',
    '5010',
    'Stale Object Error',
    `Stale Object Error : You and another user were working on the same thing (${entity} ${id}). Please refresh and try again.`,
  );
}

/** QBO's code and message for each kind of SANDBOX refusal (anything else is a business validation error, 6000). */
const REFUSALS: Readonly<Record<string, [code: string, message: string]>> = {
  RequiredField: ['2020', 'Required param missing, need to supply the required value for the API'],
  DuplicateValue: ['6240', 'Duplicate Name Exists Error'],
  InvalidReference: ['2500', 'Invalid Reference Id'],
  NotFound: ['610', 'Object Not Found'],
  InvalidField: ['2010', 'Request has invalid or unsupported property'],
  InvalidAmount: ['2010', 'Request has invalid or unsupported property'],
  InvalidDate: ['2010', 'Request has invalid or unsupported property'],
};
const BUSINESS: [string, string] = ['6000', 'A business validation error has occurred while processing your request'];

/** SANDBOX's field as QBO's element: Lines[2].AccountId is Line.AccountRef, VendorId is VendorRef. */
export function elementOf(field: string | null): string {
  return (field ?? '').replace(/^Lines(\[\d+\])?/, 'Line').replace(/([A-Za-z]+)Id\b/g, '$1Ref');
}

/** A SANDBOX refusal (NativeError) as QBO's 400 ValidationFault; the detail keeps SANDBOX's words for what was wrong. */
export function refusal(error: NativeError): SimulatorAnswer {
  const [code, message] = REFUSALS[error.code] ?? BUSINESS;
  return fault(400, 'ValidationFault', code, message, `${message} : ${error.message}`, elementOf(error.element));
}
