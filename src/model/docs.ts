/**
 * The generated table of docs/objects.md: every unified object with its path, list key, fields, F fields and the
 * spec section, reference page or decision of ours it follows (src/model/reference-pages.ts). Run node scripts/gen-object-docs.ts
 * after changing a schema; src/model/docs.test.ts fails while the document is stale.
 */
import { MODEL } from './index.ts';
import { OBJECT_TYPES, UNIFIED_OBJECT_TYPES } from './object-types.ts';
import { OBJECT_SOURCES } from './reference-pages.ts';

const BEGIN = '<!-- BEGIN generated from src/model (node scripts/gen-object-docs.ts) -->';
const END = '<!-- END generated -->';

function topLevelFields(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  return properties === undefined ? [] : Object.keys(properties);
}

/** The link to a section of docs/reference.md, as Markdown renderers anchor its heading. */
export function decisionAnchor(heading: string): string {
  return `reference.md#${heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-')}`;
}

export function renderObjectTable(): string {
  const rows = UNIFIED_OBJECT_TYPES.map((type) => {
    const names = OBJECT_TYPES[type];
    const source = OBJECT_SOURCES[type];
    const follows =
      source.follows === 'spec'
        ? `spec: ${source.section}`
        : source.follows === 'reference'
          ? `[reference](${source.page})`
          : `ours: [${source.decision}](${decisionAnchor(source.decision)})`;
    const filterable = Object.keys(MODEL[type].filterable);
    const fields = topLevelFields(MODEL[type].schema).map((f) => (filterable.includes(f) ? `${f} (F)` : f));
    return `| ${type} | \`${names.path}\` | \`${names.plural}\` / \`${names.singular}\` | ${follows} | ${fields.join(', ')} |`;
  });
  return [
    BEGIN,
    '',
    '| Object | Path | List / fetch key | Follows | Fields (F: filterable and sortable) |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    END,
  ].join('\n');
}

/** The document with its generated table replaced (or appended when it has none yet). */
export function withObjectTable(document: string): string {
  const start = document.indexOf(BEGIN);
  const end = document.indexOf(END);
  if (start === -1 || end === -1) return `${document.trimEnd()}\n\n${renderObjectTable()}\n`;
  return `${document.slice(0, start)}${renderObjectTable()}${document.slice(end + END.length)}`;
}
