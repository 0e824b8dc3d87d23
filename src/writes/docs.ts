/**
 * The write part of docs/writes.md that must match the code: which operations
 * each resource has and what a create must carry, rendered from WRITABLE
 * (src/writes/docs.test.ts fails when the document is stale).
 */
import { OBJECT_TYPES, type UnifiedObjectType } from '../model/object-types.ts';
import { WRITABLE } from './writable.ts';

export const BEGIN = '<!-- BEGIN generated from src/writes/writable.ts by `node scripts/gen-write-docs.ts` -->';
export const END = '<!-- END generated -->';

const VERB: Record<string, string> = { create: 'POST', update: 'PATCH', delete: 'DELETE' };

export function renderWritableTable(): string {
  const lines = [BEGIN, '', '| Resource | Path | Operations | Required on create | Writable fields |', '|---|---|---|---|---|'];
  for (const type of (Object.keys(WRITABLE) as UnifiedObjectType[]).sort()) {
    const spec = WRITABLE[type];
    if (spec === undefined) continue;
    const names = OBJECT_TYPES[type];
    const code = (items: readonly string[]): string => items.map((i) => `\`${i}\``).join(', ');
    lines.push(
      `| ${names.singular} | \`${names.path}\` | ${spec.operations.map((o) => VERB[o] ?? o).join(', ')} | ${code(spec.required)} | ${code(spec.fields)} |`,
    );
  }
  lines.push('', END);
  return lines.join('\n');
}

/** The document with its generated block replaced. */
export function withWritableTable(document: string): string {
  const start = document.indexOf(BEGIN);
  const end = document.indexOf(END);
  if (start < 0 || end < start) throw new Error('docs/writes.md lacks the generated block markers');
  return `${document.slice(0, start)}${renderWritableTable()}${document.slice(end + END.length)}`;
}
