/**
 * Request body schemas of writes, derived from the read model's schemas so the
 * two cannot drift: the writable fields of WRITABLE, every field optional
 * except the required ones, nested platform_id and readOnly fields dropped (the
 * platform assigns them), dates accepted as YYYY-MM-DD or a full timestamp, and unknown fields
 * refused with their name. One schema validates, documents (OpenAPI) and is
 * what the tests send.
 */
import { Type, type TSchema } from 'typebox';
import { MODEL } from '../model/index.ts';
import { CURRENCY_CODES, StringEnum } from '../model/shared.ts';
import { OBJECT_TYPES, type UnifiedObjectType } from '../model/object-types.ts';
import { WRITABLE, type WritableSpec } from './writable.ts';

type Json = Record<string, unknown>;

/** ajv format registered in src/http/validation.ts: YYYY-MM-DD or an ISO 8601 date-time. */
export const DATE_OR_TIMESTAMP = 'date-or-date-time';

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

interface Shaping {
  spec: WritableSpec;
  /** The top-level fields this body takes. */
  fields: readonly string[];
  /** Whether top-level required fields apply (create) or not (PATCH). */
  create: boolean;
}

function isRequired(shaping: Shaping, path: string): boolean {
  return shaping.spec.required.includes(path) && (shaping.create || path.includes('[]'));
}

function withoutNull(schema: Json): Json {
  if (!Array.isArray(schema.anyOf)) return schema;
  const branches = (schema.anyOf as Json[]).filter((branch) => branch.type !== 'null');
  const [only] = branches;
  return branches.length === 1 && only !== undefined
    ? { ...only, description: schema.description ?? only.description }
    : { ...schema, anyOf: branches };
}

function shape(schema: Json, path: string, shaping: Shaping): Json {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: (schema.anyOf as Json[]).map((branch) => shape(branch, path, shaping)) };
  if (schema.type === 'string' && schema.format === 'date-time') return { ...schema, format: DATE_OR_TIMESTAMP };
  if (schema.type === 'array' && isJson(schema.items)) {
    const minItems = shaping.spec.minItems?.[path] ?? (shaping.spec.required.includes(path) ? 1 : undefined);
    return { ...schema, items: shape(schema.items, `${path}[]`, shaping), ...(minItems === undefined ? {} : { minItems }) };
  }
  if (schema.type !== 'object' || !isJson(schema.properties)) return schema;
  const properties: Json = {};
  const required: string[] = [];
  for (const [name, child] of Object.entries(schema.properties)) {
    if (!isJson(child)) continue;
    const childPath = path === '' ? name : `${path}.${name}`;
    if (path === '' ? !shaping.fields.includes(name) : name === 'platform_id' || child.readOnly === true) continue;
    if (shaping.spec.omit?.includes(childPath) === true) continue;
    const enumOverride = path === '' ? shaping.spec.enums?.[name] : undefined;
    let shaped = shape(enumOverride === undefined ? child : overrideEnum(child, enumOverride), childPath, shaping);
    // The read model types some currency codes as free text; a write takes only the ISO 4217 list.
    if (name === 'currency_code') shaped = overrideEnum(shaped, CURRENCY_CODES);
    // The reference's write bodies send rates as numbers where its reads answer text: take either.
    if (name === 'currency_rate') shaped = numberOrDecimalText(shaped);
    if (isRequired(shaping, childPath)) {
      required.push(name);
      shaped = withoutNull(shaped);
    }
    properties[name] = shaped;
  }
  if (path === '') {
    // A write may carry additional_fields where the read model has none (the spec's bank feed account sample body).
    if (shaping.fields.includes('additional_fields') && properties.additional_fields === undefined) {
      properties.additional_fields = { type: 'object', description: 'Platform-specific options of the write (docs/writes.md).' };
    }
    for (const name of shaping.spec.extra ?? []) {
      properties[name] = { anyOf: [{ type: 'string' }, { type: 'null' }], description: `Input-only field: ${name}.` };
    }
  }
  const { required: _modelRequired, ...rest } = schema;
  return { ...rest, properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

const DECIMAL_TEXT = { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$', description: 'Decimal text, such as "1.0825".' };

function numberOrDecimalText(schema: Json): Json {
  const nullable = Array.isArray(schema.anyOf) && (schema.anyOf as Json[]).some((b) => b.type === 'null');
  const branches: Json[] = [{ type: 'number', exclusiveMinimum: 0 }, DECIMAL_TEXT, ...(nullable ? [{ type: 'null' }] : [])];
  const described = typeof schema.description === 'string' ? schema.description : 'Exchange rate.';
  return { anyOf: branches, description: `${described} A number or decimal text.` };
}

function overrideEnum(schema: Json, values: readonly string[]): Json {
  if (Array.isArray(schema.anyOf))
    return { ...schema, anyOf: (schema.anyOf as Json[]).map((b) => (b.type === 'null' ? b : overrideEnum(b, values))) };
  const { enum: _old, ...rest } = schema;
  return { ...rest, type: 'string', enum: [...values] };
}

/** The unified object part of a create or update body (plain JSON schema, no TypeBox symbols). */
export function objectInputSchema(type: UnifiedObjectType, operation: 'create' | 'update'): Json {
  const spec = WRITABLE[type];
  if (spec === undefined) throw new Error(`${type} is not writable`);
  const own = spec.bodies?.[operation];
  if (own !== undefined) return JSON.parse(JSON.stringify(own)) as Json;
  const model = JSON.parse(JSON.stringify(MODEL[type].schema)) as Json;
  const fields = operation === 'update' ? (spec.updateFields ?? spec.fields) : spec.fields;
  const shaped = shape(model, '', { spec, fields, create: operation === 'create' });
  const verb = operation === 'create' ? 'to create' : 'fields to change (omitted fields keep their value; arrays are replaced whole)';
  return { ...shaped, description: `The ${OBJECT_TYPES[type].singular.replaceAll('_', ' ')} ${verb}.` };
}

export const RESPONSE_MODES = ['prefer_sync', 'async'] as const;
export type ResponseMode = (typeof RESPONSE_MODES)[number];

export const ResponseModeSchema = Type.Optional(
  StringEnum(
    RESPONSE_MODES,
    'prefer_sync (default): answer with the result when the platform answers within the wait; otherwise, and always with async, answer 202 with async_response.',
  ),
);

/** `{response_mode?, <key>: object}`, the shape of every write body. */
export function writeBody(key: string, object: Json | TSchema, options: { required: boolean }): TSchema {
  return Type.Object(
    {
      response_mode: ResponseModeSchema,
      [key]: options.required ? Type.Unsafe<Json>(object) : Type.Optional(Type.Unsafe<Json>(object)),
    },
    { additionalProperties: false },
  );
}
