import { Type } from 'typebox';
import { StringEnum } from '../../../model/shared.ts';
import { DASHBOARD_ROLES } from '../../../sql/dashboard-users.ts';

export const RoleSchema = StringEnum(DASHBOARD_ROLES, 'admin: everything; developer: everything but users and credentials; viewer: read only.');

export const DashboardUserSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  email: Type.String(),
  role: RoleSchema,
  has_password: Type.Boolean({ description: 'false until the user has used their sign-in link (or signs in only through OpenID Connect).' }),
  created_at: Type.String({ format: 'date-time' }),
  last_sign_in_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const InviteBodySchema = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 255, description: 'The person’s email: they sign in with it.' }), role: RoleSchema },
  { additionalProperties: false },
);

export const InvitationSchema = Type.Object({
  user: DashboardUserSchema,
  sign_in_url: Type.String({ description: 'One-time link (7 days) where the person chooses a password. Shown once: pass it on now.' }),
});

export const UserIdParams = Type.Object({ user_id: Type.String({ format: 'uuid', description: 'Dashboard user id' }) });
