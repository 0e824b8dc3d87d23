/**
 * The link flow's last step for a platform that calls us (src/platforms/polled.ts): the connection is linked as any
 * credential platform's, and instead of leaving at once the end user gets what to install: the .qwc file to add to
 * Intuit's Web Connector and the password it asks for, shown this once (only its SHA-256 is kept). "Continue" goes on to
 * the app's redirect with the public token, as the flow's other endings do.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { issuePolledEndpoint, polledConnectionFile } from '../connections/polled-endpoint.ts';
import type { AccountIdentity, Connector, Credentials } from '../platforms/connector.ts';
import { getConnector } from '../platforms/index.ts';
import { finish, findLinkConnection, page, type FlowContext, type LinkConnection, type Outcome } from './flow.ts';
import { html, page as htmlPage } from './html.ts';

export const QWC_FILE_NAME = 'web-connector.qwc';

export const qwcHref = (linkToken: string): string => `/link/${encodeURIComponent(linkToken)}/${QWC_FILE_NAME}`;

export async function finishPolled(
  ctx: FlowContext,
  connection: LinkConnection,
  connector: Connector,
  linked: { credentials: Credentials; identity: AccountIdentity },
  target: string,
): Promise<Outcome> {
  const done = await finish(
    ctx,
    connection,
    { platform: connector.id, credentials: linked.credentials, tokens: null, identity: linked.identity },
    target,
  );
  if (done.kind !== 'redirect') return done;
  const issued = await issuePolledEndpoint(ctx.services.pool, connection.id);
  return page(200, (nonce) =>
    htmlPage({
      title: `Connect ${connector.name}`,
      nonce,
      body: html`<h1>Connect ${connector.name}</h1>
<p>On the computer where ${connector.name} runs, open the Web Connector, choose <strong>Add an application</strong> and pick this file:</p>
<a class="button" href="${qwcHref(connection.linkToken)}" download="${QWC_FILE_NAME}">Download ${QWC_FILE_NAME}</a>
<p>When the Web Connector asks for the password, enter:</p>
<p><code data-password>${issued.password}</code></p>
<p>This password is shown only once. User name: <code>${issued.username}</code></p>
<a class="button" href="${done.location}">Continue</a>`,
    }),
  );
}

const QwcParams = Type.Object({ linkToken: Type.String({ minLength: 1, maxLength: 200 }) });

/** GET /link/:linkToken/web-connector.qwc: the file of a linked connection (it holds no secret). */
export function registerQwcDownload(app: FastifyInstance): void {
  app.get<{ Params: Static<typeof QwcParams> }>(
    `/link/:linkToken/${QWC_FILE_NAME}`,
    { schema: { hide: true, params: QwcParams } },
    async (request, reply) => {
      const { services } = request.server;
      const connection = await findLinkConnection(services.pool, request.params.linkToken);
      const connector = connection?.platform === null || connection === null ? undefined : getConnector(connection.platform);
      const file =
        connection === null || connector === undefined
          ? null
          : await polledConnectionFile(services.pool, connector, connection.id, services.config.publicUrl);
      if (file === null) return reply.code(404).type('text/plain; charset=utf-8').send('No Web Connector file for this link.');
      return reply.type('application/xml; charset=utf-8').header('Content-Disposition', `attachment; filename="${QWC_FILE_NAME}"`).send(file);
    },
  );
}
