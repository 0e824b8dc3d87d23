/**
 * Compiles a parsed filter to a parameterised SQL condition. Field SQL comes
 * only from the caller's `fieldSql` for names found in the allowed table; every
 * value is a parameter. Type checks per field kind happen here, so a filter that
 * compiles never makes PostgreSQL fail on a cast.
 */
import type { FilterKind, FilterableFields } from '../model/fields.ts';
import { invalidFilter, type Comparison, type ComparisonOp, type FilterNode, type FilterValue } from './filter-ast.ts';
import { DATE_FORMAT_HINT, parseIsoDate } from './iso-date.ts';

export interface CompileFilterOptions {
  /**
   * Trusted SQL for a field, e.g. `data->>'status'`: text for scalar kinds, jsonb
   * for 'array'. Called only with names taken from `fields`, never user text.
   */
  fieldSql(field: string, kind: FilterKind): string;
  /** Allowed values of an enum field; without them enum values are not checked. */
  enumValues?(field: string): readonly string[] | undefined;
  /** Placeholders already used in the statement: the first one here is $<paramOffset + 1>. */
  paramOffset: number;
  /** Plural resource name for messages, e.g. 'bills'. */
  resource?: string;
}

export interface CompiledFilter {
  sql: string;
  params: unknown[];
  /** `~` comparisons: each reads the text of every record the rest of the filter lets through. */
  substringComparisons: number;
}

const KIND_NAMES: Readonly<Record<FilterKind, string>> = {
  string: 'a text field',
  enum: 'an enum',
  date: 'a date',
  id: 'a service id',
  number: 'a number',
  boolean: 'a boolean',
  array: 'a list of subsidiaries',
};

const ORDERING: readonly ComparisonOp[] = ['=', '!=', '>', '>=', '<', '<='];
const EQUALITY: readonly ComparisonOp[] = ['=', '!='];
const OPS_BY_KIND: Readonly<Record<FilterKind, readonly ComparisonOp[]>> = {
  string: [...ORDERING, '~'],
  number: ORDERING,
  date: ORDERING,
  enum: EQUALITY,
  id: EQUALITY,
  boolean: EQUALITY,
  array: EQUALITY,
};

/** Escapes ASCII punctuation for a PostgreSQL ARE (`\` + non-alphanumeric is that character); letters stay literal. */
function escapeRegex(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

function shown(value: FilterValue): string {
  switch (value.type) {
    case 'string':
      return `the string "${value.value}"`;
    case 'number':
      return `the number ${value.text}`;
    case 'date':
      return `the date ${value.value}`;
    case 'boolean':
      return String(value.value);
    case 'null':
      return 'null';
  }
}

function lookupKind(fields: FilterableFields, c: Comparison, resource: string | undefined): FilterKind {
  // Own properties only: "constructor" or "__proto__" must not resolve to Object's.
  const kind = Object.hasOwn(fields, c.field) ? fields[c.field] : undefined;
  if (kind !== undefined) return kind;
  const names = Object.keys(fields).sort();
  const forResource = resource === undefined ? '' : ` for ${resource}`;
  const allowed = names.length === 0 ? `${resource ?? 'this resource'} cannot be filtered` : `filterable fields: ${names.join(', ')}`;
  throw invalidFilter(`Unknown field "${c.field}"${forResource} at position ${c.position}; ${allowed}`, c.position);
}

function checkOperator(c: Comparison, kind: FilterKind): void {
  if (OPS_BY_KIND[kind].includes(c.op)) return;
  const at = `at position ${c.opPosition}`;
  if (c.op === '~') throw invalidFilter(`Operator "~" ${at} works on text fields only; "${c.field}" is ${KIND_NAMES[kind]}`, c.opPosition);
  throw invalidFilter(`Operator "${c.op}" ${at} does not apply to "${c.field}", which is ${KIND_NAMES[kind]}; use = or !=`, c.opPosition);
}

function mismatch(c: Comparison, expected: string, more = ''): never {
  throw invalidFilter(`Expected ${expected} for ${c.field} at position ${c.valuePosition}; found ${shown(c.value)}${more}`, c.valuePosition);
}

/** The text value of a string, id or enum comparison, checked against the enum's values. */
function textValue(c: Comparison, kind: FilterKind, options: CompileFilterOptions): string {
  const allowed = kind === 'enum' ? options.enumValues?.(c.field) : undefined;
  const listed = allowed === undefined ? '' : `; allowed values: ${allowed.join(', ')}`;
  if (c.value.type !== 'string') mismatch(c, 'a text value in double quotes', listed);
  const text = c.value.value;
  if (allowed !== undefined && !allowed.includes(text)) {
    throw invalidFilter(`Invalid value "${text}" for ${c.field} at position ${c.valuePosition}${listed}`, c.valuePosition);
  }
  if (c.op === '~' && text.trim() === '') {
    throw invalidFilter(`Operator "~" at position ${c.opPosition} needs text to match; found an empty string`, c.opPosition);
  }
  return text;
}

/** Dates may be bare or quoted; either way they must be valid ISO 8601. */
function dateValue(c: Comparison): { value: string; dateOnly: boolean } {
  if (c.value.type === 'date') return c.value;
  if (c.value.type !== 'string') mismatch(c, `a date (${DATE_FORMAT_HINT})`);
  const parsed = parseIsoDate(c.value.value);
  if (!parsed.ok)
    throw invalidFilter(`Invalid date "${c.value.value}" for ${c.field} at position ${c.valuePosition}: ${parsed.reason}`, c.valuePosition);
  return parsed;
}

type Param = (value: unknown) => string;

function nullComparison(c: Comparison, kind: FilterKind, expr: string): string {
  if (c.op !== '=' && c.op !== '!=') {
    throw invalidFilter(`Operator "${c.op}" at position ${c.opPosition} cannot compare with null; use = null or != null`, c.opPosition);
  }
  // A jsonb field holding JSON null is not SQL NULL.
  if (kind === 'array') return `COALESCE(jsonb_typeof(${expr}), 'null') ${c.op === '=' ? '=' : '<>'} 'null'`;
  return `${expr} ${c.op === '=' ? 'IS NULL' : 'IS NOT NULL'}`;
}

/** `!=` keeps rows where the field is null: a missing value differs from the one given. */
function binary(left: string, op: ComparisonOp, right: string): string {
  return op === '!=' ? `${left} IS DISTINCT FROM ${right}` : `${left} ${op} ${right}`;
}

/** A bare day means the whole UTC day: `= 2024-01-31` matches any time on it. */
function dayComparison(value: string, op: ComparisonOp, start: string): string {
  const end = `${start} + interval '24 hours'`;
  switch (op) {
    case '=':
      return `(${value} >= ${start} AND ${value} < ${end})`;
    case '!=':
      return `NOT COALESCE(${value} >= ${start} AND ${value} < ${end}, false)`;
    case '>':
      return `${value} >= ${end}`;
    case '<=':
      return `${value} < ${end}`;
    default:
      return `${value} ${op} ${start}`;
  }
}

function comparisonSql(c: Comparison, fields: FilterableFields, options: CompileFilterOptions, param: Param): string {
  const kind = lookupKind(fields, c, options.resource);
  const expr = `(${options.fieldSql(c.field, kind)})`;
  if (c.value.type === 'null') return nullComparison(c, kind, expr);
  checkOperator(c, kind);
  switch (kind) {
    case 'string':
    case 'id':
    case 'enum': {
      const text = textValue(c, kind, options);
      if (c.op === '~') return `${expr} ~* ${param(`(^|[^[:alnum:]])${escapeRegex(text)}`)}::text`;
      // Code point order, whatever the database's collation.
      const left = c.op === '=' || c.op === '!=' ? expr : `${expr} COLLATE "C"`;
      return binary(left, c.op, `${param(text)}::text`);
    }
    case 'number':
      if (c.value.type !== 'number') mismatch(c, 'a number like 100 or -12.50');
      return binary(`${expr}::numeric`, c.op, `${param(c.value.text)}::numeric`);
    case 'boolean':
      if (c.value.type !== 'boolean') mismatch(c, 'true or false');
      return binary(`${expr}::boolean`, c.op, `${param(c.value.value)}::boolean`);
    case 'date': {
      const date = dateValue(c);
      if (!date.dateOnly) return binary(`${expr}::timestamptz`, c.op, `${param(date.value)}::timestamptz`);
      return dayComparison(`${expr}::timestamptz`, c.op, `${param(`${date.value}T00:00:00Z`)}::timestamptz`);
    }
    case 'array': {
      if (c.value.type !== 'string') mismatch(c, 'a subsidiary id in double quotes');
      const contains = `${expr} @> ${param(JSON.stringify([{ id: c.value.value }]))}::jsonb`;
      return c.op === '=' ? contains : `NOT COALESCE(${contains}, false)`;
    }
  }
}

export function compileFilter(ast: FilterNode, fields: FilterableFields, options: CompileFilterOptions): CompiledFilter {
  const params: unknown[] = [];
  const param: Param = (value) => {
    params.push(value);
    return `$${options.paramOffset + params.length}`;
  };
  let substringComparisons = 0;
  const compile = (node: FilterNode): string => {
    if (node.type === 'comparison') {
      if (node.op === '~') substringComparisons += 1;
      return comparisonSql(node, fields, options, param);
    }
    return `(${node.children.map(compile).join(node.type === 'and' ? ' AND ' : ' OR ')})`;
  };
  return { sql: compile(ast), params, substringComparisons };
}
