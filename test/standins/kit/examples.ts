/**
 * The example answers of a published OpenAPI description: the records a stand-in seeds its data from. An example may
 * be JSON itself or JSON in a string (as Xero's are); examples that are not JSON objects hold no records.
 */
import { isObject, type Json } from './collections.ts';

export interface ExampleAnswer {
  /** Upper case. */
  method: string;
  /** The path template (/Invoices/{InvoiceID}). */
  path: string;
  body: Json;
}

function parsed(example: unknown): Json | null {
  if (typeof example !== 'string') return isObject(example) ? example : null;
  try {
    const value: unknown = JSON.parse(example);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** The JSON example of every operation's `status` answer, in the description's order. */
export function exampleAnswers(document: Json, status = '200'): ExampleAnswer[] {
  const found: ExampleAnswer[] = [];
  for (const [path, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    for (const [method, operation] of Object.entries(isObject(item) ? item : {})) {
      const answer = isObject(operation) && isObject(operation.responses) ? operation.responses[status] : undefined;
      const content = isObject(answer) && isObject(answer.content) ? answer.content['application/json'] : undefined;
      const body = isObject(content) ? parsed(content.example) : null;
      if (body !== null) found.push({ method: method.toUpperCase(), path, body });
    }
  }
  return found;
}
