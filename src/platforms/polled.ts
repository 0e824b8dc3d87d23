/**
 * Platforms that call us (docs/connectors.md, "Platforms that call us"). QuickBooks Desktop runs on the customer's
 * machine behind no address we can reach: Intuit's Web Connector, installed beside it, calls our SOAP endpoint every
 * few minutes, asks for work (`sendRequestXML`) and hands back the company file's answers (`receiveResponseXML`).
 *
 * A connector of such a platform reads and writes as every connector does (ObjectHandler.read, create, …), but every
 * platform call goes through `ctx.polled.exchange(key, build)`: the request is queued for the connection in
 * PostgreSQL (polled_requests, migration 0041), the job gives its worker back (AnswerPending: a sync run waits like a
 * bulk export, a write job like a platform pause), and the answer, once the platform sent it, wakes the job, whose
 * next attempt finds it under the same key. So runs, pages, change detection, jobs and webhooks are the ones every
 * other connector has.
 */

/** What the .qwc file the end user adds to the Web Connector says (Intuit's QBWC programmer's guide, "QWC file"). */
export interface WebConnectorFile {
  /** Shown in the Web Connector's list (AppName); one per connection, so it names the product. */
  appName: string;
  appDescription: string;
  /** QBFS: QuickBooks Financial Software; QBPOS: Point of Sale. */
  qbType: 'QBFS' | 'QBPOS';
  /** How often the Web Connector calls when the end user turns automatic runs on (Scheduler/RunEveryNMinutes). */
  runEveryMinutes: number;
  /** Read only (no writes), asked in the Web Connector's consent dialog (IsReadOnly). */
  readOnly?: boolean;
}

/** Declared on a Connector whose platform calls us. */
export interface PolledPlatform {
  /** The client that calls: Intuit's Web Connector (SOAP, namespace http://developer.intuit.com/). */
  client: 'web-connector';
  file: WebConnectorFile;
  /**
   * How long a waiting job sleeps before it looks for its answer on its own (the answer wakes it at once; this only
   * covers a wake-up that was lost). Default 60 s.
   */
  answerCheckMs?: number;
}

/** A platform call of one job through the connection's queue (ConnectorContext.polled). */
export interface PolledExchange {
  /**
   * The platform's answer to a request, once the platform called for it and answered. The first call queues the
   * request (`build` is given the request's id, to put in the request wherever the platform honours one, so that a
   * request issued again after a lost answer is not applied twice) and throws AnswerPending. `key` names the request
   * within the job (the read's object and page, a write's operation): the job's next attempt, after a restart too,
   * finds the same request. An answer the platform marked as an error throws a PlatformError and is forgotten, so the
   * job's retry asks again.
   */
  exchange(key: string, build: (requestId: string) => string): Promise<string>;
}

/** The job's request waits for the platform to call: the job is put back without a worker (not a failure). */
export class AnswerPending extends Error {
  readonly requestId: string;
  readonly retryAfterMs: number;
  constructor(requestId: string, retryAfterMs: number) {
    super(`request ${requestId} waits for the platform to call`);
    this.name = 'AnswerPending';
    this.requestId = requestId;
    this.retryAfterMs = retryAfterMs;
  }
}

export const DEFAULT_ANSWER_CHECK_MS = 60_000;

/** The exchange outside any job (the link flow's identify): nothing can wait there. */
export const NO_EXCHANGE: PolledExchange = {
  exchange() {
    return Promise.reject(new Error('a platform that calls us is only reached from a sync run or a write job'));
  },
};
