/** The `connection` object every data response carries. */
import { Type, type Static } from 'typebox';
import type { ConnectionRecord } from '../../connections/types.ts';

export const ConnectionRefSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Connection id.' }),
    platform: Type.String({ description: 'Upper-case platform identifier.' }),
    orgId: Type.String({ description: "The client's organisation id." }),
  },
  { additionalProperties: false, description: 'The connection the data belongs to.' },
);

export type ConnectionRef = Static<typeof ConnectionRefSchema>;

export function connectionRef(c: ConnectionRecord): ConnectionRef {
  return { id: c.id, platform: c.platform ?? '', orgId: c.organizationId };
}
