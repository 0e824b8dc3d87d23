/**
 * Xero has one Contacts list; a contact is a vendor when Xero flags it a
 * supplier and a customer when it flags it a customer (both: it is both).
 * Xero sets the flags only once a bill or invoice exists, so a contact with
 * neither flag (a customer just created through the API) counts as a customer.
 */
import { currencyCodesOf } from '../../../model/vendor.ts';
import { xeroIso } from '../dates.ts';
import type { XeroContact } from '../types.ts';
import { addresses, deepLink, phone, text, type Mapped } from './common.ts';
import { UNFILLED } from './unfilled.ts';

/**
 * Xero has one list of contacts and flags them IsSupplier and IsCustomer once they have a bill or a sales invoice (the
 * flags are read-only in its API). A contact with neither flag (new, or made through our vendor or customer endpoint
 * before its first document) is listed under both, so a vendor we created is a vendor at the next sync.
 */
export function isVendor(c: XeroContact): boolean {
  return c.IsSupplier === true || c.IsCustomer !== true;
}

export function isCustomer(c: XeroContact): boolean {
  return c.IsCustomer === true || c.IsSupplier !== true;
}

function status(s: string | undefined): Mapped<'customer'>['status'] {
  return s === 'ACTIVE' ? 'active' : s === 'ARCHIVED' ? 'archived' : 'unknown';
}

function contactCommon(c: XeroContact) {
  const person = [c.FirstName, c.LastName].filter((v) => text(v) !== null).join(' ');
  return {
    platform_id: c.ContactID ?? '',
    status: status(c.ContactStatus),
    contact_name: text(person),
    currency_code: text(c.DefaultCurrency),
    email: text(c.EmailAddress),
    phone: phone(c.Phones),
    tax_number: text(c.TaxNumber),
    addresses: addresses(c.Addresses),
    contacts: (c.ContactPersons ?? []).map((p) => ({
      first_name: text(p.FirstName),
      last_name: text(p.LastName),
      email: text(p.EmailAddress),
      phone: null,
    })),
    updated_at: xeroIso(c.UpdatedDateUTC),
  };
}

export function mapVendor(c: XeroContact): Mapped<'vendor'> {
  return {
    ...UNFILLED.vendor,
    ...contactCommon(c),
    vendor_name: text(c.Name),
    display_name: text(c.Name),
    bank_account_number: text(c.BankAccountDetails),
    currency_codes: currencyCodesOf(text(c.DefaultCurrency)),
    website: text(c.Website),
    platform_url: deepLink('vendor', c.ContactID ?? ''),
  };
}

export function mapCustomer(c: XeroContact): Mapped<'customer'> {
  return {
    ...UNFILLED.customer,
    ...contactCommon(c),
    customer_name: text(c.Name),
    first_name: text(c.FirstName),
    last_name: text(c.LastName),
    platform_url: deepLink('customer', c.ContactID ?? ''),
  };
}
