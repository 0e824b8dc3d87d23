/** Department: a tracking dimension. Not shown in the spec; designed after the location. */
import { Type, type Static } from 'typebox';
import { PlatformUrlProperty } from './shared.ts';
import { trackingCategorySchema } from './tracking.ts';

const DESCRIPTION = 'A department of the business, used to track transactions.';
const TrackingDepartmentSchema = trackingCategorySchema('department', DESCRIPTION);

/** The tracking shape plus the department's address on the platform, which the reference gives departments (not classes). */
export const DepartmentSchema = Type.Object(
  { ...TrackingDepartmentSchema.properties, platform_url: PlatformUrlProperty },
  { additionalProperties: false, description: DESCRIPTION },
);

export type Department = Static<typeof DepartmentSchema>;
