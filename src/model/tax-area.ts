/**
 * Tax area: a place whose tax jurisdictions are charged together (a city's state, county and district sales taxes).
 * The reference's object (2024-08-31), read-only.
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

export const TaxAreaSchema = Type.Object(
  {
    id: IdProperty,
    platform_id: PlatformIdProperty,
    country: Nullable(
      Str('ISO 3166-1 alpha-2 code of the country.'),
      'Country of the tax area (ISO 3166-1 alpha-2); null when the platform names none.',
    ),
    description: Nullable(
      Str('Description of the tax area.'),
      'Description of the tax area, such as "Sacramento, CA"; null when the platform has none.',
    ),
    created_at: CreatedAtProperty,
    updated_at: UpdatedAtProperty,
    last_synced_at: LastSyncedAtProperty,
    platform_data: PlatformDataProperty,
  },
  { additionalProperties: false, description: 'A place whose tax jurisdictions are charged together, as a sales tax area.' },
);

export type TaxArea = Static<typeof TaxAreaSchema>;
