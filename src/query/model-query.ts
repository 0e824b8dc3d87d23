/**
 * `filter` and `sort` for a unified object type: F fields and enum values come
 * from the model registry, so a route only says where the fields live in SQL.
 */
import type { FilterKind } from '../model/fields.ts';
import { MODEL, OBJECT_TYPES, type UnifiedObjectType } from '../model/index.ts';
import { compileFilter, type CompiledFilter } from './filter-compiler.ts';
import { parseFilter } from './filter-parser.ts';
import { parseSort, type SortSpec } from './sort.ts';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function enumOf(schema: unknown): readonly string[] | undefined {
  if (!isRecord(schema)) return undefined;
  const values: unknown = schema.enum;
  if (Array.isArray(values)) {
    const list: unknown[] = values;
    return list.every((v): v is string => typeof v === 'string') ? list : undefined;
  }
  // Nullable enums are anyOf [enum, null].
  const anyOf: unknown = schema.anyOf;
  if (!Array.isArray(anyOf)) return undefined;
  const members: unknown[] = anyOf;
  for (const member of members) {
    const found = enumOf(member);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Allowed values of an enum property of an object schema, read from the schema itself. */
export function enumValuesOf(schema: unknown, field: string): readonly string[] | undefined {
  if (!isRecord(schema) || !isRecord(schema.properties)) return undefined;
  return enumOf(schema.properties[field]);
}

const SQL_NAME = /^[a-z_][a-z0-9_]*$/;
const COLUMN = /^([a-z_][a-z0-9_]*\.)?[a-z_][a-z0-9_]*$/;

/**
 * fieldSql for objects stored as JSON in `column` (optionally table-qualified): `column->>'field'` (text) for
 * scalars, `column->'field'` (jsonb) for lists. Names are checked again here so a
 * misuse can never splice arbitrary text into SQL.
 */
export function jsonbFieldSql(column: string): (field: string, kind: FilterKind) => string {
  if (!COLUMN.test(column)) throw new Error(`not a plain column name: ${column}`);
  return (field, kind) => {
    if (!SQL_NAME.test(field)) throw new Error(`not a plain field name: ${field}`);
    return `${column}${kind === 'array' ? '->' : '->>'}'${field}'`;
  };
}

export interface TypeFilterOptions {
  fieldSql(field: string, kind: FilterKind): string;
  paramOffset: number;
}

/** Parses and compiles `filter` for a type; undefined when absent or blank (no condition). */
export function compileFilterFor(type: UnifiedObjectType, text: string | undefined, options: TypeFilterOptions): CompiledFilter | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const { schema, filterable } = MODEL[type];
  return compileFilter(parseFilter(text), filterable, {
    ...options,
    resource: OBJECT_TYPES[type].plural,
    enumValues: (field) => enumValuesOf(schema, field),
  });
}

/** Parses `sort` for a type: one of its F fields, or the default updated_at DESC. */
export function parseSortFor(type: UnifiedObjectType, text: string | undefined): SortSpec {
  return parseSort(text, MODEL[type].filterable, { resource: OBJECT_TYPES[type].plural });
}
