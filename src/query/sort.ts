/**
 * The `sort` parameter: one F field, optionally followed by ASC or DESC
 * (any case; ASC when omitted). Absent or blank: updated_at DESC.
 */
import { ServiceError } from '../errors/catalogue.ts';
import type { FilterKind, FilterableFields } from '../model/fields.ts';

export type SortDirection = 'ASC' | 'DESC';

export interface SortSpec {
  readonly field: string;
  readonly direction: SortDirection;
  /** Kind of the field, so the caller can order dates as timestamps and numbers as numbers. */
  readonly kind: FilterKind;
}

export const DEFAULT_SORT: SortSpec = { field: 'updated_at', direction: 'DESC', kind: 'date' };

const MAX_SORT_LENGTH = 200;

function invalidSort(message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', message, { source: 'service', field: 'sort', location: 'query' });
}

/** F fields that have an order: every kind but lists. */
export function sortableFields(fields: FilterableFields): string[] {
  return Object.keys(fields)
    .filter((name) => fields[name] !== 'array')
    .sort();
}

export function parseSort(text: string | undefined, fields: FilterableFields, options: { resource?: string } = {}): SortSpec {
  if (text === undefined || text.trim() === '') return DEFAULT_SORT;
  const resource = options.resource ?? 'this resource';
  if (text.length > MAX_SORT_LENGTH) throw invalidSort(`sort is too long: ${text.length} characters; the limit is ${MAX_SORT_LENGTH}`);
  const parts = text.trim().split(/\s+/);
  const [field = '', direction = 'ASC', ...extra] = parts;
  if (field.includes(',')) throw invalidSort(`sort takes one field, optionally followed by ASC or DESC; found "${text.trim()}"`);
  const allowed = sortableFields(fields);
  const kind = Object.hasOwn(fields, field) ? fields[field] : undefined;
  if (kind === undefined || kind === 'array') {
    const choices =
      allowed.length === 0
        ? `${resource} can only be listed in the default order; leave sort out (updated_at DESC)`
        : `sortable fields: ${allowed.join(', ')}`;
    throw invalidSort(`Cannot sort ${resource} by "${field}"; ${choices}`);
  }
  const upper = direction.toUpperCase();
  if ((upper !== 'ASC' && upper !== 'DESC') || extra.length > 0) {
    throw invalidSort(`Invalid sort "${text.trim()}": write a field optionally followed by ASC or DESC, e.g. "${field} DESC"`);
  }
  return { field, direction: upper, kind };
}
