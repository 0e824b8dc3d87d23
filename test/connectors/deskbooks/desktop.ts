/**
 * The other end of DESKBOOKS for tests: a desktop company file that answers its qbXML subset, and a Web Connector that
 * drives our SOAP endpoint the way Intuit's does (QBWC programmer's guide): serverVersion, clientVersion, authenticate,
 * then sendRequestXML / receiveResponseXML until 100 percent (waiting and asking again while getLastError says NoOp),
 * and closeConnection. Requests and answers go through the same XML kit as the connector.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isRecord } from '../../../src/platforms/json.ts';
import { buildXml, parseXml } from '../../../src/platforms/xml.ts';

const QBXML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?><?qbxml version="13.0"?>';

export interface DeskCustomer {
  ListID: string;
  Name: string;
  Email?: string;
  IsActive: 'true' | 'false';
  TimeCreated: string;
  TimeModified: string;
}

interface Iterator {
  remaining: DeskCustomer[];
}

/** A company file: customers, the program's iterators, and request ids it has applied (adds are applied once each). */
export class DeskBooksCompany {
  readonly customers = new Map<string, DeskCustomer>();
  readonly iterators = new Map<string, Iterator>();
  readonly applied = new Map<string, string>();
  /** Requests answered, by their root request name. */
  readonly answered: string[] = [];
  private clock = Date.parse('2026-01-01T00:00:00Z');

  private now(): string {
    // Strictly increasing, a second apart: modified times order the records and FromModifiedDate compares them.
    this.clock = Math.max(this.clock + 1000, Date.now());
    return new Date(this.clock).toISOString();
  }

  add(name: string, email?: string): DeskCustomer {
    const at = this.now();
    const customer: DeskCustomer = { ListID: `80000${this.customers.size + 1}-1`, Name: name, IsActive: 'true', TimeCreated: at, TimeModified: at };
    if (email !== undefined) customer.Email = email;
    this.customers.set(customer.ListID, customer);
    return customer;
  }

  edit(id: string, change: (customer: DeskCustomer) => void): void {
    const customer = this.customers.get(id);
    if (customer === undefined) throw new Error(`no customer ${id}`);
    change(customer);
    customer.TimeModified = this.now();
  }

  /** The program's answer to one qbXML request document. */
  answer(request: string): string {
    const parsed = parseXml(request);
    const messages = isRecord(parsed) && isRecord(parsed.QBXML) ? parsed.QBXML.QBXMLMsgsRq : undefined;
    if (!isRecord(messages)) return this.wrap('UnknownRs', { '@_statusCode': '3000', '@_statusMessage': 'not a qbXML request' });
    const [name] = Object.keys(messages).filter((key) => !key.startsWith('@_'));
    const rq = name === undefined ? undefined : messages[name];
    if (!isRecord(rq) || name === undefined) return this.wrap('UnknownRs', { '@_statusCode': '3000', '@_statusMessage': 'no request' });
    this.answered.push(name);
    const requestId = typeof rq['@_requestID'] === 'string' ? rq['@_requestID'] : '';
    if (name === 'CustomerQueryRq') return this.query(rq, requestId);
    if (name === 'CustomerAddRq') {
      const again = this.applied.get(requestId);
      if (again !== undefined) return again;
      const answer = this.addFrom(rq, requestId);
      this.applied.set(requestId, answer);
      return answer;
    }
    return this.wrap(name.replace(/Rq$/, 'Rs'), { '@_requestID': requestId, '@_statusCode': '3250', '@_statusMessage': `${name} is not supported` });
  }

  private wrap(name: string, content: Record<string, unknown>): string {
    return buildXml({ QBXML: { QBXMLMsgsRs: { [name]: content } } }, QBXML_DECLARATION);
  }

  private query(rq: Record<string, unknown>, requestId: string): string {
    const asOf = new Date(this.clock).toISOString();
    let iteratorId: string;
    if (rq['@_iterator'] === 'Continue' && typeof rq['@_iteratorID'] === 'string') {
      iteratorId = rq['@_iteratorID'];
    } else {
      const from = typeof rq.FromModifiedDate === 'string' ? rq.FromModifiedDate : null;
      iteratorId = randomUUID();
      const matching = [...this.customers.values()].filter((c) => from === null || c.TimeModified > from);
      this.iterators.set(iteratorId, { remaining: matching.map((c) => ({ ...c })) });
    }
    const iterator = this.iterators.get(iteratorId);
    if (iterator === undefined)
      return this.wrap('CustomerQueryRs', { '@_requestID': requestId, '@_statusCode': '3170', '@_statusMessage': 'unknown iterator' });
    const max = Number(rq.MaxReturned ?? '100');
    const page = iterator.remaining.splice(0, max);
    return this.wrap('CustomerQueryRs', {
      '@_requestID': requestId,
      '@_statusCode': page.length === 0 ? '1' : '0',
      '@_statusMessage': page.length === 0 ? 'A query request did not find a matching object' : 'Status OK',
      '@_iteratorRemainingCount': String(iterator.remaining.length),
      '@_iteratorID': iteratorId,
      '@_asOf': asOf,
      CustomerRet: page,
    });
  }

  private addFrom(rq: Record<string, unknown>, requestId: string): string {
    const add = isRecord(rq.CustomerAdd) ? rq.CustomerAdd : {};
    const name = typeof add.Name === 'string' ? add.Name : '';
    if (name === '') return this.wrap('CustomerAddRs', { '@_requestID': requestId, '@_statusCode': '3180', '@_statusMessage': 'Name is required' });
    const customer = this.add(name, typeof add.Email === 'string' ? add.Email : undefined);
    return this.wrap('CustomerAddRs', {
      '@_requestID': requestId,
      '@_statusCode': '0',
      '@_statusMessage': 'Status OK',
      CustomerRet: { ...customer },
    });
  }
}

const SOAP_ARRAYS = new Set(['Envelope.Body.authenticateResponse.authenticateResult.string']);

export interface SoapAnswer {
  status: number;
  body: string;
  result: unknown;
}

/** One SOAP call to the endpoint, as the Web Connector sends it (SOAP 1.1, SOAPAction header). */
export async function soapCall(app: FastifyInstance, operation: string, parameters: Record<string, string>): Promise<SoapAnswer> {
  const envelope = buildXml({
    'soap:Envelope': {
      '@_xmlns:soap': 'http://schemas.xmlsoap.org/soap/envelope/',
      'soap:Body': {
        [operation]: {
          '@_xmlns': 'http://developer.intuit.com/',
          ...Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, v === '' ? { '#text': '' } : v])),
        },
      },
    },
  });
  const response = await app.inject({
    method: 'POST',
    url: '/web-connector',
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"http://developer.intuit.com/${operation}"` },
    payload: envelope,
  });
  const parsed = parseXml(response.body, { removeNSPrefix: true, arrays: SOAP_ARRAYS });
  const body = isRecord(parsed) && isRecord(parsed.Envelope) ? parsed.Envelope.Body : undefined;
  const answer = isRecord(body) ? body[`${operation}Response`] : undefined;
  const result = isRecord(answer) ? answer[`${operation}Result`] : undefined;
  return { status: response.statusCode, body: response.body, result };
}

const resultText = (answer: SoapAnswer): string => (typeof answer.result === 'string' ? answer.result : '');

export interface SessionOptions {
  /** Stop (as a crash would: no receiveResponseXML, no closeConnection) right after this many requests were received. */
  crashAfterRequests?: number;
  /** How long the Web Connector waits after a NoOp before asking again (Intuit's is 5 s). */
  noOpWaitMs?: number;
  /** Give up after this many NoOps in a row. */
  maxNoOps?: number;
}

export interface SessionLog {
  authenticate: string[];
  requests: string[];
  percents: number[];
  noOps: number;
  lastError: string | null;
  closed: string | null;
}

/**
 * Intuit's Web Connector, one scheduled run: the session's steps, recorded. Given several API processes (apps over one
 * database), each call goes to the next, as a load balancer may send them.
 */
export class WebConnector {
  private readonly apps: readonly FastifyInstance[];
  private readonly username: string;
  private readonly password: string;
  private readonly company: DeskBooksCompany;
  private calls = 0;
  constructor(apps: FastifyInstance | readonly FastifyInstance[], username: string, password: string, company: DeskBooksCompany) {
    this.apps = Array.isArray(apps) ? apps : [apps];
    this.username = username;
    this.password = password;
    this.company = company;
  }

  /** The API process the next call goes to. */
  private get app(): FastifyInstance {
    const app = this.apps[this.calls++ % this.apps.length];
    if (app === undefined) throw new Error('no API process to call');
    return app;
  }

  async run(options: SessionOptions = {}): Promise<SessionLog> {
    const log: SessionLog = { authenticate: [], requests: [], percents: [], noOps: 0, lastError: null, closed: null };
    await soapCall(this.app, 'serverVersion', {});
    await soapCall(this.app, 'clientVersion', { strVersion: '2.3.0.215' });
    const auth = await soapCall(this.app, 'authenticate', { strUserName: this.username, strPassword: this.password });
    const result = isRecord(auth.result) && Array.isArray(auth.result.string) ? auth.result.string : [];
    log.authenticate = result.map((value: unknown) => (typeof value === 'string' ? value : isRecord(value) ? '' : String(value)));
    const [ticket = '', verdict = ''] = log.authenticate;
    if (verdict === 'nvu') return log;
    if (verdict === 'none') {
      log.closed = resultText(await soapCall(this.app, 'closeConnection', { ticket }));
      return log;
    }
    let noOps = 0;
    for (;;) {
      const sent = await soapCall(this.app, 'sendRequestXML', {
        ticket,
        strHCPResponse: '',
        strCompanyFileName: 'C:\\Company\\deskbooks.qbw',
        qbXMLCountry: 'US',
        qbXMLMajorVers: '13',
        qbXMLMinorVers: '0',
      });
      const request = resultText(sent);
      if (request === '') {
        const error = resultText(await soapCall(this.app, 'getLastError', { ticket }));
        if (error === 'NoOp' && noOps < (options.maxNoOps ?? 300)) {
          noOps++;
          log.noOps++;
          await new Promise((resolve) => setTimeout(resolve, options.noOpWaitMs ?? 100));
          continue;
        }
        log.lastError = error;
        break;
      }
      noOps = 0;
      log.requests.push(request);
      if (options.crashAfterRequests !== undefined && log.requests.length >= options.crashAfterRequests) return log;
      const answered = await soapCall(this.app, 'receiveResponseXML', { ticket, response: this.company.answer(request), hresult: '', message: '' });
      const percent = Number(resultText(answered));
      log.percents.push(percent);
      if (percent < 0) {
        log.lastError = resultText(await soapCall(this.app, 'getLastError', { ticket }));
        break;
      }
      if (percent >= 100) break;
    }
    log.closed = resultText(await soapCall(this.app, 'closeConnection', { ticket }));
    return log;
  }
}
