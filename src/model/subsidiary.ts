/** Subsidiary: a legal entity within the business (ERP platforms). Not shown in the spec. */
import { Type, type Static } from 'typebox';
import {
  CreatedAtProperty,
  CurrencyCodeEnum,
  IdProperty,
  LastSyncedAtProperty,
  Nullable,
  PlatformDataProperty,
  PlatformIdProperty,
  Str,
  StringEnum,
  UpdatedAtProperty,
} from './shared.ts';

export const SUBSIDIARY_STATUSES = ['active', 'inactive'] as const;

export const SubsidiarySchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    parent_id: Nullable(Str('Service id of the parent subsidiary.'), 'Service id of the parent subsidiary; null for the top-level entity.'),
    name: Nullable(Str('Name of the subsidiary.'), 'Name of the subsidiary.'),
    status: StringEnum(SUBSIDIARY_STATUSES, 'Status of the subsidiary.'),
    currency_code: Nullable(
      CurrencyCodeEnum('Base currency of the subsidiary.'),
      'Base currency of the subsidiary; null when the platform does not say.',
    ),
    elimination: Type.Boolean({
      description: 'Whether the subsidiary is an elimination subsidiary, which only holds consolidation entries; false where the platform has none.',
    }),
    country: Nullable(Str('Country of the subsidiary.'), 'Country of the subsidiary, as the platform gives it.'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  {
    additionalProperties: false,
    description: 'A legal entity within the business. Its id is what subsidiary_id fields and default_subsidiary_id refer to.',
  },
);

export type Subsidiary = Static<typeof SubsidiarySchema>;
