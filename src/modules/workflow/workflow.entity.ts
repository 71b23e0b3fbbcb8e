import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { commonProperties, notDeletedFilter, tenantFilter } from '../../db/common.properties.js';
import { Client } from '../client/client.entity.js';
import { Dictionary } from '../dictionary/dictionary.entity.js';
import { type WorkflowDefinition, WorkflowUnits } from './workflow-definition.js';

/**
 * A workflow of one dictionary (docs/workflows.md). At most one per dictionary is enabled; entry states,
 * transitions fired, votes and notifications live in plain tables written by bulk SQL (workflow-*.ts).
 */
export const Workflow = defineEntity({
  name: 'Workflow',
  tableName: 'workflows',
  filters: { ...notDeletedFilter, ...tenantFilter },
  properties: {
    ...commonProperties(),
    client: () => p.manyToOne(Client).ref(),
    dictionary: () => p.manyToOne(Dictionary).ref(),
    name: p.string().length(255),
    description: p.text().nullable(),
    unit: p.enum([...WorkflowUnits]),
    enabled: p.boolean().default(false),
    definition: p.json<WorkflowDefinition>(),
  },
});
export type Workflow = InferEntity<typeof Workflow>;
