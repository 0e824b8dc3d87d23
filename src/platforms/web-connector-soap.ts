/**
 * The Web Connector's SOAP 1.1 calls and answers (Intuit's QBWC programmer's guide: document/literal, namespace
 * http://developer.intuit.com/), read and written through the one XML parser (src/platforms/xml.ts). Pure: the session
 * they drive is src/sync/polled-session.ts.
 */
import { isRecord } from './json.ts';
import { buildXml, parseXml, XmlSyntaxError } from './xml.ts';

export const QBWC_NAMESPACE = 'http://developer.intuit.com/';
const SOAP_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';

export type WebConnectorCall =
  | { operation: 'serverVersion' }
  | { operation: 'clientVersion'; strVersion: string }
  | { operation: 'authenticate'; strUserName: string; strPassword: string }
  | {
      operation: 'sendRequestXML';
      ticket: string;
      strHCPResponse: string;
      strCompanyFileName: string;
      qbXMLCountry: string;
      qbXMLMajorVers: string;
      qbXMLMinorVers: string;
    }
  | { operation: 'receiveResponseXML'; ticket: string; response: string; hresult: string; message: string }
  | { operation: 'connectionError'; ticket: string; hresult: string; message: string }
  | { operation: 'getLastError'; ticket: string }
  | { operation: 'closeConnection'; ticket: string };

export type WebConnectorOperation = WebConnectorCall['operation'];

/** Each operation's parameters, in the guide's order. */
const PARAMETERS: Readonly<Record<WebConnectorOperation, readonly string[]>> = {
  serverVersion: [],
  clientVersion: ['strVersion'],
  authenticate: ['strUserName', 'strPassword'],
  sendRequestXML: ['ticket', 'strHCPResponse', 'strCompanyFileName', 'qbXMLCountry', 'qbXMLMajorVers', 'qbXMLMinorVers'],
  receiveResponseXML: ['ticket', 'response', 'hresult', 'message'],
  connectionError: ['ticket', 'hresult', 'message'],
  getLastError: ['ticket'],
  closeConnection: ['ticket'],
};

const isOperation = (name: string): name is WebConnectorOperation => Object.hasOwn(PARAMETERS, name);

/** A call we cannot read: answered with a SOAP Fault (soap:Client), nothing done. */
export class SoapFault extends Error {
  readonly faultCode: 'Client' | 'Server';
  constructor(faultCode: 'Client' | 'Server', message: string) {
    super(message);
    this.name = 'SoapFault';
    this.faultCode = faultCode;
  }
}

/** An element's text: '' for an empty element, refused when it has child elements instead of text. */
function textOf(value: unknown, name: string): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value === 'string') return value;
  if (isRecord(value) && typeof value['#text'] === 'string' && Object.keys(value).every((key) => key === '#text' || key.startsWith('@_'))) {
    return value['#text'];
  }
  if (isRecord(value) && Object.keys(value).every((key) => key.startsWith('@_'))) return '';
  throw new SoapFault('Client', `${name} must be text`);
}

function bodyOf(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseXml(text, { removeNSPrefix: true });
  } catch (error) {
    throw new SoapFault('Client', error instanceof XmlSyntaxError ? error.message : 'not XML');
  }
  const envelope = isRecord(parsed) ? parsed.Envelope : undefined;
  const body = isRecord(envelope) ? envelope.Body : undefined;
  if (!isRecord(body)) throw new SoapFault('Client', 'not a SOAP envelope with a Body');
  return body;
}

/** The one call a SOAP request carries. */
export function readWebConnectorCall(text: string): WebConnectorCall {
  const body = bodyOf(text);
  const names = Object.keys(body).filter((key) => !key.startsWith('@_'));
  const [name] = names;
  if (names.length !== 1 || name === undefined) throw new SoapFault('Client', 'the SOAP Body must hold exactly one call');
  if (!isOperation(name)) throw new SoapFault('Client', `unknown operation ${name}`);
  const element = body[name];
  const values: Record<string, string> = {};
  for (const parameter of PARAMETERS[name]) values[parameter] = textOf(isRecord(element) ? element[parameter] : undefined, parameter);
  return callOf(name, values);
}

function callOf(operation: WebConnectorOperation, v: Record<string, string>): WebConnectorCall {
  const s = (key: string): string => v[key] ?? '';
  switch (operation) {
    case 'serverVersion':
      return { operation };
    case 'clientVersion':
      return { operation, strVersion: s('strVersion') };
    case 'authenticate':
      return { operation, strUserName: s('strUserName'), strPassword: s('strPassword') };
    case 'sendRequestXML':
      return {
        operation,
        ticket: s('ticket'),
        strHCPResponse: s('strHCPResponse'),
        strCompanyFileName: s('strCompanyFileName'),
        qbXMLCountry: s('qbXMLCountry'),
        qbXMLMajorVers: s('qbXMLMajorVers'),
        qbXMLMinorVers: s('qbXMLMinorVers'),
      };
    case 'receiveResponseXML':
      return { operation, ticket: s('ticket'), response: s('response'), hresult: s('hresult'), message: s('message') };
    case 'connectionError':
      return { operation, ticket: s('ticket'), hresult: s('hresult'), message: s('message') };
    case 'getLastError':
      return { operation, ticket: s('ticket') };
    case 'closeConnection':
      return { operation, ticket: s('ticket') };
  }
}

function envelope(content: Record<string, unknown>): string {
  return buildXml({
    'soap:Envelope': {
      '@_xmlns:soap': SOAP_ENVELOPE,
      '@_xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      '@_xmlns:xsd': 'http://www.w3.org/2001/XMLSchema',
      'soap:Body': content,
    },
  });
}

/**
 * The answer to a call: `<{op}Response xmlns="http://developer.intuit.com/"><{op}Result>…`. authenticate's result is
 * an ArrayOfString (`<string>` elements); receiveResponseXML's an int; the others a string.
 */
export function webConnectorAnswer(operation: WebConnectorOperation, result: string | number | readonly string[]): string {
  const value = typeof result === 'string' || typeof result === 'number' ? String(result) : { string: [...result] };
  // An empty string must still be an element, written <xResult/> (the empty string to .NET): a bare "" would be dropped.
  const resultElement = value === '' ? { '#text': '' } : value;
  return envelope({ [`${operation}Response`]: { '@_xmlns': QBWC_NAMESPACE, [`${operation}Result`]: resultElement } });
}

export function soapFault(fault: SoapFault): string {
  return envelope({ 'soap:Fault': { faultcode: `soap:${fault.faultCode}`, faultstring: fault.message } });
}
