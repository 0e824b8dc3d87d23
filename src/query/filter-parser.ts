/**
 * Recursive-descent parser for `filter` (grammar in docs/filtering.md):
 *
 *   expr       := or
 *   or         := and ('OR' and)*
 *   and        := unary ('AND' unary)*
 *   unary      := '(' expr ')' | comparison
 *   comparison := field op value
 *
 * AND binds tighter than OR. Only syntax is checked here; whether a field
 * exists and takes the value is the compiler's job (it knows the resource).
 */
import { FILTER_LIMITS, invalidFilter, type ComparisonOp, type FilterNode, type FilterValue } from './filter-ast.ts';
import { tokenize, type Token } from './filter-tokenizer.ts';
import { parseIsoDate } from './iso-date.ts';

export type { AndNode, Comparison, ComparisonOp, FilterNode, FilterValue, OrNode } from './filter-ast.ts';
export { FILTER_LIMITS } from './filter-ast.ts';

const FIELD_NAME = /^[a-z_][a-z0-9_]*$/;
const NUMBER = /^-?\d+(\.\d+)?$/;
const DATE_LIKE = /^\d{4}-/;

function describe(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'the end of the filter';
    case 'word':
    case 'literal':
      return `"${token.text}"`;
    case 'op':
      return `"${token.op}"`;
    case 'string':
      return `the string "${token.value.length > 30 ? `${token.value.slice(0, 30)}…` : token.value}"`;
    default:
      return `"${token.kind}"`;
  }
}

function isKeyword(token: Token, keyword: 'AND' | 'OR'): boolean {
  return token.kind === 'word' && token.text.toUpperCase() === keyword;
}

function literalValue(text: string, field: string, pos: number): FilterValue {
  if (NUMBER.test(text)) return { type: 'number', value: Number(text), text };
  if (DATE_LIKE.test(text)) {
    const date = parseIsoDate(text);
    if (date.ok) return { type: 'date', value: date.value, dateOnly: date.dateOnly };
    throw invalidFilter(`Invalid date "${text}" for ${field} at position ${pos}: ${date.reason}`, pos);
  }
  throw invalidFilter(`Invalid value "${text}" at position ${pos}: numbers look like 42 or -12.50, dates like 2024-01-31`, pos);
}

function wordValue(token: Token & { kind: 'word' }, op: ComparisonOp): FilterValue {
  const lower = token.text.toLowerCase();
  if (lower === 'true' || lower === 'false') return { type: 'boolean', value: lower === 'true' };
  if (lower === 'null') return { type: 'null', value: null };
  const hint = isKeyword(token, 'AND') || isKeyword(token, 'OR') ? '' : `: put text in double quotes, e.g. "${token.text}"`;
  throw invalidFilter(`Expected a value after "${op}" at position ${token.pos}; found ${describe(token)}${hint}`, token.pos);
}

export function parseFilter(text: string): FilterNode {
  if (text.length > FILTER_LIMITS.maxLength) {
    throw invalidFilter(`Filter is too long: ${text.length} characters; the limit is ${FILTER_LIMITS.maxLength}`);
  }
  if (text.trim() === '') throw invalidFilter('Filter is empty: write a comparison such as status = "open"');
  const tokens = tokenize(text);
  let index = 0;
  let comparisons = 0;
  let wordMatches = 0;
  let depth = 0;

  const peek = (): Token => tokens[index] ?? { kind: 'end', pos: text.length + 1 };
  const previous = (): Token | undefined => tokens[index - 1];

  function comparison(): FilterNode {
    const fieldToken = peek();
    if (fieldToken.kind !== 'word' || isKeyword(fieldToken, 'AND') || isKeyword(fieldToken, 'OR')) {
      const before = previous();
      const after = before === undefined ? '' : ` after ${describe(before)}`;
      throw invalidFilter(`Expected a field name${after} at position ${fieldToken.pos}; found ${describe(fieldToken)}`, fieldToken.pos);
    }
    const field = fieldToken.text;
    if (!FIELD_NAME.test(field)) {
      throw invalidFilter(
        `Invalid field name "${field}" at position ${fieldToken.pos}: field names are lowercase letters, digits and _`,
        fieldToken.pos,
      );
    }
    if (++comparisons > FILTER_LIMITS.maxComparisons) {
      throw invalidFilter(
        `Filter has more than ${FILTER_LIMITS.maxComparisons} comparisons (the one at position ${fieldToken.pos} is one too many)`,
        fieldToken.pos,
      );
    }
    index++;
    const opToken = peek();
    if (opToken.kind !== 'op') {
      throw invalidFilter(
        `Expected an operator after "${field}" at position ${opToken.pos}; found ${describe(opToken)}; operators: = != > >= < <= ~`,
        opToken.pos,
      );
    }
    if (opToken.op === '~' && ++wordMatches > FILTER_LIMITS.maxWordMatches) {
      throw invalidFilter(
        `Filter has more than ${FILTER_LIMITS.maxWordMatches} "~" comparisons (the one at position ${opToken.pos} is one too many): each one scans the text of every record; use fewer, or = for exact values`,
        opToken.pos,
      );
    }
    index++;
    const valueToken = peek();
    let value: FilterValue;
    if (valueToken.kind === 'string') value = { type: 'string', value: valueToken.value };
    else if (valueToken.kind === 'word') value = wordValue(valueToken, opToken.op);
    else if (valueToken.kind === 'literal') value = literalValue(valueToken.text, field, valueToken.pos);
    else {
      const found = valueToken.kind === 'end' ? '' : `; found ${describe(valueToken)}`;
      throw invalidFilter(`Expected a value after "${opToken.op}" at position ${valueToken.pos}${found}`, valueToken.pos);
    }
    index++;
    return { type: 'comparison', field, op: opToken.op, value, position: fieldToken.pos, opPosition: opToken.pos, valuePosition: valueToken.pos };
  }

  function unary(): FilterNode {
    const open = peek();
    if (open.kind !== '(') return comparison();
    if (++depth > FILTER_LIMITS.maxDepth) {
      throw invalidFilter(`Parentheses nested deeper than ${FILTER_LIMITS.maxDepth} levels at position ${open.pos}`, open.pos);
    }
    index++;
    const inner = or();
    const close = peek();
    if (close.kind !== ')') {
      throw invalidFilter(
        `Expected AND, OR or ")" at position ${close.pos} to close "(" from position ${open.pos}; found ${describe(close)}`,
        close.pos,
      );
    }
    index++;
    depth--;
    return inner;
  }

  function chain(type: 'and' | 'or', keyword: 'AND' | 'OR', operand: () => FilterNode): FilterNode {
    const children = [operand()];
    while (isKeyword(peek(), keyword)) {
      index++;
      children.push(operand());
    }
    const [only] = children;
    return children.length === 1 && only !== undefined ? only : { type, children };
  }

  const and = (): FilterNode => chain('and', 'AND', unary);
  const or = (): FilterNode => chain('or', 'OR', and);

  const tree = or();
  const rest = peek();
  if (rest.kind === ')') throw invalidFilter(`Unexpected ")" at position ${rest.pos}: there is no "(" to close`, rest.pos);
  if (rest.kind !== 'end') throw invalidFilter(`Expected AND or OR at position ${rest.pos}; found ${describe(rest)}`, rest.pos);
  return tree;
}
