/**
 * Unified write bodies → QBO request bodies on the payables side beyond bills: vendors. Built from the shared pieces
 * of inbound.ts (copy, refuse, the contact fields), with the same rules: only fields present are written, fields QBO
 * has no place for are refused with a 400 naming them.
 */
import type { ConnectorContext } from '../connector.ts';
import { has, type Input, type Native } from '../inbound.ts';
import { contactFields, copy, refuse, str, type AddressKinds } from './inbound.ts';

/** The connector reads a vendor's BillAddr only (mapVendor): any other address would not come back. */
const VENDOR_ADDRESSES: AddressKinds = {
  fields: { billing: 'BillAddr' },
  only: "QuickBooks Online keeps a vendor's billing address (BillAddr) only.",
};

/**
 * A Vendor: a name list entry like a customer, with its own names for the tax id (TaxIdentifier) and the terms
 * (TermRef). QBO has no sub-vendors, registration number or subsidiaries.
 */
export async function vendorBody(ctx: ConnectorContext, input: Input): Promise<Native> {
  refuse(input, ['parent_id', 'subsidiaries', 'registration_number']);
  const out: Native = {};
  await copy(ctx, input, out, [
    ['vendor_name', 'DisplayName', 'text'],
    ['tax_number', 'TaxIdentifier', 'text'],
    ['payment_terms_id', 'TermRef', 'payment_term'],
  ]);
  if (has(input, 'website')) out.WebAddr = { URI: str(input.website) };
  contactFields(input, out, VENDOR_ADDRESSES);
  return out;
}
