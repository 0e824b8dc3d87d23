/**
 * The business's tax areas: one per city of its country profile, where its customers are, each the place whose state
 * (or province), county and local taxes are charged together. Entered when the books begin; drawn from no random
 * source and emitted after every other record, so the books before them are what they were without them. Nothing
 * posts to a tax area.
 */
import { stamp } from '../dates.ts';
import type { NativeTaxArea } from '../native.ts';
import type { Emitter } from './emitter.ts';
import type { Profile } from './profiles.ts';

export function generateTaxAreas(out: Emitter, profile: Profile, start: string): NativeTaxArea[] {
  return profile.cities.map(({ city, region }, n) => {
    // A minute apart from 09:00 on the first day of the books, after the payment methods (made from 08:00).
    const at = stamp(start, 32_400 + n * 60);
    const area: NativeTaxArea = {
      Id: out.nextId('tax_area'),
      CreatedAt: at,
      UpdatedAt: at,
      Code: `${city.toUpperCase().replace(/[^A-Z0-9]+/g, '-')}-${region.toUpperCase().replace(/[^A-Z0-9]+/g, '-')}`,
      Description: `${city}, ${region}`,
      Country: profile.country,
      Region: region,
      Status: 'Active',
    };
    out.push('tax_area', area);
    return area;
  });
}
