/**
 * A bulk operation's result as Shopify writes it (shopify.dev/docs/api/usage/bulk-operations/queries): JSONL, one line
 * per node of the query's top connections; a node of a nested connection is a line of its own after its parent's,
 * carrying `__parentId` (the parent's id). A connection may be selected as `nodes` or as `edges { node }`.
 */
type View = Record<string, unknown>;

const isView = (value: unknown): value is View => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The nodes of a connection in an answer; null when `value` is not a connection. */
export function connectionNodes(value: unknown): View[] | null {
  if (!isView(value)) return null;
  if (Array.isArray(value.nodes)) return value.nodes.filter(isView);
  if (Array.isArray(value.edges)) return value.edges.map((edge) => (isView(edge) ? edge.node : null)).filter(isView);
  return null;
}

function linesOf(node: View, parentId: string | null, lines: string[]): void {
  const own: View = {};
  const children: View[] = [];
  for (const [key, value] of Object.entries(node)) {
    const nodes = connectionNodes(value);
    if (nodes === null) own[key] = value;
    else children.push(...nodes);
  }
  lines.push(JSON.stringify(parentId === null ? own : { ...own, __parentId: parentId }));
  const id = typeof own.id === 'string' ? own.id : null;
  for (const child of children) linesOf(child, id, lines);
}

/** The JSONL lines of a bulk query's answer (its `data`), and how many of them are top-level nodes. */
export function bulkLines(data: View): { lines: string[]; roots: number } {
  const lines: string[] = [];
  let roots = 0;
  for (const value of Object.values(data)) {
    for (const node of connectionNodes(value) ?? []) {
      roots += 1;
      linesOf(node, null, lines);
    }
  }
  return { lines, roots };
}
