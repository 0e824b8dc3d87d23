/**
 * The operationId of every route in /openapi.json: what generated clients name their methods
 * (packages/client). Derived in this one place from the method and the URL template, so a new resource
 * endpoint is named without anyone choosing: `listBills`, `getBill`, `createBill`, `updateBill`, `deleteBill`.
 * Routes whose URL does not read as a resource and a verb (actions, singletons, the dashboard's views) are
 * named in OPERATION_ID_OVERRIDES. Names are part of the client's API: change one only as a breaking change.
 * src/http/operation-ids.test.ts checks that every route has one and that no two share it.
 */
/** contract.ts's Method, restated: contract.ts imports this file, and layers have no cycles. */
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Areas whose name qualifies the operation (commerce and accounting both have customers); accounting is the default. */
const QUALIFIED_AREAS: Readonly<Record<string, string>> = { commerce: 'Commerce', hris: 'Hris', 'dashboard/api': 'Dashboard' };
const UNQUALIFIED_AREAS = ['versioned/accounting', 'versioned', 'admin'];

/** The document types files attach to share the attachment routes (src/api/accounting/attachments). */
const ATTACHMENT_DOCUMENTS: Readonly<Record<string, string>> = {
  bills: 'Bill',
  invoices: 'Invoice',
  expenses: 'Expense',
  journal_entries: 'JournalEntry',
  bank_deposits: 'BankDeposit',
  bank_transfers: 'BankTransfer',
};

function attachmentOverrides(): Record<string, string> {
  const names: Record<string, string> = {};
  for (const [plural, name] of Object.entries(ATTACHMENT_DOCUMENTS)) {
    const base = `/versioned/accounting/${plural}`;
    names[`GET ${base}/{id}/attachments`] = `listAttachmentsOf${name}`;
    names[`POST ${base}/{id}/attachments`] = `upload${name}Attachment`;
    names[`GET ${base}/{id}/attachments/{attachmentId}/file`] = `download${name}AttachmentFile`;
  }
  return names;
}

/** Keyed by "METHOD /url/{param}" as served (with its prefix). */
export const OPERATION_ID_OVERRIDES: Readonly<Record<string, string>> = {
  'GET /healthz': 'getLiveness',
  'GET /readyz': 'getReadiness',
  'GET /files/{id}': 'downloadSignedFile',
  'GET /metrics': 'getMetrics',
  'POST /admin/organizations/{id}/credentials/rotate': 'rotateOrganizationCredentials',
  'GET /admin/organizations/{id}/webhook/deliveries': 'listWebhookDeliveries',
  'GET /admin/organizations/{id}/webhook/deliveries/{deliveryId}': 'getWebhookDelivery',
  'POST /admin/organizations/{id}/webhook/deliveries/{deliveryId}/retry': 'retryWebhookDelivery',
  'POST /admin/organizations/{id}/webhook/deliveries/replay': 'replayWebhookDeliveries',
  'PUT /admin/organizations/{id}/oauth_apps/{platform}': 'setOrganizationOauthApp',
  'DELETE /admin/organizations/{id}/oauth_apps/{platform}': 'deleteOrganizationOauthApp',
  'POST /admin/organizations/{id}/dashboard_users': 'inviteOrganizationDashboardUser',
  'POST /dashboard/api/users': 'inviteDashboardUser',
  'PATCH /dashboard/api/users/{user_id}': 'setDashboardUserRole',
  'DELETE /dashboard/api/users/{user_id}': 'removeDashboardUser',
  'GET /dashboard/api/audit_log': 'listDashboardAuditLog',
  'GET /dashboard/api/credentials': 'getDashboardCredentials',
  'GET /dashboard/api/platform-settings': 'getDashboardPlatformSettings',
  'POST /dashboard/api/webhooks/test': 'sendDashboardTestWebhook',
  'GET /dashboard/api/syncs/running': 'listDashboardRunningSyncs',
  'GET /dashboard/api/webhooks/delivery_stats': 'getDashboardWebhookDeliveryStats',
  'GET /dashboard/api/connections/linked': 'listDashboardLinkedConnections',
  'GET /dashboard/api/connections/{id}/syncs': 'listDashboardConnectionSyncs',
  'GET /dashboard/api/connections/{id}/events': 'listDashboardConnectionEvents',
  'GET /dashboard/api/connections/{id}/write-jobs': 'listDashboardConnectionWriteJobs',
  'POST /platform-webhooks/{platform}/{organization_id}/{environment}': 'receivePlatformWebhook',
  'POST /versioned/connections/create': 'createConnection',
  'GET /versioned/connections/access_token': 'getConnectionByAccessToken',
  'GET /versioned/connections/status': 'getConnectionStatus',
  'POST /versioned/connections/access_token/invalidate': 'invalidateAccessToken',
  'POST /versioned/connections/incremental_sync': 'startIncrementalSync',
  'POST /versioned/connections/backfill': 'startBackfill',
  'POST /versioned/item/public_token/exchange': 'exchangePublicToken',
  'POST /versioned/accounting/bill_credit_applications': 'applyBillCredit',
  'POST /versioned/accounting/bill_credit_applications/unapply': 'unapplyBillCredit',
  'POST /versioned/accounting/invoice_credit_applications': 'applyInvoiceCredit',
  'POST /versioned/accounting/invoice_credit_applications/unapply': 'unapplyInvoiceCredit',
  'POST /versioned/accounting/bank_feeds/transactions': 'createBankFeedTransactions',
  'POST /versioned/accounting/bank_feeds/accounts/mapping_link': 'createBankFeedAccountMappingLink',
  ...attachmentOverrides(),
};

/** Fastify's `:param` written as OpenAPI's `{param}`. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function pascal(segment: string): string {
  return segment
    .split(/[_-]/)
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** English plurals as our URLs spell them: entries → entry, bills → bill, company_info stays. */
export function singular(segment: string): string {
  if (segment.endsWith('ies')) return `${segment.slice(0, -3)}y`;
  if (segment.endsWith('ses') && !segment.endsWith('nses')) return segment.slice(0, -2);
  if (segment.endsWith('s') && !segment.endsWith('ss')) return segment.slice(0, -1);
  return segment;
}

/** The area prefix of the path and what it adds to the name. */
function splitArea(path: string): { qualifier: string; rest: string[] } {
  const trimmed = path.replace(/^\//, '');
  for (const [area, qualifier] of Object.entries(QUALIFIED_AREAS)) {
    for (const prefix of [`versioned/${area}/`, `${area}/`]) {
      if (trimmed.startsWith(prefix)) return { qualifier, rest: trimmed.slice(prefix.length).split('/') };
    }
  }
  for (const area of UNQUALIFIED_AREAS) {
    if (trimmed.startsWith(`${area}/`)) return { qualifier: '', rest: trimmed.slice(area.length + 1).split('/') };
  }
  return { qualifier: '', rest: trimmed.split('/') };
}

const VERBS: Record<Method, { collection: string; item: string }> = {
  GET: { collection: 'list', item: 'get' },
  POST: { collection: 'create', item: 'create' },
  PATCH: { collection: 'update', item: 'update' },
  PUT: { collection: 'set', item: 'set' },
  DELETE: { collection: 'delete', item: 'delete' },
};

/**
 * Resource-verb name from the URL: the static segments name the resource, singular but for the last one, which stays
 * as the URL spells it unless the route is one item (it ends in an id) or creates one. A last segment that is not a
 * plural is a singleton (`/webhook`, `/session`): read with "get", not "list".
 */
export function deriveOperationId(method: Method, path: string): string {
  const { qualifier, rest } = splitArea(path);
  const endsWithId = rest.at(-1)?.startsWith('{') === true;
  const nouns = rest.filter((segment) => !segment.startsWith('{'));
  const last = nouns.at(-1) ?? '';
  const isCollection = !endsWithId && last !== singular(last);
  const verb = isCollection ? VERBS[method].collection : VERBS[method].item;
  const lastSingular = endsWithId || (isCollection && method === 'POST');
  const words = nouns.map((noun, index) => pascal(index < nouns.length - 1 || lastSingular ? singular(noun) : noun));
  return `${verb}${qualifier}${words.join('')}`;
}

export function operationIdOf(method: Method, url: string): string {
  const path = openApiPath(url);
  return OPERATION_ID_OVERRIDES[`${method} ${path}`] ?? deriveOperationId(method, path);
}
