import { describe, expect, it } from 'vitest';
import { textPdf } from './pdf.ts';

/** Checks what a reader relies on: every object where the cross-reference table says, and startxref at the table. */
function checkStructure(pdf: Buffer): { objects: number; pages: number } {
  const text = pdf.toString('latin1');
  expect(text.startsWith('%PDF-1.4\n')).toBe(true);
  expect(text.endsWith('%%EOF\n')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
  expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
  const [, count] = /^xref\n0 (\d+)\n/.exec(text.slice(startxref)) ?? [];
  const entries = text
    .slice(startxref)
    .split('\n')
    .slice(3, 2 + Number(count));
  entries.forEach((entry, index) => {
    const offset = Number(entry.slice(0, 10));
    expect(text.slice(offset, offset + `${index + 1} 0 obj`.length)).toBe(`${index + 1} 0 obj`);
  });
  for (const match of text.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const start = match.index + match[0].length;
    expect(text.slice(start + Number(match[1]), start + Number(match[1]) + 'endstream'.length)).toBe('endstream');
  }
  return { objects: entries.length, pages: Number(/\/Count (\d+)/.exec(text)?.[1]) };
}

describe('textPdf', () => {
  it('writes a PDF whose cross-reference table and stream lengths are exact', () => {
    expect(checkStructure(textPdf('Invoice 1', ['Invoice 1', 'Total 12.50']))).toEqual({ objects: 6, pages: 1 });
  });

  it('escapes delimiters, replaces what the font cannot show, and breaks pages every 60 lines', () => {
    const pdf = textPdf('x', ['a (b) \\ c', 'Café – ok', ...Array.from({ length: 119 }, (_, i) => `line ${i}`)]);
    const text = pdf.toString('latin1');
    expect(text).toContain('(a \\(b\\) \\\\ c) Tj');
    expect(text).toContain('(Caf? ? ok) Tj');
    expect(checkStructure(pdf)).toEqual({ objects: 4 + 3 * 2, pages: 3 });
  });
});
