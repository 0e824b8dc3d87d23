import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, TARGETS } from '../../../scripts/gen-xero-contract.ts';
import { platformRefusal as refusal } from '../../../test/support/platform-refusal.ts';
import { listOf } from './client.ts';
import { parseConnections, parseList } from './contract.ts';

describe('Xero answers parsed against the published contract', () => {
  it('generated/types.ts and contract-schemas.json are what the script makes of the contract and selection.ts (run `node scripts/gen-xero-contract.ts`)', () => {
    const { types, schemas } = generate();
    expect(readFileSync(TARGETS.types, 'utf8')).toBe(types);
    expect(readFileSync(TARGETS.schemas, 'utf8')).toBe(schemas);
  });

  it('passes an answer that fits, fields the connector does not read included', () => {
    const invoices = [
      {
        InvoiceID: 'i1',
        Type: 'ACCPAY',
        Status: 'AUTHORISED',
        Total: 12.5,
        LineItems: [{ LineAmount: 12.5, Description: 'x', Tracking: [] }],
        Contact: { ContactID: 'c1', Name: 'Vendor' },
        BrandingThemeID: 'anything',
        SomethingNew: { nested: [1] },
      },
    ];
    expect(parseList('Invoices', invoices, 200)).toBe(invoices);
  });

  it('refuses one that does not, as a PlatformError naming the path, before any mapping', () => {
    const error = refusal(() => parseList('Invoices', [{ InvoiceID: 'i1' }, { InvoiceID: 'i2', LineItems: [{}, { LineAmount: '12.50' }] }], 200));
    expect(error).toMatchObject({ kind: 'server', platformCode: 'XERO_CONTRACT', httpStatus: 200 });
    expect(error.platformMessage).toBe("Xero's answer does not fit its published contract: Invoices[1].LineItems[1].LineAmount must be number");
    expect(refusal(() => parseList('Contacts', { Contacts: [] }, 200)).platformMessage).toMatch(/: Contacts must be array$/);
  });

  it('reads a missing list as empty, as before', () => {
    expect(listOf({ status: 200, headers: {}, body: { Id: 'x' } }, 'Accounts')).toEqual([]);
    expect(refusal(() => listOf({ status: 200, headers: {}, body: { Accounts: [{ Code: 400 }] } }, 'Accounts')).platformMessage).toMatch(
      /Accounts\[0\]\.Code must be string$/,
    );
  });

  it('parses GET /connections against the identity contract', () => {
    expect(parseConnections([{ tenantId: 't', tenantType: 'ORGANISATION' }], 200)).toHaveLength(1);
    expect(refusal(() => parseConnections([{ tenantId: 7 }], 200)).platformMessage).toMatch(/connections\[0\]\.tenantId must be string$/);
  });
});
