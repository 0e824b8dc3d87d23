/** Department: a tracking dimension. Not shown in the spec; designed after the location. */
import type { Static } from 'typebox';
import { trackingCategorySchema } from './tracking.ts';

export const DepartmentSchema = trackingCategorySchema('department', 'A department of the business, used to track transactions.');

export type Department = Static<typeof DepartmentSchema>;
