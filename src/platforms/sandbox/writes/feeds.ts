/** Writes of bank feed accounts: one feed per ledger account unless the caller asks to take it over. */
import { formatCents } from '../money.ts';
import type { NativeFeedAccount } from '../native.ts';
import { invalid } from '../native-error.ts';
import type { Unit } from '../store/unit.ts';
import { pick } from './documents.ts';
import { account, cents, date, existing, ids, loadOr404, oneOf, optionalTexts, text, type Body } from './validate.ts';

const FEED_KINDS = ['Bank', 'Checking', 'Savings', 'CreditCard'] as const;

async function writeFeed(unit: Unit, body: Body, base: NativeFeedAccount | null): Promise<NativeFeedAccount> {
  const record: NativeFeedAccount = base ?? {
    Id: unit.nextId('bank_feed_account'), CreatedAt: unit.at, UpdatedAt: unit.at, Name: '', Kind: 'Checking', CurrencyCode: unit.state.palette?.currency ?? 'USD',
    AccountNumber: '', Institution: 'Sandbox Bank', InstitutionAccountId: '', FeedStatus: 'Active', Ready: true, CurrentBalance: '0.00',
    TransactionStartDate: unit.at.slice(0, 10),
  };
  record.Name = base === null ? text(body, 'Name', true) : pick(body, 'Name', () => text(body, 'Name', true), base.Name);
  record.Kind = oneOf(body, 'Kind', FEED_KINDS, record.Kind);
  optionalTexts(record, body, ['AccountId', 'ParentFeedId', 'ContactId', 'RoutingNumber', 'LineOfBusiness'], base === null);
  const linked = await account(unit, record.AccountId, 'AccountId', ['Bank', 'CreditCard']);
  await existing(unit, 'bank_feed_account', record.ParentFeedId, 'ParentFeedId');
  if (linked !== undefined) {
    const other = await unit.findBy('bank_feed_account', 'AccountId', linked.Id, record.Id);
    if (other !== null) {
      // additional_fields.override_existing: the new feed takes the account over from the old one.
      if (body.Override !== true) throw invalid('DuplicateValue', `feed ${other} is already linked to account ${linked.Id}; send Override to replace it`, 'AccountId');
      const old = await loadOr404(unit, 'bank_feed_account', other);
      delete old.AccountId;
      old.FeedStatus = 'Inactive';
      unit.touch('bank_feed_account', old);
    }
  }
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
  if (base === null || Object.hasOwn(body, 'TransactionStartDate')) record.TransactionStartDate = date(body, 'TransactionStartDate') ?? record.TransactionStartDate;
  if (base === null || Object.hasOwn(body, 'PaymentNetworks')) {
    const networks = ids(body, 'PaymentNetworks');
    if (networks.length > 0) record.PaymentNetworks = networks;
    else delete record.PaymentNetworks;
  }
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
