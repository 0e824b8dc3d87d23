/** Every endpoint of the service, in one list per surface. */
import type { Endpoint } from '../http/contract.ts';
import healthz from './health/healthz.ts';
import readyz from './health/readyz.ts';
import createOrganization from './admin/organizations/create.ts';
import listOrganizations from './admin/organizations/list.ts';
import rotateCredentials from './admin/organizations/rotate-credentials.ts';
import setOrganizationProducts from './admin/organizations/set-products.ts';
import setOrganizationDataBatching from './admin/organizations/set-data-batching.ts';
import setWebhook from './admin/webhooks/set.ts';
import getWebhook from './admin/webhooks/get.ts';
import deleteWebhook from './admin/webhooks/delete.ts';
import listWebhookDeliveries from './admin/webhooks/list-deliveries.ts';
import getWebhookDelivery from './admin/webhooks/get-delivery.ts';
import retryWebhookDelivery from './admin/webhooks/retry-delivery.ts';
import replayWebhookDeliveries from './admin/webhooks/replay-deliveries.ts';
import setOrganizationDisabledEndpoints from './admin/organizations/set-disabled-endpoints.ts';
import setOAuthApp from './admin/oauth-apps/set.ts';
import listOAuthApps from './admin/oauth-apps/list.ts';
import deleteOAuthApp from './admin/oauth-apps/delete.ts';
import setRedirectUrls from './admin/redirect-urls/set.ts';
import getRedirectUrls from './admin/redirect-urls/get.ts';
import deleteRedirectUrls from './admin/redirect-urls/delete.ts';
import getMetrics from './metrics/get.ts';
import createConnection from './connections/create.ts';
import listConnections from './connections/list.ts';
import getConnectionByToken from './connections/get-by-token.ts';
import connectionStatus from './connections/status.ts';
import updateConnection from './connections/update.ts';
import deleteConnection from './connections/delete.ts';
import invalidateAccessToken from './connections/invalidate-token.ts';
import incrementalSync from './connections/incremental-sync.ts';
import backfill from './connections/backfill.ts';
import exchangePublicToken from './item/public-token-exchange.ts';
import listEvents from './events/list.ts';
import listRequestLogs from './logs/requests/list.ts';
import getRequestLog from './logs/requests/get.ts';
import { dataEndpoints } from './data/routes.ts';
import downloadFile from './files/download.ts';
import downloadFinancialReport from './files/financial-report.ts';
import downloadInvoicePdf from './files/invoice-pdf.ts';
import fetchInvoicePdfLink from './accounting/invoices/pdf-link.ts';
import listReports from './accounting/reports/list.ts';
import listAccountingTransactions from './accounting/transactions/list.ts';
import fetchAccountingTransaction from './accounting/transactions/fetch.ts';
import getJob from './jobs/get.ts';
import { objectWriteEndpoints } from './writes/objects.ts';
import { nestedWriteEndpoints } from './writes/nested.ts';
import applyBillCredit from './accounting/bill-credit-applications/apply.ts';
import unapplyBillCredit from './accounting/bill-credit-applications/unapply.ts';
import applyInvoiceCredit from './accounting/invoice-credit-applications/apply.ts';
import unapplyInvoiceCredit from './accounting/invoice-credit-applications/unapply.ts';
import { agingEndpoints } from './accounting/aging/summary.ts';
import { customFieldEndpoints } from './accounting/custom-fields/list.ts';
import sendBankFeedTransactions from './accounting/bank-feeds/transactions.ts';
import listBankFeedTransactions from './accounting/bank-feeds/transactions-list.ts';
import fetchBankFeedTransaction from './accounting/bank-feeds/transactions-fetch.ts';
import bankFeedMappingLink from './accounting/bank-feeds/mapping-link.ts';
import fulfillOrder from './commerce/orders/fulfillments.ts';
import createBankFeedOtp from './accounting/bank-feeds/otp.ts';
import { attachmentEndpoints } from './accounting/attachments/routes.ts';
import { hrisViewEndpoints } from './hris/views.ts';
import fetchAccountingMetric from './accounting/metrics/fetch.ts';
import fetchCommerceMetric from './commerce/metrics/fetch.ts';
import listProductCategories from './commerce/products/categories.ts';
import listCommerceBalances from './commerce/balance.ts';
import receivePlatformWebhook from './platform-webhooks/receive.ts';
import { connectionDashboardEndpoints } from './dashboard/connections/routes.ts';
import { userEndpoints } from './dashboard/users/routes.ts';
import inviteDashboardUser from './admin/dashboard-users/invite.ts';
import { settingsEndpoints } from './dashboard/settings/routes.ts';
import { overviewEndpoints } from './dashboard/overview/routes.ts';

export const publicEndpoints: Endpoint[] = [healthz, readyz, downloadFile, downloadFinancialReport, downloadInvoicePdf];
/** The dashboard's own JSON endpoints (auth 'session': a dashboard user's cookie), under /dashboard/api. */
export const dashboardEndpoints: Endpoint[] = [...userEndpoints, ...settingsEndpoints, ...overviewEndpoints, ...connectionDashboardEndpoints];
/** Platforms' own webhooks: verified by their signature over the raw body, which their scope keeps unparsed (app.ts). */
export const platformWebhookEndpoints: Endpoint[] = [receivePlatformWebhook];
// Admin bearer token (the edge hook keys on the contract's auth, not the URL: /metrics is here too).
export const adminEndpoints: Endpoint[] = [
  createOrganization,
  listOrganizations,
  rotateCredentials,
  setOrganizationProducts,
  setOrganizationDataBatching,
  setOrganizationDisabledEndpoints,
  setWebhook,
  getWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  getWebhookDelivery,
  retryWebhookDelivery,
  replayWebhookDeliveries,
  setOAuthApp,
  listOAuthApps,
  deleteOAuthApp,
  setRedirectUrls,
  getRedirectUrls,
  deleteRedirectUrls,
  inviteDashboardUser,
  getMetrics,
];
export const versionedEndpoints: Endpoint[] = [
  createConnection,
  listConnections,
  getConnectionByToken,
  connectionStatus,
  updateConnection,
  deleteConnection,
  invalidateAccessToken,
  incrementalSync,
  backfill,
  exchangePublicToken,
  listEvents,
  listRequestLogs,
  getRequestLog,
  ...dataEndpoints,
  ...agingEndpoints,
  ...customFieldEndpoints,
  ...objectWriteEndpoints,
  ...nestedWriteEndpoints,
  applyBillCredit,
  unapplyBillCredit,
  applyInvoiceCredit,
  unapplyInvoiceCredit,
  sendBankFeedTransactions,
  listBankFeedTransactions,
  fetchBankFeedTransaction,
  bankFeedMappingLink,
  fulfillOrder,
  createBankFeedOtp,
  ...attachmentEndpoints,
  ...hrisViewEndpoints,
  fetchAccountingMetric,
  fetchCommerceMetric,
  listProductCategories,
  listReports,
  listCommerceBalances,
  listAccountingTransactions,
  fetchAccountingTransaction,
  fetchInvoicePdfLink,
  getJob,
];
