/**
 * Platforms that call us, end to end with DESKBOOKS (connector.ts beside this file) through the real service on a real
 * PostgreSQL, with the sync and write workers and the webhook dispatcher running: a connection linked through the link
 * flow hands out its .qwc file and password; a Web Connector session (desktop.ts, driving POST /web-connector over
 * SOAP as Intuit's does) takes the initial sync's requests page by page and the run completes; the customers are served
 * by the API; a change answered on a later session becomes CUSTOMER_UPDATED; a write is queued and applied on the next
 * session. Also: a wrong password, an unknown ticket, a session that stops half-way (its request is issued again),
 * malformed SOAP, and another organisation's connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenOf } from '../../../src/connections/connections.ts';
import { runMaintenance } from '../../../src/jobs/queues.ts';
import { buildApp } from '../../../src/app.ts';
import type { CreatedOrganization } from '../../../src/tenants/organizations.ts';
import { isRecord } from '../../../src/platforms/json.ts';
import { getConnector, registerConnector } from '../../../src/platforms/registry.ts';
import { parseXml } from '../../../src/platforms/xml.ts';
import { findConnectionForService } from '../../../src/sql/connections.ts';
import { requestSync } from '../../../src/sync/requests.ts';
import { startSyncWorkers } from '../../../src/sync/worker.ts';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../../src/webhooks/dispatcher.ts';
import { startWriteWorkers } from '../../../src/writes/worker.ts';
import { clientHeaders, json, startTestApp, type TestApp } from '../../support/app.ts';
import { csrfOf, LinkBrowser } from '../../support/link-browser.ts';
import { capturedLog } from '../../support/captured-log.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';
import { DESKBOOKS, deskbooksConnector } from './connector.ts';
import { DeskBooksCompany, soapCall, WebConnector } from './desktop.ts';

type Json = Record<string, unknown>;

let t: TestApp;
let receiver: WebhookReceiver;
let dispatcher: WebhookDispatcher | null = null;
const logged = capturedLog({ level: 'info' });

beforeAll(async () => {
  if (getConnector(DESKBOOKS) === undefined) registerConnector(deskbooksConnector);
  t = await startTestApp({ config: { rateLimit: { limit: 100_000, windowSeconds: 10 }, webhookAllowPrivate: true }, log: logged.log });
  receiver = new WebhookReceiver();
  const url = await receiver.listen(t.org.credentials.sandbox.client_secret);
  await t.db.pool.query('INSERT INTO webhook_endpoints (organization_id, environment, url) VALUES ($1, $2, $3)', [
    t.org.organization.id,
    'sandbox',
    url,
  ]);
  await startSyncWorkers(t.boss, t.services, { concurrency: 2 });
  await startWriteWorkers(t.boss, t.services, { concurrency: 1 });
  dispatcher = startWebhookDispatcher(t.services, { pollMs: 50 });
}, 120_000);
afterAll(async () => {
  await dispatcher?.stop();
  await receiver.close();
  await t.close();
});

const count = async (sql: string, params: unknown[] = []) => Number((await t.db.pool.query<{ n: string }>(sql, params)).rows[0]?.n);

async function until<T>(find: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('not in time');
    await new Promise((done) => setTimeout(done, 100));
  }
}

interface Linked {
  id: string;
  username: string;
  password: string;
  token: string;
  qwc: Json;
}

/** A DESKBOOKS connection linked through the link flow, with what its page handed out. */
async function link(org: CreatedOrganization = t.org): Promise<Linked> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/versioned/connections/create',
    headers: clientHeaders(org),
    payload: { platform: DESKBOOKS },
  });
  expect(created.statusCode, created.body).toBe(200);
  const connection = json(created).connection as { id: string; link_url: string };
  const linkUrl = new URL(connection.link_url);
  const linkPath = `${linkUrl.pathname}/${DESKBOOKS}`;
  const browser = new LinkBrowser(t.app);
  const form = await browser.get(linkPath);
  expect(form.statusCode, form.body).toBe(200);
  const done = await browser.post(linkPath, { csrf: csrfOf(form.body) });
  expect(done.statusCode, done.body).toBe(200);
  const password = /<code data-password>([^<]+)<\/code>/.exec(done.body)?.[1];
  const qwcHref = /href="([^"]+web-connector\.qwc)"/.exec(done.body)?.[1];
  expect(done.body).toMatch(/href="[^"]*public_token=/);
  if (password === undefined || qwcHref === undefined) throw new Error(`no password or file on the page:\n${done.body}`);
  const file = await t.app.inject({ method: 'GET', url: qwcHref });
  expect(file.statusCode).toBe(200);
  expect(file.headers['content-disposition']).toContain('web-connector.qwc');
  const parsed = parseXml(file.body);
  const qwc = isRecord(parsed) && isRecord(parsed.QBWCXML) ? parsed.QBWCXML : {};
  const stored = await findConnectionForService(t.db.pool, connection.id);
  if (stored === null) throw new Error('connection not stored');
  return { id: connection.id, username: String(qwc.UserName), password, token: accessTokenOf(t.services.cipher, stored), qwc };
}

async function runStatus(connectionId: string): Promise<string[]> {
  const { rows } = await t.db.pool.query<{ status: string }>('SELECT status FROM sync_runs WHERE connection_id = $1 ORDER BY created_at', [
    connectionId,
  ]);
  return rows.map((row) => row.status);
}

const allRunsDone = (connectionId: string) => until(async () => ((await runStatus(connectionId)).every((s) => s === 'completed') ? true : undefined));

async function customers(linked: Linked): Promise<Json[]> {
  const answer = await t.app.inject({
    method: 'GET',
    url: `/versioned/accounting/customers?access_token=${linked.token}&limit=50`,
    headers: clientHeaders(t.org),
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return json(answer).customers as Json[];
}

describe('platforms that call us: DESKBOOKS through the Web Connector', () => {
  let main: Linked;
  const company = new DeskBooksCompany();

  it('links, hands out the .qwc file and its password, and syncs when the Web Connector calls', async () => {
    for (const name of ['Acme Ltd', 'Birch & Co', 'Cedar Inc', 'Dune LLC', 'Elm GmbH'])
      company.add(name, `${name.split(' ')[0]?.toLowerCase()}@example.com`);
    main = await link();
    expect(main.qwc).toMatchObject({
      AppName: 'Ledgerport (DeskBooks)',
      AppURL: `${t.services.config.publicUrl}/web-connector`,
      QBType: 'QBFS',
      Scheduler: { RunEveryNMinutes: '15' },
    });
    expect(String(main.qwc.OwnerID)).toMatch(/^\{[0-9A-F-]{36}\}$/);
    expect(String(main.qwc.FileID)).toMatch(/^\{[0-9A-F-]{36}\}$/);
    // The password is kept as its SHA-256 only.
    const endpoint = await t.db.pool.query<{ password_sha256: Buffer }>('SELECT password_sha256 FROM polled_endpoints WHERE connection_id = $1', [
      main.id,
    ]);
    expect(endpoint.rows[0]?.password_sha256.toString('utf8')).not.toContain(main.password);
    const linked = await t.db.pool.query('SELECT platform, store_unique_id, linked_at FROM connections WHERE id = $1', [main.id]);
    expect(linked.rows[0]).toMatchObject({ platform: DESKBOOKS, store_unique_id: `deskbooks:${main.id}` });

    const session = await new WebConnector(t.app, main.username, main.password, company).run();
    expect(session.authenticate[1]).toBe('');
    // Five customers, two a page: three pages, each a request answered in this one session.
    expect(session.requests).toHaveLength(3);
    expect(session.requests[0]).toContain('<CustomerQueryRq');
    expect(session.requests[1]).toContain('iterator="Continue"');
    expect(session.closed).toBe('OK');
    await allRunsDone(main.id);
    const served = await customers(main);
    expect(served.map((c) => c.customer_name).sort()).toEqual(['Acme Ltd', 'Birch & Co', 'Cedar Inc', 'Dune LLC', 'Elm GmbH']);
    expect(served.find((c) => c.customer_name === 'Acme Ltd')).toMatchObject({ email: 'acme@example.com', status: 'active' });
    // None waits; the answers of the run, now over, go with the maintenance job.
    expect(await count(`SELECT count(*) AS n FROM polled_requests WHERE connection_id = $1 AND status IN ('pending', 'sent')`, [main.id])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM polled_requests WHERE connection_id = $1 AND status = 'answered'`, [main.id])).toBe(3);
    // Every line of the session says whose it is: the organisation and connection, and per request its run.
    const ids = { organization_id: t.org.organization.id, connection_id: main.id };
    expect(logged.withMessage('web connector session opened').filter((line) => line.connection_id === main.id)).toHaveLength(1);
    for (const message of ['web connector session opened', 'polled request issued', 'polled request answered'])
      for (const line of logged.withMessage(message)) expect(line, message).toMatchObject(ids);
    const issued = logged.withMessage('polled request issued');
    const answered = logged.withMessage('polled request answered');
    expect([issued.length, answered.length]).toEqual([3, 3]);
    const run = await t.db.pool.query<{ id: string }>(`SELECT id FROM sync_runs WHERE connection_id = $1 AND kind = 'initial'`, [main.id]);
    for (const line of [...issued, ...answered]) {
      expect(line.sync_run_id).toBe(run.rows[0]?.id);
      expect(line.polled_request_id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect((await runMaintenance(t.services)).polledRequestsPruned).toBeGreaterThanOrEqual(3);
    expect(await count(`SELECT count(*) AS n FROM polled_requests WHERE connection_id = $1`, [main.id])).toBe(0);
  }, 90_000);

  it('serves one session from two API processes, call by call', async () => {
    // A second API process over the same database: nothing of a session lives in a process.
    const second = await buildApp(t.services, { logger: false });
    try {
      const dune = [...company.customers.values()].find((c) => c.Name === 'Dune LLC');
      if (dune === undefined) throw new Error('no Dune');
      company.edit(dune.ListID, (c) => {
        c.Email = 'hello@dune.example.com';
      });
      await requestSync(t.db.pool, t.services.jobs, main.id, { kind: 'incremental', trigger: 'api', details: {} });
      const session = await new WebConnector([t.app, second], main.username, main.password, company).run();
      expect(session.requests).toHaveLength(1);
      expect(session.closed).toBe('OK');
      await allRunsDone(main.id);
      expect((await customers(main)).find((c) => c.customer_name === 'Dune LLC')).toMatchObject({ email: 'hello@dune.example.com' });
    } finally {
      await second.close();
    }
  }, 60_000);

  it('says "none" when there is nothing to do', async () => {
    const session = await new WebConnector(t.app, main.username, main.password, company).run();
    expect(session.authenticate[1]).toBe('none');
    expect(session.requests).toHaveLength(0);
    expect(session.closed).toBe('OK');
  });

  it('detects a change on a later session and sends CUSTOMER_UPDATED', async () => {
    const acme = [...company.customers.values()].find((c) => c.Name === 'Acme Ltd');
    if (acme === undefined) throw new Error('no Acme');
    company.edit(acme.ListID, (c) => {
      c.Name = 'Acme Holdings Ltd';
    });
    await requestSync(t.db.pool, t.services.jobs, main.id, { kind: 'incremental', trigger: 'api', details: {} });
    const session = await new WebConnector(t.app, main.username, main.password, company).run();
    // One request, from the last read's cursor: only the changed customer comes back.
    expect(session.requests).toHaveLength(1);
    expect(session.requests[0]).toContain('<FromModifiedDate>');
    await allRunsDone(main.id);
    const event = await until(() =>
      receiver.bodies.find((b) => b.code === 'CUSTOMER_UPDATED' && (b.customer as Json | undefined)?.platform_id === acme.ListID),
    );
    expect(event).toMatchObject({ connection_id: main.id, customer: { customer_name: 'Acme Holdings Ltd' } });
    expect(
      receiver.bodies.filter((b) => b.code === 'CUSTOMER_UPDATED' && (b.customer as Json | undefined)?.platform_id === acme.ListID),
    ).toHaveLength(1);
  }, 60_000);

  it('queues a write and applies it on the next session', async () => {
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/versioned/accounting/customers?access_token=${main.token}`,
      headers: clientHeaders(t.org),
      payload: { customer: { customer_name: 'Fig Partners', email: 'fig@example.com' }, response_mode: 'async' },
    });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const jobId = String(accepted.headers['x-service-job-id']);
    // The job waits for the program: its request is queued, nothing is on the platform yet.
    await until(async () => ((await count(`SELECT count(*) AS n FROM polled_requests WHERE write_job_id = $1`, [jobId])) === 1 ? true : undefined));
    expect([...company.customers.values()].some((c) => c.Name === 'Fig Partners')).toBe(false);
    // …and the job gave its worker back (the attempt that queued the request is over a moment after it queued it).
    const pending = await until(async () => {
      const { rows } = await t.db.pool.query<{ status: string }>('SELECT status FROM write_jobs WHERE id = $1', [jobId]);
      return rows[0]?.status === 'in_progress' ? undefined : rows[0]?.status;
    });
    expect(pending).toBe('pending');

    const session = await new WebConnector(t.app, main.username, main.password, company).run();
    // The add, then the write's follow-up sync (records a write touched on the side), in the same session.
    expect(session.requests[0]).toContain('<CustomerAddRq');
    expect(session.requests.slice(1).every((request) => request.includes('<CustomerQueryRq'))).toBe(true);
    const done = await until(async () => {
      const { rows } = await t.db.pool.query<{ status: string }>('SELECT status FROM write_jobs WHERE id = $1', [jobId]);
      return rows[0]?.status === 'completed' ? rows[0] : undefined;
    });
    expect(done.status).toBe('completed');
    expect([...company.customers.values()].filter((c) => c.Name === 'Fig Partners')).toHaveLength(1);
    expect((await customers(main)).some((c) => c.customer_name === 'Fig Partners')).toBe(true);
    const created = await until(() =>
      receiver.bodies.find((b) => b.code === 'CUSTOMER_CREATED' && (b.customer as Json | undefined)?.customer_name === 'Fig Partners'),
    );
    expect(created).toMatchObject({ connection_id: main.id, job_id: jobId });
    // The follow-up sync read the new customer too, in the same session (it is requested in the transaction that
    // completes the write job, so the session never hears the work is done before it), and announced it no second time.
    await allRunsDone(main.id);
    const fig = (b: Json) => (b.customer as Json | undefined)?.customer_name === 'Fig Partners';
    expect(receiver.bodies.filter((b) => fig(b) && b.code === 'CUSTOMER_CREATED')).toHaveLength(1);
  }, 60_000);

  it('issues a request again when a session stops between sendRequestXML and receiveResponseXML', async () => {
    const birch = [...company.customers.values()].find((c) => c.Name === 'Birch & Co');
    if (birch === undefined) throw new Error('no Birch');
    company.edit(birch.ListID, (c) => {
      c.Email = 'accounts@birch.example.com';
    });
    await requestSync(t.db.pool, t.services.jobs, main.id, { kind: 'incremental', trigger: 'api', details: {} });
    const crashed = await new WebConnector(t.app, main.username, main.password, company).run({ crashAfterRequests: 1 });
    expect(crashed.requests).toHaveLength(1);
    expect(await count(`SELECT count(*) AS n FROM polled_requests WHERE connection_id = $1 AND status = 'sent'`, [main.id])).toBe(1);
    const next = await new WebConnector(t.app, main.username, main.password, company).run();
    // The same request, with the same request id, handed out again; answered once.
    expect(next.requests[0]).toBe(crashed.requests[0]);
    expect(await count(`SELECT count(*) AS n FROM polled_requests WHERE connection_id = $1 AND issued = 2 AND status = 'answered'`, [main.id])).toBe(
      1,
    );
    await allRunsDone(main.id);
    expect((await customers(main)).find((c) => c.customer_name === 'Birch & Co')).toMatchObject({ email: 'accounts@birch.example.com' });
  }, 60_000);

  it('refuses a wrong password and an unknown user alike, and opens no session', async () => {
    const before = await count('SELECT count(*) AS n FROM polled_tickets');
    for (const [user, password] of [
      [main.username, 'wrong-password'],
      [main.username, ''],
      ['lp-nobody', main.password],
    ] as const) {
      const answer = await soapCall(t.app, 'authenticate', { strUserName: user, strPassword: password });
      expect(answer.status).toBe(200);
      expect(isRecord(answer.result) ? answer.result.string : null).toEqual(['', 'nvu']);
    }
    expect(await count('SELECT count(*) AS n FROM polled_tickets')).toBe(before);
  });

  it('answers an unknown ticket without touching any request', async () => {
    await requestSync(t.db.pool, t.services.jobs, main.id, { kind: 'incremental', trigger: 'api', details: {} });
    await until(async () =>
      (await count(`SELECT count(*) AS n FROM polled_requests WHERE connection_id = $1 AND status = 'pending'`, [main.id])) === 1 ? true : undefined,
    );
    const ticket = 'not-a-ticket';
    expect(
      (
        await soapCall(t.app, 'sendRequestXML', {
          ticket,
          strHCPResponse: '',
          strCompanyFileName: '',
          qbXMLCountry: 'US',
          qbXMLMajorVers: '13',
          qbXMLMinorVers: '0',
        })
      ).result,
    ).toBe('');
    expect((await soapCall(t.app, 'receiveResponseXML', { ticket, response: company.answer('<QBXML/>'), hresult: '', message: '' })).result).toBe(
      '-1',
    );
    expect((await soapCall(t.app, 'getLastError', { ticket })).result).toMatch(/Unknown or expired ticket/);
    expect((await soapCall(t.app, 'closeConnection', { ticket })).result).toMatch(/Unknown or expired ticket/);
    expect(await count(`SELECT count(*) AS n FROM polled_requests WHERE connection_id = $1 AND status = 'pending'`, [main.id])).toBe(1);
    // The real Web Connector then takes it.
    const session = await new WebConnector(t.app, main.username, main.password, company).run();
    expect(session.requests).toHaveLength(1);
    await allRunsDone(main.id);
  }, 60_000);

  it('ends the session when the Web Connector cannot open the company file (connectionError)', async () => {
    const auth = await soapCall(t.app, 'authenticate', { strUserName: main.username, strPassword: main.password });
    const [ticket = ''] = isRecord(auth.result) && Array.isArray(auth.result.string) ? auth.result.string.map(String) : [];
    expect(ticket).not.toBe('');
    const answer = await soapCall(t.app, 'connectionError', { ticket, hresult: '0x80040408', message: 'Could not start QuickBooks.' });
    expect(answer.result).toBe('done');
    expect((await soapCall(t.app, 'getLastError', { ticket })).result).toMatch(/Unknown or expired ticket/);
    expect(await count('SELECT count(*) AS n FROM polled_tickets WHERE connection_id = $1', [main.id])).toBe(0);
  });

  it('answers malformed SOAP with a 400 SOAP Fault and changes nothing', async () => {
    const before = await count('SELECT count(*) AS n FROM polled_tickets');
    const send = (payload: string, contentType = 'text/xml') =>
      t.app.inject({ method: 'POST', url: '/web-connector', headers: { 'content-type': contentType }, payload });
    for (const payload of [
      'not xml at all',
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><authenticate>',
      '<Envelope><Body><dropTables/></Body></Envelope>',
      '<Envelope><Body><authenticate><strUserName><nested/></strUserName></authenticate></Body></Envelope>',
      '<Envelope><NoBody/></Envelope>',
      '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><Envelope><Body><authenticate><strUserName>&e;</strUserName></authenticate></Body></Envelope>',
    ]) {
      const answer = await send(payload);
      expect(answer.statusCode, payload).toBe(400);
      expect(answer.headers['content-type']).toContain('text/xml');
      expect(answer.body).toContain('<faultcode>soap:Client</faultcode>');
    }
    expect((await send('{"x":1}', 'application/json')).statusCode).toBe(400);
    expect(await count('SELECT count(*) AS n FROM polled_tickets')).toBe(before);
  });

  it("keeps another organisation's connection apart: its password, its ticket and its requests", async () => {
    const other = await t.newOrg('Other books');
    const theirs = await link(other);
    const theirCompany = new DeskBooksCompany();
    theirCompany.add('Other Co');
    // Our user name with their password (and theirs with ours) is refused.
    for (const [user, password] of [
      [main.username, theirs.password],
      [theirs.username, main.password],
    ] as const) {
      const answer = await soapCall(t.app, 'authenticate', { strUserName: user, strPassword: password });
      expect(isRecord(answer.result) ? answer.result.string : null).toEqual(['', 'nvu']);
    }
    // Their session serves their initial sync only; ours sees none of it.
    const ours = await new WebConnector(t.app, main.username, main.password, company).run();
    expect(ours.requests).toHaveLength(0);
    const session = await new WebConnector(t.app, theirs.username, theirs.password, theirCompany).run();
    expect(session.requests).toHaveLength(1);
    await allRunsDone(theirs.id);
    expect(await count(`SELECT count(*) AS n FROM records WHERE connection_id = $1 AND object_type = 'customer'`, [theirs.id])).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM records WHERE connection_id = $1 AND object_type = 'customer'`, [main.id])).toBe(6);
  }, 60_000);
});
