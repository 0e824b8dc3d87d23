/** Tax agency: an authority taxes are reported and paid to. */
import { Type, type Static } from 'typebox';
import { CreatedAtProperty, IdProperty, LastSyncedAtProperty, PlatformDataProperty, PlatformIdProperty, Str, UpdatedAtProperty } from './shared.ts';

export const TaxAgencySchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    name: Str('Name of the tax agency.'),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'An authority that taxes are reported and paid to.' },
);

export type TaxAgency = Static<typeof TaxAgencySchema>;
