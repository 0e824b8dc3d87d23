import { describe, expect, it } from 'vitest';
import { fixed, lookup, outOnly, readFields, renderFields, shown, type FieldTable } from './field-table.ts';

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
});
