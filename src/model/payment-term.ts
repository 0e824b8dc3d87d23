/** Payment term: when a bill or invoice falls due and any early-payment discount. Not shown in the spec. */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  Str,
  StringEnum,
  SubsidiaryRefSchema,
  UpdatedAtProperty,
} from './shared.ts';

export const PAYMENT_TERM_STATUSES = ['active', 'archived'] as const;

export const PaymentTermSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    name: Nullable(Str('Name of the payment term.'), 'Name of the payment term, such as "Net 30".'),
    status: Nullable(
      StringEnum(PAYMENT_TERM_STATUSES, 'Status of the payment term.'),
      'Status of the payment term; null when the platform has no status.',
    ),
    due_days: Nullable(
      Type.Integer({ minimum: 0, description: 'Days after issue until due.' }),
      'Days after the issue date until the document is due; null when the term is not day-based.',
    ),
    discount_days: Nullable(
      Type.Integer({ minimum: 0, description: 'Days after issue the discount applies.' }),
      'Days after the issue date within which the early-payment discount applies; null when there is none.',
    ),
    discount_percentage: Nullable(
      Type.Number({ description: 'Early-payment discount in percent.' }),
      'Early-payment discount in percent; null when there is none.',
    ),
    term_name: Str('The reference\'s name for `name`: the same value, "" when the term has none (docs/reference.md).'),
    discount_percent: Nullable(
      Type.Number({ description: "The reference's name for `discount_percentage`." }),
      "The reference's name for `discount_percentage`: the same value.",
    ),
    subsidiaries: Type.Array(SubsidiaryRefSchema, { description: 'Subsidiaries the payment term is available in.' }),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'Terms saying when a bill or invoice falls due, and any early-payment discount.' },
);

export type PaymentTerm = Static<typeof PaymentTermSchema>;

/** The reference's field names beside ours, filled from ours by every connector the same way. */
export function withReferenceNames<T extends { name: string | null; discount_percentage: number | null }>(
  term: T,
): T & { term_name: string; discount_percent: number | null } {
  return { ...term, term_name: term.name ?? '', discount_percent: term.discount_percentage };
}
