/** SANDBOX customers and vendors as Xero's one Contacts list: a customer IsCustomer, a vendor IsSupplier. */
import type { NativeAddress, NativeContact } from '../../native.ts';
import { renderFields } from '../field-table.ts';
import { uuidOfId } from '../uuid-ids.ts';
import { msDate } from './dates.ts';
import { CONTACT_FIELDS } from './fields.ts';
import type { Json } from './view.ts';

/** Xero keeps a postal (POBOX) and a street address: billing is the postal one, shipping and remittance the street one. */
function address(a: NativeAddress): Json {
  return {
    AddressType: a.Kind === 'Billing' ? 'POBOX' : 'STREET',
    AddressLine1: a.Line1,
    ...(a.Line2 === undefined ? {} : { AddressLine2: a.Line2 }),
    City: a.City,
    Region: a.Region,
    PostalCode: a.PostalCode,
    Country: a.Country,
  };
}

export function renderContact(c: NativeContact, role: 'customer' | 'vendor'): Json {
  const [first = '', ...rest] = (c.ContactName ?? '').trim().split(/\s+/);
  return {
    ContactID: uuidOfId(c.Id),
    ...renderFields(CONTACT_FIELDS, c),
    ...(first === '' ? {} : { FirstName: first, LastName: rest.join(' ') }),
    IsSupplier: role === 'vendor',
    IsCustomer: role === 'customer',
    Addresses: c.Addresses.map(address),
    Phones: c.Phone === undefined ? [] : [{ PhoneType: 'DEFAULT', PhoneNumber: c.Phone }],
    ContactPersons: c.People.map((p) => ({
      FirstName: p.FirstName,
      LastName: p.LastName,
      ...(p.Email === undefined ? {} : { EmailAddress: p.Email }),
      IncludeInEmails: false,
    })),
    ContactGroups: [],
    HasAttachments: false,
    UpdatedDateUTC: msDate(c.UpdatedAt),
  };
}

/** The summary of a contact Xero embeds in documents. */
export function contactRef(c: NativeContact | undefined, id: string): Json {
  return { ContactID: uuidOfId(id), ...(c === undefined ? {} : { Name: c.DisplayName }) };
}
