/** Shopify's search syntax (`query:` arguments), the part the SHOPIFY connector sends: `field:>='value'` terms joined by AND. */
import { GraphQLError } from 'graphql';
import { holds, order } from '../lists.ts';

export interface SearchTerm {
  field: string;
  op: '=' | '>' | '>=' | '<' | '<=';
  value: string;
}

export function parseSearch(query: unknown): SearchTerm[] {
  if (typeof query !== 'string' || query.trim() === '') return [];
  return query.split(/\s+AND\s+/).map((part) => {
    const match = /^([a-z_]+):(>=|<=|>|<)?(?:'([^']*)'|"([^"]*)"|(\S*))$/.exec(part.trim());
    if (match === null) throw new GraphQLError(`Invalid search query term: ${part}`);
    const op = match[2];
    return {
      field: match[1] ?? '',
      op: op === '>' || op === '>=' || op === '<' || op === '<=' ? op : '=',
      value: match[3] ?? match[4] ?? match[5] ?? '',
    };
  });
}

/** Whether a record's search fields (by the search's field name) match every term; fields the record lacks match. */
export function matchesSearch(fields: Readonly<Record<string, string | undefined>>, terms: readonly SearchTerm[]): boolean {
  return terms.every((term) => {
    const value = fields[term.field];
    if (value === undefined) return true;
    if (term.op === '=') return value.toLowerCase() === term.value.toLowerCase();
    const left = Date.parse(value);
    const right = Date.parse(term.value);
    if (Number.isNaN(right)) throw new GraphQLError(`Invalid date in search query: ${term.value}`);
    return holds(term.op, order(left, right));
  });
}
