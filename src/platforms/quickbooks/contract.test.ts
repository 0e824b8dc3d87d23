import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, TARGETS } from '../../../scripts/gen-quickbooks-contract.ts';
import { platformRefusal as refusal } from '../../../test/support/platform-refusal.ts';
import { parseEntity, parseRecord, parseRecords } from './contract.ts';

describe("QuickBooks Online answers parsed against Intuit's published schema", () => {
  it('generated/native.ts and contract-schemas.json are what the script makes of the schema and selection.ts (run `node scripts/gen-quickbooks-contract.ts`)', () => {
    const { types, schemas } = generate();
    expect(readFileSync(TARGETS.types, 'utf8')).toBe(types);
    expect(readFileSync(TARGETS.schemas, 'utf8')).toBe(schemas);
  });

  it('passes records that fit, fields the connector does not read included', () => {
    const bills = [
      {
        Id: '146',
        SyncToken: '0',
        domain: 'QBO',
        sparse: false,
        MetaData: { CreateTime: '2024-01-02T10:00:00-08:00', LastUpdatedTime: '2024-01-02T10:00:00-08:00' },
        VendorRef: { value: '56', name: 'Bob' },
        Line: [
          {
            Id: '1',
            LineNum: 1,
            Amount: 12.5,
            DetailType: 'AccountBasedExpenseLineDetail',
            AccountBasedExpenseLineDetail: { AccountRef: { value: '7' } },
          },
        ],
        TotalAmt: 12.5,
        CustomField: [{ DefinitionId: '1', Type: 'StringType' }],
      },
    ];
    expect(parseRecords('Bill', bills)).toBe(bills);
    expect(parseEntity('Preferences', { CurrencyPrefs: { MultiCurrencyEnabled: true, HomeCurrency: { value: 'USD' } } })).toMatchObject({
      CurrencyPrefs: { MultiCurrencyEnabled: true },
    });
  });

  it('reads a CDC tombstone (status Deleted, nothing but Id and MetaData)', () => {
    const tombstone = { domain: 'QBO', status: 'Deleted', Id: '9', MetaData: { LastUpdatedTime: '2024-01-02T10:00:00-08:00' } };
    expect(parseRecords('Invoice', [tombstone])).toEqual([tombstone]);
  });

  it('refuses a record that does not, as a PlatformError naming the path, before any mapping', () => {
    const error = refusal(() => parseRecords('Bill', [{ Id: '1' }, { Id: '2', Line: [{}, { Amount: '12.50' }] }]));
    expect(error).toMatchObject({ kind: 'server', platformCode: 'QBO_CONTRACT', httpStatus: 200 });
    expect(error.platformMessage).toBe("QuickBooks Online's answer does not fit its published contract: Bill[1].Line[1].Amount must be number");
    expect(refusal(() => parseRecords('Customer', { Id: '1' })).platformMessage).toMatch(/: Customer must be array$/);
    expect(refusal(() => parseRecord('Customer', { Id: 1 })).platformMessage).toMatch(/: Customer\.Id must be string$/);
    expect(refusal(() => parseEntity('CompanyInfo', { CompanyName: ['x'] })).platformMessage).toMatch(/CompanyInfo\.CompanyName must be string$/);
  });
});
