import { builder } from '../../graphql/builder.js';
import { User } from './user.entity.js';

export interface UserSummary {
  id: number;
  username: string;
  fullName: string | null;
}

/** Users as they appear inside other objects; loaded in one query per request level, never one by one. */
export const UserSummaryRef = builder.loadableObjectRef<UserSummary, number>('UserSummary', {
  load: async (ids: number[], context) => {
    const users = await context.request.em.find(
      User,
      { id: { $in: ids } },
      { fields: ['id', 'username', 'fullName'], filters: false },
    );
    const byId = new Map(users.map((user) => [user.id, user]));
    return ids.map((id): UserSummary | Error => {
      const user = byId.get(id);
      return user
        ? { id, username: user.username, fullName: user.fullName ?? null }
        : new Error(`User ${id} not found`);
    });
  },
});

UserSummaryRef.implement({
  description: 'A user as shown in audit information.',
  fields: (t) => ({
    id: t.exposeInt('id'),
    username: t.exposeString('username'),
    fullName: t.exposeString('fullName', { nullable: true }),
  }),
});
