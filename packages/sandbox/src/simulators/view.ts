/**
 * One API call's view of the books: each SANDBOX collection read at most once per call (a page of invoices needs the
 * chart for account codes, the contacts for names), and the lookups a platform builds on them, each made once under
 * its name. A write is answered from a fresh view, so what it changed is read again.
 */
import type { NativeOf } from '../native.ts';
import type { DeletedRecord, SimulatorBooks } from './kit.ts';

export class BooksView {
  readonly books: SimulatorBooks;
  private readonly loaded = new Map<string, Promise<unknown>>();

  constructor(books: SimulatorBooks) {
    this.books = books;
  }

  /** What `load` gives, loaded once per view under `key`. */
  protected once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let found = this.loaded.get(key) as Promise<T> | undefined;
    if (found === undefined) {
      found = load();
      this.loaded.set(key, found);
    }
    return found;
  }

  all<T extends keyof NativeOf>(type: T): Promise<NativeOf[T][]> {
    return this.once(`all:${type}`, () => this.books.all(type));
  }

  /** The live records of these types by SANDBOX id (the chart for account codes, the contacts for names). */
  byId<T extends keyof NativeOf>(...types: T[]): Promise<Map<string, NativeOf[T]>> {
    return this.once(`byId:${types.join(',')}`, async () => {
      const records = new Map<string, NativeOf[T]>();
      for (const type of types) for (const record of await this.all(type)) records.set(record.Id, record);
      return records;
    });
  }

  /** Deleted records of a type, each as the last version SANDBOX had (its collection's native shape). */
  deleted<T extends keyof NativeOf>(type: T): Promise<{ record: NativeOf[T]; deletedAt: string }[]> {
    return this.once(`deleted:${type}`, async () =>
      (await this.books.deleted(type)).map((d: DeletedRecord) => ({ record: d.record as NativeOf[T], deletedAt: d.deletedAt })),
    );
  }

  /** Every record of these types as a platform lists them: each type's live records, then its deleted ones with their deletion time. */
  async withDeleted<T extends keyof NativeOf, R>(
    types: readonly T[],
    render: (record: NativeOf[T], deletedAt: string | null) => Promise<R[]>,
  ): Promise<R[]> {
    const out: R[] = [];
    for (const type of types) {
      for (const record of await this.all(type)) out.push(...(await render(record, null)));
      for (const gone of await this.deleted(type)) out.push(...(await render(gone.record, gone.deletedAt)));
    }
    return out;
  }
}
