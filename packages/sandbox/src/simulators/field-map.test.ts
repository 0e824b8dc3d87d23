import { describe, expect, it } from 'vitest';
import { decimal, money, number, oneOf, readFields, renderFields, renderOnly, text, type FieldMap } from './field-map.ts';

interface Record {
  Name: string;
  Memo?: string;
  Qty: number;
  Rate: string;
  Price: string;
  Total: string;
  Status: 'Active' | 'Archived';
}

const FIELDS: FieldMap<Record> = {
  Title: ['Name', text],
  Reference: ['Memo', text],
  Quantity: ['Qty', number],
  CurrencyRate: ['Rate', decimal],
  UnitAmount: ['Price', money],
  Total: ['Total', renderOnly(money)],
  State: ['Status', oneOf({ Active: 'ACTIVE', Archived: 'ARCHIVED' }, 'Active')],
};

describe('field maps', () => {
  it('render a SANDBOX record in the platform’s names and encodings, leaving out what it lacks', () => {
    const record: Record = { Name: 'Acme', Qty: 2, Rate: '1.25', Price: '10.10', Total: '20.20', Status: 'Archived' };
    expect(renderFields(FIELDS, record)).toEqual({
      Title: 'Acme',
      Quantity: 2,
      CurrencyRate: 1.25,
      UnitAmount: 10.1,
      Total: 20.2,
      State: 'ARCHIVED',
    });
  });

  it('read back only the fields a write body carries, never a render-only one', () => {
    expect(
      readFields(FIELDS, { Title: 42, Reference: 'PO 7', Quantity: '3', CurrencyRate: 1.5, UnitAmount: 9.99, Total: 99, State: 'GONE' }),
    ).toEqual({
      Name: '42',
      Memo: 'PO 7',
      Rate: '1.5',
      Price: 9.99,
      Status: 'Active',
    });
    expect(readFields(FIELDS, { State: 'ARCHIVED', UnitAmount: null })).toEqual({ Status: 'Archived' });
    expect(readFields(FIELDS, {})).toEqual({});
  });
});
