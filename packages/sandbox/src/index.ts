/**
 * SANDBOX: a synthetic business whose books behave like real ones. What
 * `npm start` serves out of the box, what tests and benchmarks drive, and what
 * a user evaluates the service with. See README.md for scenarios and knobs.
 *
 * The connector talks to the sandbox platform through a transport: in process,
 * to the platform its plugin made (plugin.ts's sandboxPlugin({ pool })), or over
 * HTTP when SANDBOX_URL points at a running sandbox server (server.ts).
 */
import { ATTACHMENT_PARENTS } from '../../../src/model/attachment.ts';
import type { UnifiedObjectType } from '../../../src/model/object-types.ts';
import type {
  Connector,
  ConnectorActions,
  ConnectorContext,
  ObjectCapabilities,
  NestedHandler,
  NestedWriteResult,
  ObjectHandler,
  PlatformRecord,
} from '../../../src/platforms/connector.ts';
import { PlatformError } from '../../../src/platforms/errors.ts';
import { SandboxClient } from './client.ts';
import { attachmentParentType, businessDateOf, collectionOf } from './collections.ts';
import { SANDBOX_CUSTOM_FIELDS } from './custom-fields.ts';
import { midnight } from './dates.ts';
import { feedLine, uploadBody } from './inbound/actions.ts';
import { INBOUND, nativeVariant } from './inbound/index.ts';
import { fulfillmentNative } from './inbound/orders.ts';
import { sandboxInvoicePdf } from './invoice-pdf.ts';
import { mapRecord, NATIVE_TYPES } from './mapping/index.ts';
import type { SandboxPlatform } from './platform.ts';
import { httpTransport, inProcessTransport, type SandboxTransport } from './transport.ts';

export { SandboxPlatform } from './platform.ts';
export { SCENARIOS, SANDBOX_PASSWORD } from './scenarios.ts';
export { httpTransport, inProcessTransport, type SandboxTransport } from './transport.ts';

export interface SandboxConnectorOptions {
  /** Every call through this transport (tests of one transport). */
  transport?: SandboxTransport;
  /** The platform in this process (its plugin's), called unless SANDBOX_URL points at a sandbox server. */
  platform?: () => SandboxPlatform;
}

/**
 * SANDBOX_URL (a running sandbox server), read on each call, selects HTTP; otherwise the connector's own platform.
 * One HTTP transport per URL, so its limits and retries span every call.
 */
function defaultTransport(platform: (() => SandboxPlatform) | undefined): () => SandboxTransport {
  const inProcess = platform === undefined ? null : inProcessTransport(platform);
  const overHttp = new Map<string, SandboxTransport>();
  return () => {
    const url = process.env.SANDBOX_URL;
    if (url === undefined || url === '') {
      if (inProcess === null)
        throw new Error('This SANDBOX connector has no platform in this process: use the connector of a sandboxPlugin({ pool }), or set SANDBOX_URL');
      return inProcess;
    }
    let transport = overHttp.get(url);
    if (transport === undefined) {
      transport = httpTransport(url);
      overHttp.set(url, transport);
    }
    return transport;
  };
}

const PAGE_SIZE = 500;

/** Unified fields the sandbox never fills. */
const UNMAPPED: Partial<Record<UnifiedObjectType, readonly string[]>> = {
  journal_entry: ['deposited'],
  location: ['has_children'],
  department: ['has_children'],
  class: ['has_children'],
  item: ['quantity_on_hand', 'asset_account_id'],
  purchase_order: ['subsidiary_id', 'currency_rate', 'shipping_address'],
  expense: ['subsidiary_id', 'currency_rate'],
  invoice_payment: ['document_number', 'payment_method_id'],
  // Tracking and tax are per line on SANDBOX.
  customer_refund: ['class_id', 'department_id', 'tax_rate_id'],
  sales_order: ['class_id', 'department_id', 'location_id', 'subsidiary_id'],
};

/** Written objects whose writers take fewer than all three operations (writes/lists.ts): what they do take. */
const FEWER_WRITES: Readonly<Partial<Record<UnifiedObjectType, { update: boolean; delete: boolean }>>> = {
  class: { update: false, delete: false },
  customer_refund: { update: false, delete: true },
  department: { update: false, delete: false },
  payment_term: { update: false, delete: true },
  // Orders are cancelled (PATCH status), not deleted, as on the reference.
  order: { update: true, delete: false },
};

function capabilities(type: UnifiedObjectType): ObjectCapabilities {
  const writable = INBOUND[type] !== undefined;
  const fewer = FEWER_WRITES[type];
  return {
    read: true,
    incremental: 'cursor',
    deletions: 'reported',
    filter: true,
    fetchByPlatformId: true,
    create: writable,
    update: writable && (fewer?.update ?? true),
    delete: writable && (fewer?.delete ?? true),
    unmappedFields: UNMAPPED[type] ?? [],
    ...(type === 'attachment' ? { attachedTo: { read: ATTACHMENT_PARENTS, upload: ATTACHMENT_PARENTS } } : {}),
  };
}

function handler(type: UnifiedObjectType, transport: () => SandboxTransport): ObjectHandler {
  const spec = collectionOf(type);
  const client = (ctx: ConnectorContext): SandboxClient => new SandboxClient(transport(), ctx, ctx.credentials);
  const record = (raw: PlatformRecord['raw'] & { Id: string }): PlatformRecord => ({ platformId: raw.Id, raw });
  const result: ObjectHandler = {
    async read(ctx, request) {
      const page = await client(ctx).list(type, {
        since: request.since ?? undefined,
        pageToken: request.pageToken ?? undefined,
        limit: String(PAGE_SIZE),
        from: request.window?.start.slice(0, 10),
        to: request.window?.end.slice(0, 10),
      });
      return {
        records: page.Items.map(record),
        deletedPlatformIds: page.Deleted.map((d) => d.Id),
        nextPageToken: page.NextPageToken,
        nextSince: page.NextPageToken === null ? page.NextSince : null,
      };
    },
    map: (platformRecord, ctx) => mapRecord(type, platformRecord.raw, (t, id) => ctx.ref(t, id)),
  };
  // Only dated collections honour a window; the others have no business date to batch on.
  if (spec.dateField !== null) {
    result.businessDate = (platformRecord) => {
      const date = businessDateOf(spec, platformRecord.raw);
      return date === null ? null : midnight(date);
    };
  }
  const inbound = INBOUND[type];
  if (inbound !== undefined) {
    result.create = async (ctx, input) => record(await client(ctx).write(type, 'POST', null, await inbound(ctx, input), ctx.idempotencyKey));
    const fewer = FEWER_WRITES[type];
    if (fewer?.update !== false) {
      result.update = async (ctx, platformId, patch) =>
        record(await client(ctx).write(type, 'PATCH', platformId, await inbound(ctx, patch), ctx.idempotencyKey));
    }
    if (fewer?.delete !== false) result.delete = async (ctx, platformId) => client(ctx).delete(type, platformId, ctx.idempotencyKey);
    if (type === 'product') result.nested = { variants: variantHandler(client) };
    result.findCreated = async (ctx) => {
      const raw = await client(ctx).writtenWith(ctx.idempotencyKey);
      return raw === null ? null : record(raw);
    };
  }
  return result;
}

/** A product's variants, written through their own native endpoints (keyed, so a repeated attempt is answered as the first). */
function variantHandler(client: (ctx: ConnectorContext) => SandboxClient): NestedHandler {
  const written = ({ Item, VariantId }: { Item: PlatformRecord['raw'] & { Id: string }; VariantId: string }): NestedWriteResult => ({
    parent: { platformId: Item.Id, raw: Item },
    nestedId: VariantId,
  });
  return {
    create: async (ctx, productId, input) => written(await client(ctx).variant('POST', productId, null, nativeVariant(input), ctx.idempotencyKey)),
    update: async (ctx, productId, variantId, patch) =>
      written(await client(ctx).variant('PATCH', productId, variantId, nativeVariant(patch), ctx.idempotencyKey)),
    delete: async (ctx, productId, variantId) => written(await client(ctx).variant('DELETE', productId, variantId, {}, ctx.idempotencyKey)),
  };
}

/** Attachment uploads, bank feeds and custom fields: the platform's endpoints beyond one record's create/update/delete. */
function actions(transport: () => SandboxTransport): ConnectorActions {
  const client = (ctx: ConnectorContext): SandboxClient => new SandboxClient(transport(), ctx, ctx.credentials);
  return {
    async uploadAttachment(ctx, parent, file) {
      const parentType = attachmentParentType(parent.type);
      if (parentType === undefined) {
        throw new PlatformError({
          kind: 'bad_request',
          message: `Sandbox attaches files to journal entries, bills, invoices, expenses, bank deposits and bank transfers, not to ${parent.type} records`,
          requestSent: false,
        });
      }
      const raw = await client(ctx).upload(uploadBody(parentType, parent.platformId, file), ctx.idempotencyKey);
      return { platformId: raw.Id, raw };
    },
    // The same for every business (custom-fields.ts): nothing to ask the platform.
    customFields: (_ctx, type) => Promise.resolve(SANDBOX_CUSTOM_FIELDS[type]),
    // Rendered from the invoice as synced: the platform's API has no PDFs of its own.
    invoicePdf: (_ctx, invoice) => Promise.resolve({ contentType: 'application/pdf', content: sandboxInvoicePdf(invoice.raw) }),
    async bankFeedMappingLink(ctx, feedPlatformId) {
      const link = await client(ctx).mappingLink(feedPlatformId);
      return { url: link.Url, expiresAt: link.ExpiresAt };
    },
    async fulfillOrder(ctx, orderPlatformId, fulfillment) {
      const raw = await client(ctx).write('order', 'PATCH', orderPlatformId, fulfillmentNative(fulfillment), ctx.idempotencyKey);
      // The native fulfillment has no id of its own: its place in the order names it (mapping/commerce.ts).
      const count = Array.isArray(raw.Fulfillments) ? raw.Fulfillments.length : 0;
      return { order: { platformId: raw.Id, raw }, fulfillmentPlatformId: `${raw.Id}-F${count}` };
    },
    async sendBankFeedTransactions(ctx, feedPlatformId, transactions) {
      const answer = await client(ctx).feedTransactions(feedPlatformId, transactions.map(feedLine), ctx.idempotencyKey);
      return {
        batchPlatformId: answer.Batch.Id,
        accepted: answer.Batch.Accepted,
        duplicates: answer.Batch.Duplicates,
        feedAccount: { platformId: answer.Item.Id, raw: answer.Item },
      };
    },
  };
}

/** A connector without a platform (neither option) reaches SANDBOX only over HTTP, or serves for its declarations alone. */
export function createSandboxConnector(options: SandboxConnectorOptions = {}): Connector {
  const fixed = options.transport;
  const transport = fixed === undefined ? defaultTransport(options.platform) : (): SandboxTransport => fixed;
  const objects: Connector['objects'] = {};
  for (const type of NATIVE_TYPES) objects[type] = { capabilities: capabilities(type), handler: handler(type, transport) };
  return {
    id: 'SANDBOX',
    name: 'Sandbox',
    kind: 'accounting',
    auth: {
      type: 'credentials',
      fields: [
        { field: 'basic_username', label: 'Username (user_good, or another documented test user)', required: true, secret: false },
        { field: 'basic_password', label: 'Password (pass_good)', required: true, secret: true },
      ],
    },
    async identify(ctx) {
      const me = await new SandboxClient(transport(), ctx, ctx.credentials).me();
      return { storeUniqueId: me.AccountId, storeName: me.CompanyName };
    },
    objects,
    actions: actions(transport),
    limits: { requestsPerMinute: 6_000, concurrentRequests: 8 },
  };
}
