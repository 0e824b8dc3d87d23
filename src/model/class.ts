/** Class: a tracking dimension. Not shown in the spec; designed after the location. */
import type { Static } from 'typebox';
import { trackingCategorySchema } from './tracking.ts';

export const ClassSchema = trackingCategorySchema('class', 'A class (tracking category) used to classify transactions.');

export type Class = Static<typeof ClassSchema>;
