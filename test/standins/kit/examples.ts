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

export interface RecordsOptions {
  /** The path prefix of the operations whose answers list the collection (/Invoices). */
  under: string;
  /** The answer's key holding the records. */
  key: string;
  idField: string;
  /** Ids that name no record (a zero UUID). */
  skipIds?: readonly string[];
  /** Fields dropped from every record (per-answer validation noise). */
  drop?: readonly string[];
  /** Arrays a list may leave out and a single record's answer carries (its lines). */
  details?: readonly string[];
}

/** Reads first, then writes; collections before single records (whose lists are fuller). */
const RANKS: Readonly<Record<string, number>> = { GET: 0, POST: 2, PUT: 2, DELETE: 3 };
const rank = ({ method, path }: ExampleAnswer): number => (RANKS[method] ?? 4) + (path.includes('{') ? 1 : 0);

/**
 * The records of one collection across the example answers, once per id: the first copy (lists first, then single
 * records, then write answers), with the detail arrays of a later copy that has more of them.
 */
export function recordsFromExamples(answers: readonly ExampleAnswer[], options: RecordsOptions): Json[] {
  const details = options.details ?? [];
  const sizeOf = (record: Json): number => details.map((key) => record[key]).find(Array.isArray)?.length ?? 0;
  const byId = new Map<string, Json>();
  const sources = answers.filter((a) => a.path.startsWith(options.under) && Array.isArray(a.body[options.key]));
  for (const { body } of sources.sort((a, b) => rank(a) - rank(b))) {
    for (const item of body[options.key] as unknown[]) {
      const id = isObject(item) ? item[options.idField] : undefined;
      if (!isObject(item) || typeof id !== 'string' || id === '' || options.skipIds?.includes(id) === true) continue;
      const record = structuredClone(item);
      for (const field of options.drop ?? []) Reflect.deleteProperty(record, field);
      const known = byId.get(id);
      if (known === undefined) byId.set(id, record);
      else if (sizeOf(record) > sizeOf(known)) for (const key of details) if (Array.isArray(record[key])) known[key] = record[key];
    }
  }
  return [...byId.values()];
}
