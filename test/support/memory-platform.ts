/**
 * A platform whose books live in this test process, so sync tests can change
 * them precisely: accounts (undated, no incremental reads, deletions found by
 * full listing) and bills (dated, incremental by a change counter, deletions
 * reported). Pages of 3 records exercise pagination and resume.
 */
import type { Connector, PlatformRecord, ReadPage, ReadRequest } from '../../src/platforms/connector.ts';
import { PlatformError } from '../../src/platforms/errors.ts';
import { getConnector, registerConnector } from '../../src/platforms/registry.ts';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startTestApp, type TestApp } from './app.ts';

export const MEMORY_PLATFORM = 'MEMBOOKS';
const PAGE = 3;

interface Row {
  id: string;
  data: Record<string, unknown>;
  version: number;
  deleted: boolean;
  date: string;
}

export class MemoryBooks {
  accounts = new Map<string, Row>();
  bills = new Map<string, Row>();
  clock = 0;
  reads: { type: string; request: ReadRequest }[] = [];
  /** Throw this once on the next read whose page token equals `atPageToken` (null = first page). */
  failNext: { error: Error; type: string; atPageToken: string | null } | null = null;

  addAccount(id: string, name: string): void {
    this.accounts.set(id, { id, data: { Name: name, Type: 'Bank' }, version: ++this.clock, deleted: false, date: '' });
  }

  addBill(id: string, amount: number, date: string): void {
    this.bills.set(id, { id, data: { Amount: amount, Vendor: 'V1', Note: '' }, version: ++this.clock, deleted: false, date });
  }

  update(map: 'accounts' | 'bills', id: string, patch: Record<string, unknown>): void {
    const row = this[map].get(id);
    if (row === undefined) throw new Error(`no ${id}`);
    row.data = { ...row.data, ...patch };
    row.version = ++this.clock;
  }

  remove(map: 'accounts' | 'bills', id: string): void {
    const row = this[map].get(id);
    if (row === undefined) throw new Error(`no ${id}`);
    if (map === 'accounts') this.accounts.delete(id);
    else {
      row.deleted = true;
      row.version = ++this.clock;
    }
  }

  read(type: 'accounts' | 'bills', request: ReadRequest): ReadPage {
    this.reads.push({ type, request });
    if (this.failNext !== null && this.failNext.type === type && this.failNext.atPageToken === request.pageToken) {
      const { error } = this.failNext;
      this.failNext = null;
      throw error;
    }
    const since = request.since === null ? 0 : Number(request.since);
    const rows = [...this[type].values()]
      .filter((r) => r.version > since && (since > 0 || !r.deleted))
      .filter((r) => request.window === null || r.date === '' || (r.date >= request.window.start && r.date < request.window.end))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const start = request.pageToken === null ? 0 : Number(request.pageToken);
    const slice = rows.slice(start, start + PAGE);
    const records: PlatformRecord[] = slice.map((r) => ({ platformId: r.id, raw: { Id: r.id, ...r.data, Date: r.date }, deleted: r.deleted }));
    const next = start + PAGE < rows.length ? String(start + PAGE) : null;
    return { records, nextPageToken: next, ...(next === null ? { nextSince: String(this.clock) } : {}) };
  }
}

export let books = new MemoryBooks();
export function resetBooks(): MemoryBooks {
  books = new MemoryBooks();
  return books;
}

export const memoryConnector: Connector = {
  id: MEMORY_PLATFORM,
  name: 'Memory Books',
  kind: 'accounting',
  auth: { type: 'credentials', fields: [{ field: 'api_key', label: 'API key', required: true, secret: true }] },
  identify: (ctx) => Promise.resolve({ storeUniqueId: `mem-${ctx.credentials.api_key ?? ''}`, storeName: 'Memory' }),
  objects: {
    account: {
      capabilities: {
        read: true,
        incremental: 'none',
        deletions: 'full_listing',
        filter: true,
        fetchByPlatformId: true,
        create: false,
        update: false,
        delete: false,
      },
      handler: {
        read: (_ctx, request) => Promise.resolve(books.read('accounts', request)),
        map: (record) => ({ platform_id: record.platformId, name: record.raw.Name, account_type: 'bank' }),
      },
    },
    bill: {
      capabilities: {
        read: true,
        incremental: 'cursor',
        deletions: 'reported',
        filter: true,
        fetchByPlatformId: true,
        create: false,
        update: false,
        delete: false,
      },
      handler: {
        read: (_ctx, request) => Promise.resolve(books.read('bills', request)),
        map: (record, ctx) => ({
          platform_id: record.platformId,
          total_amount: record.raw.Amount,
          vendor_id: ctx.ref('vendor', String(record.raw.Vendor)),
          issue_date: record.raw.Date,
        }),
        businessDate: (record) => String(record.raw.Date),
      },
    },
  },
  limits: { requestsPerMinute: null, concurrentRequests: null },
};

export function registerMemoryConnector(): void {
  if (getConnector(MEMORY_PLATFORM) === undefined) registerConnector(memoryConnector);
}

const FAILURE_STATUS = { unauthorized: 401, server: 503, billing: 402 } as const;

export function platformFailure(kind: keyof typeof FAILURE_STATUS, message = 'platform says no'): PlatformError {
  return new PlatformError({ kind, httpStatus: FAILURE_STATUS[kind], message });
}

/**
 * A test app with the memory platform registered, started before the file's tests and closed after them, and fresh
 * books before each test: call at the top of a test file, read the app through the returned function.
 */
export function memoryPlatformApp(): () => TestApp {
  let app: TestApp | null = null;
  beforeAll(async () => {
    registerMemoryConnector();
    // Its objects are a few fields each, enough to drive the sync machinery: not a real mapping to hold to the unified schema.
    app = await startTestApp({ config: { strictMapping: false } });
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => {
    resetBooks();
  });
  return () => {
    if (app === null) throw new Error('the memory platform app starts in beforeAll');
    return app;
  };
}
