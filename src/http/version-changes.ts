/**
 * The history of response changes between API versions (docs/versions.md).
 * Handlers build the newest shape; each change below turns it, and its
 * response schema, into the shape of the versions before `since`.
 */
import { OBJECT_TYPES } from '../model/object-types.ts';
import type { JsonSchema, VersionRegistry } from './versioning.ts';

const DATA_PATHS = Object.values(OBJECT_TYPES).map((o) => `/versioned${o.path}`);
/** Writes answer with the object written, shaped like reads of the same version. */
const WRITE_ROUTES = new Set([
  ...DATA_PATHS.flatMap((path) => [`POST ${path}`, `PATCH ${path}/:id`]),
  'POST /versioned/accounting/bill_credit_applications',
  'POST /versioned/accounting/bill_credit_applications/unapply',
  'POST /versioned/accounting/invoice_credit_applications',
  'POST /versioned/accounting/invoice_credit_applications/unapply',
  'POST /versioned/accounting/journal_entries/:id/attachments',
]);
const isDataRoute = (routeKey: string) =>
  WRITE_ROUTES.has(routeKey) || DATA_PATHS.some((path) => routeKey === `GET ${path}` || routeKey === `GET ${path}/:id`);
/** Attachment lists of each document type (src/api/accounting/attachments): of one type, or of one document. */
const ATTACHMENT_LIST = /^GET \/versioned\/accounting\/[a-z_]+(\/:id)?\/attachments$/;
const isListRoute = (routeKey: string) => ATTACHMENT_LIST.test(routeKey) || DATA_PATHS.some((path) => routeKey === `GET ${path}`);
/** Objects whose currency_rate became a number in 2024-08-31 (journal entries by the spec, expenses and invoice payments by the reference). */
const NUMERIC_RATE_PATHS = ['/versioned/accounting/journal_entries', '/versioned/accounting/expenses', '/versioned/accounting/invoice_payments'];
const numericRateRoute = (routeKey: string) =>
  !routeKey.includes('/attachments') &&
  NUMERIC_RATE_PATHS.some((path) => [`GET ${path}`, `GET ${path}/:id`, `POST ${path}`, `PATCH ${path}/:id`].includes(routeKey));

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Applies `edit` to every served object of a data response (list items or the fetched object). */
function eachObject(body: unknown, edit: (object: Json) => Json): unknown {
  if (!isObject(body)) return body;
  const out: Json = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === 'connection' || key === 'next_cursor') out[key] = value;
    else if (Array.isArray(value)) out[key] = value.map((item: unknown) => (isObject(item) ? edit(item) : item));
    else out[key] = isObject(value) ? edit(value) : value;
  }
  return out;
}

/** The same for the object schemas inside a data response schema. */
function eachObjectSchema(schema: JsonSchema, edit: (object: JsonSchema) => JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties === undefined) return schema;
  const out: Record<string, JsonSchema> = {};
  for (const [key, value] of Object.entries(properties)) {
    if (key === 'connection' || key === 'next_cursor') out[key] = value;
    else if (value.type === 'array' && isObject(value.items)) out[key] = { ...value, items: edit(value.items) };
    else out[key] = edit(value);
  }
  return { ...schema, properties: out };
}

function withoutProperty(schema: JsonSchema, name: string): JsonSchema {
  const properties = Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).filter(([key]) => key !== name));
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((r) => r !== name) : schema.required;
  return { ...schema, properties, ...(required === undefined ? {} : { required }) };
}

function optionalProperty(schema: JsonSchema, name: string): JsonSchema {
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((r) => r !== name) : schema.required;
  return { ...schema, ...(required === undefined ? {} : { required }) };
}

export function registerVersionChanges(registry: VersionRegistry): void {
  registry.register({
    since: '2024-08-31',
    description: 'Journal entries, expenses and invoice payments: currency_rate is a number (it was a decimal string, as on bills).',
    appliesTo: numericRateRoute,
    downgrade: (body) => eachObject(body, (o) => (typeof o.currency_rate === 'number' ? { ...o, currency_rate: String(o.currency_rate) } : o)),
    downgradeSchema: (schema) =>
      eachObjectSchema(schema, (o) => {
        const properties = o.properties as Record<string, JsonSchema> | undefined;
        if (properties?.currency_rate === undefined) return o;
        return { ...o, properties: { ...properties, currency_rate: { type: 'string', description: 'Rate to the base currency, as decimal text.' } } };
      }),
  });
  registry.register({
    since: '2024-04-30',
    description: 'Objects carry platform_url (the address of the object on the platform).',
    appliesTo: isDataRoute,
    downgrade: (body) =>
      eachObject(body, (o) => {
        const { platform_url: _dropped, ...rest } = o;
        return rest;
      }),
    downgradeSchema: (schema) => eachObjectSchema(schema, (o) => withoutProperty(o, 'platform_url')),
  });
  registry.register({
    since: '2023-03-14',
    description: 'List responses always carry next_cursor, null on the last page (it was left out).',
    appliesTo: isListRoute,
    downgrade: (body) => {
      if (!isObject(body) || body.next_cursor !== null) return body;
      const { next_cursor: _dropped, ...rest } = body;
      return rest;
    },
    downgradeSchema: (schema) => optionalProperty(schema, 'next_cursor'),
  });
}
