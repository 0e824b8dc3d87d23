/**
 * Cursor pagination (the spec's "Pagination"): a list answer carries `next_cursor`, null (or absent) on the last
 * page; passing it back as `cursor` with the same filters gives the next page. An empty cursor asks for the first
 * page in paged mode.
 */
export interface Page {
  next_cursor?: string | null;
}

/** Every page, fetching the next only when asked: `fetchPage` makes one call with the cursor it is given. */
export async function* pages<T extends Page>(fetchPage: (cursor: string) => Promise<T>): AsyncGenerator<T, void, undefined> {
  let cursor = '';
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    if (page.next_cursor === null || page.next_cursor === undefined || page.next_cursor === '') return;
    cursor = page.next_cursor;
  }
}

type ElementOf<V> = V extends readonly (infer Item)[] ? Item : never;
type ListKey<T> = { [K in keyof T]: T[K] extends readonly unknown[] ? K : never }[keyof T];

/** The records of every page, under the list's plural key (`bills`, `connections`...). */
export async function* items<T extends Page, K extends ListKey<T>>(
  source: AsyncIterable<T>,
  key: K,
): AsyncGenerator<ElementOf<T[K]>, void, undefined> {
  for await (const page of source) {
    const list = page[key];
    if (Array.isArray(list)) for (const item of list as readonly ElementOf<T[K]>[]) yield item;
  }
}
