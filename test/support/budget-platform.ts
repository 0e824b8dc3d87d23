/**
 * A platform with a small daily budget, reached over real HTTP, for tests of the limits every process shares: its
 * stand-in runs in the test process and counts every call it receives, with the process that sent it; worker
 * processes load the connector with `--import` of budget-platform-register.ts (budgetWorkerEnv) and find the
 * stand-in at BUDGET_PLATFORM_URL. Accounts are listed one per page, so a sync makes one call per account.
 * No vitest here: worker processes import it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Connector, ConnectorContext, PlatformRecord } from '../../src/platforms/connector.ts';
import { getConnector, registerConnector } from '../../src/platforms/registry.ts';

export const BUDGET_PLATFORM = 'BUDGETBOOKS';
export const BUDGET_DAILY_CALLS = 12;
export const BUDGET_ACCOUNTS = 20;

function standInUrl(): string {
  const url = process.env.BUDGET_PLATFORM_URL;
  if (url === undefined || url === '') throw new Error('BUDGET_PLATFORM_URL is not set');
  return url;
}

interface StandInAccount {
  Id: string;
  Name: string;
}

function isAccount(value: unknown): value is StandInAccount {
  return (
    typeof value === 'object' && value !== null && 'Id' in value && typeof value.Id === 'string' && 'Name' in value && typeof value.Name === 'string'
  );
}

function recordOf(account: StandInAccount): PlatformRecord {
  return { platformId: account.Id, raw: { Id: account.Id, Name: account.Name } };
}

/** Every call says which process sent it, so a test can tell the processes that called apart. */
const callerHeaders = (): Record<string, string> => ({ 'x-caller-pid': String(process.pid) });

async function listAccounts(ctx: ConnectorContext, pageToken: string | null): Promise<{ records: PlatformRecord[]; nextPageToken: string | null }> {
  const response = await ctx.http.request({
    method: 'GET',
    url: `${standInUrl()}/accounts`,
    query: { page: pageToken ?? '0' },
    idempotent: true,
    operation: 'list accounts',
    headers: callerHeaders(),
  });
  const body = response.body;
  if (typeof body !== 'object' || body === null || !('Accounts' in body) || !Array.isArray(body.Accounts) || !('NextPage' in body)) {
    throw new Error('the budget stand-in answered without Accounts and NextPage');
  }
  const accounts: unknown[] = body.Accounts;
  return { records: accounts.filter(isAccount).map(recordOf), nextPageToken: typeof body.NextPage === 'number' ? String(body.NextPage) : null };
}

export const budgetConnector: Connector = {
  id: BUDGET_PLATFORM,
  name: 'Budget Books',
  kind: 'accounting',
  auth: { type: 'credentials', fields: [{ field: 'api_key', label: 'API key', required: true, secret: true }] },
  identify: (ctx) => Promise.resolve({ storeUniqueId: `budget-${ctx.credentials.api_key ?? ''}`, storeName: 'Budget Books' }),
  objects: {
    account: {
      capabilities: {
        read: true,
        incremental: 'none',
        deletions: 'full_listing',
        filter: true,
        fetchByPlatformId: true,
        create: true,
        update: false,
        delete: false,
      },
      handler: {
        read: (ctx, request) => listAccounts(ctx, request.pageToken),
        map: (record) => ({ platform_id: record.platformId, name: record.raw.Name, account_type: 'bank' }),
        async create(ctx, input) {
          const response = await ctx.http.request({
            method: 'POST',
            url: `${standInUrl()}/accounts`,
            body: { Name: input.name },
            idempotent: false,
            operation: 'create account',
            headers: callerHeaders(),
          });
          if (!isAccount(response.body)) throw new Error('the budget stand-in answered a create without the account');
          return recordOf(response.body);
        },
      },
    },
  },
  limits: { requestsPerMinute: null, concurrentRequests: 2, dailyRequests: BUDGET_DAILY_CALLS },
};

export function registerBudgetConnector(): void {
  if (getConnector(BUDGET_PLATFORM) === undefined) registerConnector(budgetConnector);
}

/** Environment of a worker process that knows the budget platform and calls the stand-in at `url`. */
export function budgetWorkerEnv(url: string): Record<string, string> {
  return { BUDGET_PLATFORM_URL: url, NODE_OPTIONS: `--import ${new URL('./budget-platform-register.ts', import.meta.url).href}` };
}

export interface BudgetStandIn {
  url: string;
  /** Every call received, in order, with the process id the caller sent. */
  calls: { method: string; path: string; callerPid: string }[];
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return chunks.length === 0 ? null : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export async function startBudgetStandIn(): Promise<BudgetStandIn> {
  const calls: BudgetStandIn['calls'] = [];
  let created = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    calls.push({ method: req.method ?? '', path: url.pathname, callerPid: String(req.headers['x-caller-pid'] ?? '') });
    if (req.method === 'GET' && url.pathname === '/accounts') {
      const page = Number(url.searchParams.get('page') ?? '0');
      answer(res, 200, { Accounts: [{ Id: `A${page}`, Name: `Account ${page}` }], NextPage: page + 1 < BUDGET_ACCOUNTS ? page + 1 : null });
      return;
    }
    if (req.method === 'POST' && url.pathname === '/accounts') {
      bodyOf(req).then(
        (body) => {
          created += 1;
          const name = typeof body === 'object' && body !== null && 'Name' in body ? String(body.Name) : '';
          answer(res, 200, { Id: `N${created}`, Name: name });
        },
        () => {
          answer(res, 400, { Message: 'unreadable body' });
        },
      );
      return;
    }
    answer(res, 404, { Message: 'no such endpoint' });
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
      }),
  };
}
