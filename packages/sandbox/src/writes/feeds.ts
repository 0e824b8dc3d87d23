/**
 * Writes of bank feed accounts: one feed per ledger account unless the caller asks to take it over.
 * A feed is Ready (accepts statement lines) exactly while it is linked to a ledger account: created
 * with an AccountId it is ready at once; created without one it waits until the business links it
 * (the mapping link page, or an update that sets AccountId).
 */
import { formatCents } from '../money.ts';
import type { NativeFeedAccount } from '../native.ts';
import { invalid } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { pick } from './documents.ts';
import { account, cents, date, existing, ids, loadOr404, oneOf, optionalTexts, text, type Body } from './validate.ts';

const FEED_KINDS = ['Bank', 'Checking', 'Savings', 'CreditCard'] as const;

/** Ledger account types a feed can bring statement lines to. */
export const FEEDABLE_ACCOUNT_TYPES = ['Bank', 'CreditCard'] as const;

/**
 * Readiness follows the link: a feed that gains its ledger account becomes ready and active (what
 * finishing the linking flow does on a real platform); one that loses it stops being either.
 */
function setLinkState(feed: NativeFeedAccount, wasLinked: boolean): void {
  const linked = feed.AccountId !== undefined;
  feed.Ready = linked;
  if (linked && !wasLinked) feed.FeedStatus = 'Active';
  if (!linked && wasLinked) feed.FeedStatus = 'Inactive';
}

/**
 * Makes sure no other feed brings lines to `accountId`: refused unless `override`, in which case the
 * other feed gives the account up (additional_fields.override_existing of the unified write).
 */
async function takeAccount(unit: Unit, feed: NativeFeedAccount, accountId: string, override: boolean): Promise<void> {
  const other = await unit.findBy('bank_feed_account', 'AccountId', accountId, feed.Id);
  if (other === null) return;
  if (!override) throw invalid('DuplicateValue', `feed ${other} is already linked to account ${accountId}; send Override to replace it`, 'AccountId');
  const old = await loadOr404(unit, 'bank_feed_account', other);
  delete old.AccountId;
  setLinkState(old, true);
  unit.touch('bank_feed_account', old);
}

/** Links a feed to a ledger account (the platform's linking page): ready and active from now on. */
export async function linkFeed(unit: Unit, feedId: string, accountId: string): Promise<NativeFeedAccount> {
  const feed = await loadOr404(unit, 'bank_feed_account', feedId);
  const target = await account(unit, accountId, 'AccountId', FEEDABLE_ACCOUNT_TYPES);
  if (target?.Status === 'Archived') throw invalid('BusinessRule', `account ${accountId} is archived`, 'AccountId');
  await takeAccount(unit, feed, accountId, false);
  feed.AccountId = accountId;
  // Finishing the linking flow turns the feed on, whatever state it was left in.
  feed.Ready = true;
  feed.FeedStatus = 'Active';
  unit.touch('bank_feed_account', feed);
  return feed;
}

async function writeFeed(unit: Unit, body: Body, base: NativeFeedAccount | null): Promise<NativeFeedAccount> {
  const record: NativeFeedAccount = base ?? {
    Id: unit.nextId('bank_feed_account'),
    CreatedAt: unit.at,
    UpdatedAt: unit.at,
    Name: '',
    Kind: 'Checking',
    CurrencyCode: unit.state.palette?.currency ?? 'USD',
    AccountNumber: '',
    Institution: 'Sandbox Bank',
    InstitutionAccountId: '',
    FeedStatus: 'Inactive',
    Ready: false,
    CurrentBalance: '0.00',
    TransactionStartDate: unit.at.slice(0, 10),
  };
  const wasLinked = base?.AccountId !== undefined;
  record.Name = base === null ? text(body, 'Name', true) : pick(body, 'Name', () => text(body, 'Name', true), base.Name);
  record.Kind = oneOf(body, 'Kind', FEED_KINDS, record.Kind);
  optionalTexts(record, body, ['AccountId', 'ParentFeedId', 'ContactId', 'RoutingNumber', 'LineOfBusiness', 'Country'], base === null);
  if (record.Country !== undefined && !/^[A-Z]{2}$/.test(record.Country))
    throw invalid('InvalidField', 'Country must be an ISO 3166-1 alpha-2 code, such as US', 'Country');
  const linked = await account(unit, record.AccountId, 'AccountId', FEEDABLE_ACCOUNT_TYPES);
  await existing(unit, 'bank_feed_account', record.ParentFeedId, 'ParentFeedId');
  if (linked !== undefined) await takeAccount(unit, record, linked.Id, body.Override === true);
  for (const field of ['AccountNumber', 'InstitutionAccountId', 'CurrencyCode'] as const) {
    if (base === null || Object.hasOwn(body, field)) record[field] = text(body, field) ?? record[field];
  }
  if (record.InstitutionAccountId === '') record.InstitutionAccountId = `SBX-${record.Id.slice(5)}`;
  for (const field of ['CurrentBalance', 'AvailableBalance', 'CreditLimit'] as const) {
    if (base !== null && !Object.hasOwn(body, field)) continue;
    const amount = cents(body, field);
    if (amount !== undefined) record[field] = formatCents(amount);
    else if (field !== 'CurrentBalance') Reflect.deleteProperty(record, field);
  }
  if (base === null || Object.hasOwn(body, 'TransactionStartDate'))
    record.TransactionStartDate = date(body, 'TransactionStartDate') ?? record.TransactionStartDate;
  if (base === null || Object.hasOwn(body, 'PaymentNetworks')) {
    const networks = ids(body, 'PaymentNetworks');
    if (networks.length > 0) record.PaymentNetworks = networks;
    else delete record.PaymentNetworks;
  }
  setLinkState(record, wasLinked);
  if (Object.hasOwn(body, 'FeedStatus')) record.FeedStatus = oneOf(body, 'FeedStatus', ['Active', 'Inactive'] as const, record.FeedStatus);
  if (base === null) unit.create('bank_feed_account', record);
  else unit.touch('bank_feed_account', record);
  return record;
}

export const feedWriter = {
  create: (unit: Unit, body: Body) => writeFeed(unit, body, null),
  update: async (unit: Unit, id: string, body: Body) => writeFeed(unit, body, await loadOr404(unit, 'bank_feed_account', id)),
  delete: async (unit: Unit, id: string) => {
    await loadOr404(unit, 'bank_feed_account', id);
    const child = await unit.findBy('bank_feed_account', 'ParentFeedId', id, null);
    if (child !== null) throw invalid('InUse', `feed ${child} is a sub-account of ${id}`, 'Id');
    unit.remove('bank_feed_account', id);
  },
};
