import type { AuditInfo } from '../shared/common.schema.js';
import { builder } from './builder.js';
import { PAGE_CONTENT_COST } from './cost.js';

export const AuditInfoRef = builder.objectRef<AuditInfo>('AuditInfo').implement({
  description: 'Who made a change and when.',
  fields: (t) => ({
    id: t.int({ nullable: true, resolve: (audit) => audit.id }),
    name: t.string({ nullable: true, description: 'user login', resolve: (audit) => audit.name }),
    fullName: t.string({ nullable: true, resolve: (audit) => audit.fullName }),
    time: t.float({ description: 'ms epoch', resolve: (audit) => audit.time }),
  }),
});

export const FormatEnum = builder.enumType('Format', { values: ['ID', 'SHORT', 'FULL', 'EDIT'] as const });

interface PageOf<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  number: number;
  size: number;
  first: boolean;
  last: boolean;
  sort: string | null;
}

/** The spec's Page object as a GraphQL type around one item type. */
export function pageRef<T>(
  name: string,
  item: ReturnType<ReturnType<typeof builder.objectRef<T>>['implement']>,
) {
  return builder.objectRef<PageOf<T>>(name).implement({
    fields: (t) => ({
      content: t.field({ type: [item], complexity: PAGE_CONTENT_COST, resolve: (page) => page.content }),
      totalElements: t.exposeInt('totalElements'),
      totalPages: t.exposeInt('totalPages'),
      number: t.exposeInt('number'),
      size: t.exposeInt('size'),
      first: t.exposeBoolean('first'),
      last: t.exposeBoolean('last'),
      sort: t.exposeString('sort', { nullable: true }),
    }),
  });
}
