import { Type } from 'typebox';
import { EnvironmentSchema } from '../organizations/schemas.ts';

export const RedirectUrlsSchema = Type.Object({
  environment: EnvironmentSchema,
  urls: Type.Array(Type.String(), { description: 'Allowed redirect URLs as scheme://host[:port]/path; any query string is allowed on them.' }),
  updated_at: Type.String({ format: 'date-time' }),
});
