/** ConceptLock: the live edit lock a concept shows (the lock mutations are in concept.mutations.ts). */
import { builder } from '../../../graphql/builder.js';
import type { ConceptLockDto } from '../concept.schema.js';

export const ConceptLockRef = builder.objectRef<ConceptLockDto>('ConceptLock').implement({
  description: 'A live edit lock.',
  fields: (t) => ({
    userId: t.exposeInt('userId'),
    name: t.exposeString('name', { nullable: true, description: 'login of the holder' }),
    fullName: t.exposeString('fullName', { nullable: true }),
    mine: t.exposeBoolean('mine', { description: "true when the caller's session holds the lock" }),
    expirationTime: t.exposeFloat('expirationTime', { description: 'ms epoch' }),
  }),
});
