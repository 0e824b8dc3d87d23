import { describe, expect, it } from 'vitest';
import { isRecord } from './json.ts';
import { parseXml } from './xml.ts';
import { readWebConnectorCall, SoapFault, soapFault, webConnectorAnswer } from './web-connector-soap.ts';

const call = (operation: string, inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><${operation} xmlns="http://developer.intuit.com/">${inner}</${operation}></soap:Body></soap:Envelope>`;

describe('Web Connector SOAP', () => {
  it('reads each call with its parameters, empty ones as ""', () => {
    expect(readWebConnectorCall(call('authenticate', '<strUserName>lp-user</strUserName><strPassword>s3cret &amp; more</strPassword>'))).toEqual({
      operation: 'authenticate',
      strUserName: 'lp-user',
      strPassword: 's3cret & more',
    });
    expect(
      readWebConnectorCall(call('receiveResponseXML', '<ticket>t</ticket><response>&lt;QBXML/&gt;</response><hresult/><message></message>')),
    ).toEqual({
      operation: 'receiveResponseXML',
      ticket: 't',
      response: '<QBXML/>',
      hresult: '',
      message: '',
    });
    expect(readWebConnectorCall(call('serverVersion', ''))).toEqual({ operation: 'serverVersion' });
  });

  it('refuses what is not one known call, as a client fault', () => {
    for (const text of ['nope', call('dropTables', ''), call('authenticate', '<strUserName><x/></strUserName>'), '<Envelope><Body/></Envelope>']) {
      expect(() => readWebConnectorCall(text)).toThrow(SoapFault);
    }
  });

  it("answers in the namespace the Web Connector reads: strings, ints and authenticate's string array", () => {
    const read = (xml: string, op: string): unknown => {
      expect(xml).toContain(`<${op}Response xmlns="http://developer.intuit.com/">`);
      const parsed = parseXml(xml, { removeNSPrefix: true });
      const envelope = isRecord(parsed) ? parsed.Envelope : undefined;
      const body = isRecord(envelope) ? envelope.Body : undefined;
      const response = isRecord(body) ? body[`${op}Response`] : undefined;
      return isRecord(response) ? response[`${op}Result`] : undefined;
    };
    expect(read(webConnectorAnswer('authenticate', ['ticket-1', 'none']), 'authenticate')).toEqual({ string: ['ticket-1', 'none'] });
    expect(read(webConnectorAnswer('receiveResponseXML', 40), 'receiveResponseXML')).toBe('40');
    expect(webConnectorAnswer('sendRequestXML', '')).toContain('<sendRequestXMLResult/>');
    expect(soapFault(new SoapFault('Client', 'bad'))).toContain('<faultcode>soap:Client</faultcode>');
  });
});
