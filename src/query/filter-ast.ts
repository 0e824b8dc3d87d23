/**
 * The typed tree a `filter` expression parses into, its limits, and the one
 * error every filter problem becomes (400 INVALID_FILTER with the position).
 */
import { ServiceError } from '../errors/catalogue.ts';

export type ComparisonOp = '=' | '!=' | '>' | '>=' | '<' | '<=' | '~';

export const COMPARISON_OPS: readonly ComparisonOp[] = ['=', '!=', '>', '>=', '<', '<=', '~'];

/** A value as written; which field kinds accept which value types is the compiler's call. */
export type FilterValue =
  | { readonly type: 'string'; readonly value: string }
  /** `text` is the literal as written, sent to PostgreSQL as numeric so no precision is lost. */
  | { readonly type: 'number'; readonly value: number; readonly text: string }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'null'; readonly value: null }
  /** ISO 8601: `2024-01-31` (dateOnly: the whole UTC day) or a date-time with a zone, as written. */
  | { readonly type: 'date'; readonly value: string; readonly dateOnly: boolean };

export interface Comparison {
  readonly type: 'comparison';
  readonly field: string;
  readonly op: ComparisonOp;
  readonly value: FilterValue;
  /** Character positions (from 1) of the field, the operator and the value, for error messages. */
  readonly position: number;
  readonly opPosition: number;
  readonly valuePosition: number;
}

export interface AndNode {
  readonly type: 'and';
  /** Two or more; chains are flattened, so `a AND b AND c` is one node. */
  readonly children: readonly FilterNode[];
}

export interface OrNode {
  readonly type: 'or';
  readonly children: readonly FilterNode[];
}

export type FilterNode = Comparison | AndNode | OrNode;

/**
 * `maxWordMatches` bounds the `~` comparisons: each is a regular expression run on every candidate row, and
 * PostgreSQL keeps only 32 compiled ones per connection, so a filter with more recompiles them for every row
 * (measured: 32 terms 0.3 s, 33 terms 6.3 s over 5,000 rows). Ten keeps far below that cliff.
 */
export const FILTER_LIMITS = { maxLength: 2000, maxComparisons: 50, maxWordMatches: 10, maxDepth: 10 } as const;

export function invalidFilter(message: string, position?: number): ServiceError {
  return new ServiceError('INVALID_FILTER', message, {
    source: 'service',
    field: 'filter',
    location: 'query',
    ...(position === undefined ? {} : { position }),
  });
}
