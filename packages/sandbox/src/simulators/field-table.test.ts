import { describe, expect, it } from 'vitest';
import { decimal, fixed, lookup, money, number, outOnly, readFields, renderFields, renderOnly, shown, text, type FieldTable } from './field-table.ts';

interface Person {
  Name: string;
  Email?: string;
  Kind: 'Staff' | 'Guest';
  Visits: number;
}

const KINDS = lookup({ Staff: 'EMPLOYEE', Guest: 'VISITOR' });
const TABLE: FieldTable<Person> = {
  DisplayName: 'Name',
  PrintName: ['Name', shown],
  'EmailAddr.Address': 'Email',
  Type: ['Kind', KINDS],
  VisitCount: ['Visits', outOnly((n) => (typeof n === 'number' && n > 0 ? n : undefined))],
  Source: fixed('sandbox'),
};

describe('field tables', () => {
  it('render a record at nested paths, leaving out what has no value', () => {
    expect(renderFields(TABLE, { Name: 'Ann', Kind: 'Staff', Visits: 3 } satisfies Person)).toEqual({
      DisplayName: 'Ann',
      PrintName: 'Ann',
      Type: 'EMPLOYEE',
      VisitCount: 3,
      Source: 'sandbox',
    });
    expect(renderFields(TABLE, { Name: 'Bo', Email: 'bo@example.com', Kind: 'Guest', Visits: 0 })).toEqual({
      DisplayName: 'Bo',
      PrintName: 'Bo',
      EmailAddr: { Address: 'bo@example.com' },
      Type: 'VISITOR',
      Source: 'sandbox',
    });
  });

  it('read a body back field for field: only what was sent and is writable', () => {
    expect(readFields(TABLE, { DisplayName: 'Cy', PrintName: 'ignored', VisitCount: 9, Source: 'x', Type: 'VISITOR' })).toEqual({
      Name: 'Cy',
      Kind: 'Guest',
    });
    // A sparse body leaves everything it does not name alone.
    expect(readFields(TABLE, {})).toEqual({});
    // A nested object sent without its field clears it; one not sent leaves it.
    expect(readFields(TABLE, { EmailAddr: {} })).toEqual({ Email: null });
    expect(readFields(TABLE, { EmailAddr: 'not an object' })).toEqual({});
    // An unknown enumeration value is ignored.
    expect(readFields(TABLE, { Type: 'ROBOT' })).toEqual({});
  });

  it('encode text, numbers, decimals and money each way, an enumeration falling back to its default', () => {
    interface Line {
      Name: string;
      Memo?: string;
      Qty: number;
      Rate: string;
      Price: string;
      Total: string;
      Status: 'Active' | 'Archived';
    }
    const LINE: FieldTable<Line> = {
      Title: ['Name', text],
      Reference: ['Memo', text],
      Quantity: ['Qty', number],
      CurrencyRate: ['Rate', decimal],
      UnitAmount: ['Price', money],
      Total: ['Total', renderOnly(money)],
      State: ['Status', lookup({ Active: 'ACTIVE', Archived: 'ARCHIVED' }, 'Active')],
    };
    const line: Line = { Name: 'Acme', Qty: 2, Rate: '1.25', Price: '10.10', Total: '20.20', Status: 'Archived' };
    expect(renderFields(LINE, line)).toEqual({ Title: 'Acme', Quantity: 2, CurrencyRate: 1.25, UnitAmount: 10.1, Total: 20.2, State: 'ARCHIVED' });
    expect(readFields(LINE, { Title: 42, Reference: 'PO 7', Quantity: '3', CurrencyRate: 1.5, UnitAmount: 9.99, Total: 99, State: 'GONE' })).toEqual({
      Name: '42',
      Memo: 'PO 7',
      Rate: '1.5',
      Price: 9.99,
      Status: 'Active',
    });
    expect(readFields(LINE, { State: 'ARCHIVED', UnitAmount: null })).toEqual({ Status: 'Archived' });
  });
});
