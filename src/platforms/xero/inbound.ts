/**
 * Unified write bodies → Xero request records (the generic body helpers are
 * the sandbox's, as for QuickBooks Online). Only fields present in the
 * input are sent (PATCH semantics; an array such as line_items replaces
 * Xero's whole list). Links are service ids, turned into Xero ids here;
 * fields Xero has no place for are refused rather than dropped.
 */
import { ServiceError } from '../../errors/catalogue.ts';
import type { ConnectorContext } from '../connector.ts';
import { exactDifference, has, link, list, wholeCents, type Input } from '../inbound.ts';
import { listOf, xeroCall } from './client.ts';
import { dayOf } from './dates.ts';
import { chartOf, readOrganisation } from './read.ts';
import type { XeroLineItem, XeroTracking } from './types.ts';
import { perJob } from '../per-job.ts';

export type Body = Record<string, unknown>;

export function invalid(field: string, message: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', `${field}: ${message}`, { source: 'service', field, location: 'body' });
}

const isEmpty = (value: unknown): boolean => value === null || value === undefined || (Array.isArray(value) && value.length === 0);

/** Refuses fields Xero cannot hold, unless they are empty. */
export function refuse(input: Input, fields: readonly string[], why: string): void {
  for (const field of fields) if (has(input, field) && !isEmpty(input[field])) throw invalid(field, why);
}

/** Text for Xero: null clears a field, which Xero does with an empty string. */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

export const dateOf = (value: unknown): string | undefined => (typeof value === 'string' ? dayOf(value) : undefined);

const amount = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The account code Xero's line items name accounts by (contract 2.9.4 has no AccountID on invoice lines). */
export async function accountCode(ctx: ConnectorContext, value: unknown, field: string): Promise<string> {
  const accountId = await link(ctx, 'account', value, field);
  if (accountId === undefined) throw invalid(field, 'is required');
  const account = (await chartOf(ctx)).find((a) => a.AccountID === accountId);
  if (account?.Code === undefined || account.Code === '')
    throw invalid(field, `the Xero account ${account?.Name ?? accountId} has no code, and Xero lines name accounts by code`);
  return account.Code;
}

const trackingLists = perJob((ctx) =>
  xeroCall(ctx, { method: 'GET', path: '/TrackingCategories', operation: 'list TrackingCategories' }).then((r) => listOf(r, 'TrackingCategories')),
);

/** The tracking category and option of a class that is a tracking option. */
async function trackingOf(ctx: ConnectorContext, value: unknown, field: string): Promise<XeroTracking[]> {
  const optionId = await link(ctx, 'class', value, field);
  if (optionId === undefined) return [];
  const categories = trackingLists.get(ctx);
  for (const category of await categories) {
    const option = category.Options?.find((o) => o.TrackingOptionID === optionId);
    if (option !== undefined)
      return [{ TrackingCategoryID: category.TrackingCategoryID, TrackingOptionID: optionId, Name: category.Name, Option: option.Name }];
  }
  throw invalid(field, 'must be a tracking option (a class under a tracking category), not a whole category');
}

const LINE_REFUSED = ['customer_id', 'department_id', 'location_id', 'project_id', 'item'] as const;

/**
 * Unified lines as Xero line items, one unit each. Without any tax rate the
 * document is NoTax, so Xero adds no tax of an account's default and the
 * totals are the amounts sent; with tax rates it is tax-exclusive and each
 * line's amount is its sub_total (or total_amount less tax_amount).
 */
export async function documentLines(
  ctx: ConnectorContext,
  input: Input,
): Promise<{ LineItems: XeroLineItem[]; LineAmountTypes: 'Exclusive' | 'NoTax' }> {
  const lines = list(input, 'line_items');
  const taxed = lines.some((l) => typeof l.tax_rate_id === 'string' && l.tax_rate_id !== '');
  const items: XeroLineItem[] = [];
  for (const [n, line] of lines.entries()) {
    const at = `line_items[${n}]`;
    refuse(line, LINE_REFUSED, 'this Xero connector writes lines against accounts only');
    const item: XeroLineItem = { Quantity: 1, AccountCode: await accountCode(ctx, line.account_id, `${at}.account_id`) };
    if (has(line, 'description')) item.Description = textOf(line.description);
    const taxType = await link(ctx, 'tax_rate', line.tax_rate_id, `${at}.tax_rate_id`);
    if (taxType !== undefined) item.TaxType = taxType;
    const tracking = await trackingOf(ctx, line.class_id, `${at}.class_id`);
    if (tracking.length > 0) item.Tracking = tracking;
    if (typeof line.discount_percentage === 'number') item.DiscountRate = line.discount_percentage;
    if (typeof line.discount_amount === 'number') item.DiscountAmount = line.discount_amount;
    const total = amount(line.total_amount);
    // Xero keeps 2 decimal places here: more are refused, not rounded.
    item.UnitAmount = wholeCents(
      !taxed ? total : typeof line.sub_total === 'number' ? line.sub_total : exactDifference(total, amount(line.tax_amount)),
      `${at}.total_amount`,
    );
    items.push(item);
  }
  return { LineItems: items, LineAmountTypes: taxed ? 'Exclusive' : 'NoTax' };
}

/** Manual journals are in the organisation's base currency: currency_code may only name it. */
export async function checkBaseCurrency(ctx: ConnectorContext, input: Input): Promise<void> {
  if (!has(input, 'currency_code') || input.currency_code === null) return;
  const base = (await readOrganisation(ctx)).BaseCurrency;
  if (base !== undefined && input.currency_code !== base) {
    throw invalid('currency_code', `Xero manual journals are in the organisation's base currency ${base}; leave currency_code out or send ${base}`);
  }
}
