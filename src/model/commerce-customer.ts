/**
 * A buyer of a store or a customer of a payments account (commerce customer), distinct from the accounting customer.
 * Not shown in the spec; follows the reference's commerce "Customers" (2024-08-31), decisions in docs/reference.md.
 */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  Str,
  UpdatedAtProperty,
} from './shared.ts';

function NullableText(description: string) {
  return Nullable(Str(description), description);
}

export const CommerceCustomerSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    email: NullableText('Email address of the customer.'),
    first_name: NullableText('First name of the customer.'),
    last_name: NullableText('Last name of the customer.'),
    phone: NullableText('Phone number of the customer.'),
    orders: Type.Array(Type.Object({ id: Str('Service id of the order.') }, { additionalProperties: false, description: 'An order.' }), {
      description: 'Orders the customer placed (those stored).',
    }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A customer of a store or payments account.' },
);

export type CommerceCustomer = Static<typeof CommerceCustomerSchema>;
