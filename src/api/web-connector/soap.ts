/**
 * POST /web-connector: the SOAP endpoint Intuit's Web Connector calls (the AppURL of every .qwc file we hand out,
 * src/connections/polled-endpoint.ts). One address for every connection: the user name of authenticate names the
 * connection, the ticket every later call. Answers are SOAP 1.1; a request we cannot read is a SOAP Fault (400,
 * soap:Client) and changes nothing. Not in the OpenAPI document: its client is the Web Connector, not an API client.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { CoreServices } from '../../core-services.ts';
import { WEB_CONNECTOR_PATH } from '../../connections/polled-endpoint.ts';
import { readWebConnectorCall, SoapFault, soapFault, webConnectorAnswer, type WebConnectorCall } from '../../platforms/web-connector-soap.ts';
import { authenticate, closeSession, connectionError, lastError, receiveResponse, sendRequest } from '../../sync/polled-session.ts';

/** qbXML answers of a large company file page run to megabytes; well above what a page of 100 records needs. */
export const WEB_CONNECTOR_BODY_LIMIT = 32 * 1024 * 1024;
const SOAP_TYPES = ['text/xml', 'application/soap+xml'];
/** What serverVersion answers (the Web Connector shows it in its log). */
const SERVER_VERSION = 'Ledgerport Web Connector endpoint 1';

const SoapBody = Type.String({ description: 'A SOAP 1.1 envelope with one Web Connector call.' });

async function answer(services: Pick<CoreServices, 'pool' | 'jobs' | 'log'>, call: WebConnectorCall): Promise<string | number | string[]> {
  switch (call.operation) {
    case 'serverVersion':
      return SERVER_VERSION;
    case 'clientVersion':
      // "": any Web Connector version will do.
      return '';
    case 'authenticate':
      return authenticate(services, call.strUserName, call.strPassword);
    case 'sendRequestXML':
      return sendRequest(services, call.ticket);
    case 'receiveResponseXML':
      return receiveResponse(services, call.ticket, call);
    case 'connectionError':
      return connectionError(services, call.ticket, call.hresult, call.message);
    case 'getLastError':
      return lastError(services, call.ticket);
    case 'closeConnection':
      return closeSession(services, call.ticket);
  }
}

async function handle(request: FastifyRequest<{ Body: Static<typeof SoapBody> }>, reply: FastifyReply): Promise<FastifyReply> {
  reply.type('text/xml; charset=utf-8');
  let call: WebConnectorCall;
  try {
    call = readWebConnectorCall(request.body);
  } catch (error) {
    if (!(error instanceof SoapFault)) throw error;
    request.log.info({ err: error }, 'web connector call refused: not a SOAP call we know');
    return reply.code(400).send(soapFault(error));
  }
  try {
    return await reply.code(200).send(webConnectorAnswer(call.operation, await answer(request.server.services, call)));
  } catch (error) {
    request.log.error({ err: error, web_connector: { operation: call.operation } }, 'web connector call failed inside the service');
    return reply.code(500).send(soapFault(new SoapFault('Server', 'The service failed; the Web Connector may try again.')));
  }
}

export function registerWebConnector(app: FastifyInstance): void {
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser(SOAP_TYPES, { parseAs: 'string', bodyLimit: WEB_CONNECTOR_BODY_LIMIT }, (_request, body, parsed) => {
      parsed(null, body);
    });
    scope.post<{ Body: Static<typeof SoapBody> }>(WEB_CONNECTOR_PATH, { schema: { hide: true, body: SoapBody } }, handle);
    done();
  });
}
