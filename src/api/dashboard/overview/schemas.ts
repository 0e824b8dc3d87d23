/** Shapes shared by the overview's endpoints. */
import { Type } from 'typebox';
import { Nullable } from '../../../model/shared.ts';

export const ConnectionRefSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Nullable(Type.String(), 'The name given to the connection, if any.'),
  platform: Nullable(Type.String(), 'Null until the link flow picks one.'),
  store_name: Nullable(Type.String(), "The platform account's own name (company or shop), once linked."),
});

/** An integer query value from the dashboard's own pages: a clear 400 when it is not one in range. */
export function boundedInteger(description: string, minimum: number, maximum: number) {
  return Type.Optional(Type.Integer({ minimum, maximum, description }));
}
