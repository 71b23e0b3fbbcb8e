/** Comment: the latest comments on a concept or on one of its terms (GraphQL only reads them). */
import { builder } from '../../../graphql/builder.js';
import type { CommentDto } from '../concept.schema.js';

export const CommentRef = builder.objectRef<CommentDto>('Comment').implement({
  description: 'A comment on a concept or a term (the latest 50 per entry).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    oid: t.exposeString('oid', { nullable: true }),
    text: t.exposeString('text'),
    authorName: t.exposeString('authorName', { nullable: true }),
    userId: t.exposeInt('userId', { nullable: true }),
    dictionaryId: t.exposeInt('dictionaryId'),
    fieldLevel: t.exposeString('fieldLevel', { description: 'CONCEPT or TERM' }),
    entryId: t.exposeInt('entryId', { description: 'the concept id or the term id' }),
    date: t.exposeFloat('date', { description: 'ms epoch' }),
  }),
});
