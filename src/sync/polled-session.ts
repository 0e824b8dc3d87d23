/**
 * A Web Connector session (src/platforms/polled.ts): the platform authenticates with the connection's user name and
 * password, takes the connection's queued requests one at a time and hands back each answer, which wakes the sync run
 * or write job that waits on it. Every step is a statement on PostgreSQL (tickets, the queue): no session state lives in
 * a process, so each call of a session may reach another API process.
 *
 * The answers follow the QBWC programmer's guide: authenticate returns [ticket, ""] when there is work, [ticket,
 * "none"] when there is none and ["", "nvu"] for a wrong user or password; sendRequestXML returns the request or "" (then
 * getLastError says "NoOp" while a job may still queue one, and the Web Connector asks again 5 seconds later);
 * receiveResponseXML returns how much is done in percent (100: the session ends) or a negative number on error.
 */
import { randomBytes } from 'node:crypto';
import type { CoreServices } from '../core-services.ts';
import { secretMatches, sha256 } from '../crypto/secrets.ts';
import { withTransaction } from '../db/pool.ts';
import { getConnector } from '../platforms/index.ts';
import { QUEUES } from '../queue/names.ts';
import { answerPolledRequest } from '../sql/answer-polled-request.ts';
import { claimPolledRequest } from '../sql/claim-polled-request.ts';
import { closePolledTicket } from '../sql/close-polled-ticket.ts';
import { markIndeterminate } from '../sql/write-jobs.ts';
import { findPolledEndpointByUsername } from '../sql/find-polled-endpoint.ts';
import { type PolledTicket, touchPolledTicket } from '../sql/find-polled-ticket.ts';
import { openPolledTicket } from '../sql/open-polled-ticket.ts';
import { polledWorkLeft } from '../sql/polled-work-left.ts';
import { setPolledTicketError } from '../sql/set-polled-ticket-error.ts';
import type { PolledWaiter } from '../sql/queue-polled-request.ts';

/** A session lives this long after its last call: the Web Connector calls every few seconds while it works. */
export const TICKET_SECONDS = 15 * 60;

/** What getLastError says while a job may still queue a request: the Web Connector waits 5 s and asks again. */
export const NO_OP = 'NoOp';
export const UNKNOWN_TICKET = 'Unknown or expired ticket: the Web Connector must authenticate again.';
const NOTHING_OUTSTANDING = 'No request was outstanding for this session.';
const DONE = 'No more requests.';

type Services = Pick<CoreServices, 'pool' | 'jobs' | 'log'>;

const ticketKey = (ticket: string): Buffer => sha256(ticket);

/** The ids every log line of a session carries. */
const sessionIds = (session: PolledTicket): { organization_id: string; connection_id: string } => ({
  organization_id: session.organizationId,
  connection_id: session.connectionId,
});

/** authenticate(strUserName, strPassword). */
export async function authenticate(services: Services, username: string, password: string): Promise<string[]> {
  const endpoint = username === '' ? null : await findPolledEndpointByUsername(services.pool, username);
  const platform = endpoint?.platform ?? null;
  const connector = platform === null ? undefined : getConnector(platform);
  // Same answer for an unknown user and a wrong password; a disabled connection is not served either.
  if (endpoint === null || connector?.polled === undefined || endpoint.status === 'disabled' || !secretMatches(password, endpoint.passwordSha256)) {
    services.log.info({ web_connector: { username } }, 'web connector refused: unknown user or wrong password');
    return ['', 'nvu'];
  }
  const ticket = randomBytes(32).toString('base64url');
  await withTransaction(services.pool, (db) => openPolledTicket(db, ticketKey(ticket), endpoint.connectionId, TICKET_SECONDS));
  const work = await polledWorkLeft(services.pool, endpoint.connectionId);
  services.log.info(
    {
      organization_id: endpoint.organizationId,
      connection_id: endpoint.connectionId,
      web_connector: { waiting: work.waiting, open_jobs: work.openJobs },
    },
    'web connector session opened',
  );
  // "": work to do in the company file open now; "none": nothing, the Web Connector closes the session.
  return [ticket, work.waiting > 0 || work.openJobs > 0 ? '' : 'none'];
}

/** sendRequestXML(ticket, …): the next queued request of the connection, or "". */
export async function sendRequest(services: Services, ticket: string): Promise<string> {
  const key = ticketKey(ticket);
  const session = await touchPolledTicket(services.pool, key, TICKET_SECONDS);
  if (session === null) return '';
  const claimed = await withTransaction(services.pool, async (db) => {
    const request = await claimPolledRequest(db, session.connectionId, key);
    // Once the platform has a write, it may apply it: syncs wait for the write to record its outcome
    // (findUnresolvedWrite), so a page read after it never announces the written record without the write's job_id.
    const writeJobId = request?.writeJobId ?? null;
    if (writeJobId !== null) await markIndeterminate(db, writeJobId);
    return request;
  });
  if (claimed !== null) {
    await setPolledTicketError(services.pool, key, '');
    services.log.info(
      {
        ...sessionIds(session),
        polled_request_id: claimed.id,
        sync_run_id: claimed.syncRunId ?? undefined,
        job_id: claimed.writeJobId ?? undefined,
        issued: claimed.issued,
      },
      claimed.issued > 1 ? 'polled request issued again' : 'polled request issued',
    );
    return claimed.body;
  }
  const work = await polledWorkLeft(services.pool, session.connectionId);
  await setPolledTicketError(services.pool, key, work.openJobs > 0 ? NO_OP : DONE);
  return '';
}

/** receiveResponseXML(ticket, response, hresult, message): records the answer, wakes its job, says how far the work is. */
export async function receiveResponse(
  services: Services,
  ticket: string,
  answer: { response: string; hresult: string; message: string },
): Promise<number> {
  const key = ticketKey(ticket);
  const session = await touchPolledTicket(services.pool, key, TICKET_SECONDS);
  if (session === null) return -1;
  const failed = answer.hresult !== '';
  const outcome = failed ? { error: `${answer.hresult}: ${answer.message}` } : { answer: answer.response };
  const answered = await withTransaction(services.pool, async (db) => {
    const found = await answerPolledRequest(db, key, outcome);
    // The job wakes with its answer committed: never before it, never without it.
    if (found !== null) await wake(services, db, session.connectionId, found.waiter);
    return found;
  });
  if (answered === null) {
    services.log.warn(sessionIds(session), 'web connector answered, but no request of its session was outstanding');
    await setPolledTicketError(services.pool, key, NOTHING_OUTSTANDING);
    return -1;
  }
  services.log.info(
    {
      ...sessionIds(session),
      polled_request_id: answered.id,
      ...('syncRunId' in answered.waiter ? { sync_run_id: answered.waiter.syncRunId } : { job_id: answered.waiter.writeJobId }),
      ...(failed ? { web_connector: { hresult: answer.hresult, message: answer.message } } : {}),
    },
    failed ? 'polled request failed in the company file' : 'polled request answered',
  );
  if (failed) {
    await setPolledTicketError(services.pool, key, answer.message === '' ? answer.hresult : answer.message);
    return -1;
  }
  return percentDone(await polledWorkLeft(services.pool, session.connectionId));
}

function percentDone(work: { waiting: number; answered: number; openJobs: number }): number {
  if (work.waiting === 0 && work.openJobs === 0) return 100;
  // Jobs still running may queue more: never 100 while they do, and the share answered so far otherwise.
  return Math.min(99, Math.floor((work.answered * 100) / (work.answered + work.waiting + 1)));
}

async function wake(services: Services, db: Parameters<CoreServices['jobs']['send']>[3], connectionId: string, waiter: PolledWaiter): Promise<void> {
  if ('syncRunId' in waiter) await services.jobs.send(QUEUES.sync, { syncRunId: waiter.syncRunId, connectionId }, {}, db);
  else await services.jobs.send(QUEUES.write, { jobId: waiter.writeJobId }, {}, db);
}

/** getLastError(ticket). */
export async function lastError(services: Services, ticket: string): Promise<string> {
  const session = await touchPolledTicket(services.pool, ticketKey(ticket), TICKET_SECONDS);
  if (session === null) return UNKNOWN_TICKET;
  return session.lastError === '' ? NO_OP : session.lastError;
}

/** connectionError(ticket, hresult, message): the Web Connector could not open the company file; the session ends. */
export async function connectionError(services: Services, ticket: string, hresult: string, message: string): Promise<string> {
  const key = ticketKey(ticket);
  const session = await touchPolledTicket(services.pool, key, TICKET_SECONDS);
  if (session !== null) {
    services.log.warn({ ...sessionIds(session), web_connector: { hresult, message } }, 'web connector could not reach the company file');
    await closePolledTicket(services.pool, key);
  }
  return 'done';
}

/** closeConnection(ticket): a request sent but not answered in this session goes to the next one. */
export async function closeSession(services: Services, ticket: string): Promise<string> {
  const key = ticketKey(ticket);
  const session = await touchPolledTicket(services.pool, key, TICKET_SECONDS);
  if (session === null) return UNKNOWN_TICKET;
  await closePolledTicket(services.pool, key);
  return 'OK';
}
