import type { AuditInfo } from '../shared/common.schema.js';
import { builder } from './builder.js';

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
