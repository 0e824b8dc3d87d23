/**
 * Splits a filter into tokens. Positions count characters from 1 so messages
 * can point at the problem.
 */
import { COMPARISON_OPS, invalidFilter, type ComparisonOp } from './filter-ast.ts';

export type Token =
  /** Field names, AND/OR and true/false/null. */
  | { readonly kind: 'word'; readonly text: string; readonly pos: number }
  | { readonly kind: 'op'; readonly op: ComparisonOp; readonly pos: number }
  | { readonly kind: 'string'; readonly value: string; readonly pos: number }
  /** A bare number or date, checked by the parser. */
  | { readonly kind: 'literal'; readonly text: string; readonly pos: number }
  | { readonly kind: '(' | ')' | 'end'; readonly pos: number };

const WHITESPACE = /[ \t\r\n]/;
const WORD_START = /[A-Za-z_]/;
const WORD_CHAR = /[A-Za-z0-9_]/;
const LITERAL_START = /[0-9-]/;
const LITERAL_CHAR = /[A-Za-z0-9.:+-]/;
const OP_CHAR = /[=!<>~]/;

const HINTS: Readonly<Record<string, string>> = {
  "'": ': put text values in double quotes',
  '&': ': combine comparisons with AND',
  '|': ': combine comparisons with OR',
};

/** C0 controls except tab/CR/LF, and DEL: PostgreSQL rejects NUL in text, and none belongs in a filter. */
function controlAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return i;
  }
  return -1;
}

function isOp(text: string): text is ComparisonOp {
  return (COMPARISON_OPS as readonly string[]).includes(text);
}

function run(text: string, start: number, char: RegExp): number {
  let end = start;
  while (end < text.length && char.test(text.charAt(end))) end++;
  return end;
}

/** Reads a double-quoted string at `start`; returns its value and the index after the closing quote. */
function readString(text: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const char = text.charAt(i);
    if (char === '"') return { value, end: i + 1 };
    if (char === '\\') {
      const next = text.charAt(i + 1);
      if (next === '') break;
      if (next !== '"' && next !== '\\') {
        throw invalidFilter(`Invalid escape "\\${next}" at position ${i + 1}: inside strings only \\" and \\\\ are escapes`, i + 1);
      }
      value += next;
      i += 2;
      continue;
    }
    value += char;
    i++;
  }
  throw invalidFilter(`Unterminated string starting at position ${start + 1}: close it with "`, start + 1);
}

export function tokenize(text: string): Token[] {
  const control = controlAt(text);
  if (control >= 0) {
    const code = text.charCodeAt(control).toString(16).toUpperCase().padStart(4, '0');
    throw invalidFilter(`Control character U+${code} at position ${control + 1} is not allowed`, control + 1);
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text.charAt(i);
    const pos = i + 1;
    if (WHITESPACE.test(char)) {
      i++;
    } else if (char === '(' || char === ')') {
      tokens.push({ kind: char, pos });
      i++;
    } else if (char === '"') {
      const { value, end } = readString(text, i);
      tokens.push({ kind: 'string', value, pos });
      i = end;
    } else if (WORD_START.test(char)) {
      const end = run(text, i, WORD_CHAR);
      tokens.push({ kind: 'word', text: text.slice(i, end), pos });
      i = end;
    } else if (LITERAL_START.test(char)) {
      const end = run(text, i + 1, LITERAL_CHAR);
      tokens.push({ kind: 'literal', text: text.slice(i, end), pos });
      i = end;
    } else if (OP_CHAR.test(char)) {
      const end = run(text, i, OP_CHAR);
      const op = text.slice(i, end);
      if (!isOp(op)) throw invalidFilter(`Unknown operator "${op}" at position ${pos}; operators: ${COMPARISON_OPS.join(' ')}`, pos);
      tokens.push({ kind: 'op', op, pos });
      i = end;
    } else {
      const shown = String.fromCodePoint(text.codePointAt(i) ?? 0);
      throw invalidFilter(`Unexpected character "${shown}" at position ${pos}${HINTS[char] ?? ''}`, pos);
    }
  }
  tokens.push({ kind: 'end', pos: text.length + 1 });
  return tokens;
}
