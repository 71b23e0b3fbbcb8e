/** POST /dictionaries/import-multiterm/preview: the MultiTerm import's mapping step (docs/exchange.md). */
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.js';
import { registerUploads } from '../../rest/multipart.js';
import type { ContextFactory } from '../../rest/procedure-call.js';
import type { RawRoute } from '../../rest/raw-route.js';
import { type UploadMember, uploadImportRoute } from '../tbx/upload-import-route.js';
import { MtfPreviewSchema } from './mtf-preview.js';

/** The termbase definition beside a MultiTerm XML file, on the preview and on POST /dictionaries/import-tbx. */
export const DEFINITION_MEMBER: UploadMember = {
  name: 'definition',
  schema: { type: 'string' },
  file: true,
  description: 'MultiTerm XML: the termbase definition (.xdt); its languages and fields are created first',
};

const previewRoute = uploadImportRoute({
  path: '/dictionaries/import-multiterm/preview',
  operationId: 'dictionaries-previewMultiTerm',
  summary: "List a MultiTerm XML file's languages and fields and propose where each field goes",
  description:
    'Members: `file` (MultiTerm XML, or a zip of it and its .xdt) and optionally `definition` (the .xdt). ' +
    'Answers the indexes, the descriptive fields (levels, type, picklist, count, samples) and the proposed ' +
    '`mapping`, to send (changed as needed) as `field-mapping` with the file to POST /dictionaries/import-tbx. ' +
    'Nothing is stored. See docs/exchange.md.',
  target: false,
  members: [DEFINITION_MEMBER],
  preview: { description: 'The languages, the fields and the proposal', schema: MtfPreviewSchema },
  call: (api, received) => api.multiterm.preview({ file: received.upload }),
});

export const multitermPaths = previewRoute.paths;

export function multitermRoutes(config: Config, createContext: ContextFactory): RawRoute {
  const plugin: FastifyPluginAsync = async (app) => {
    await registerUploads(app);
    previewRoute.register(app, config, createContext);
  };
  return { plugin, paths: multitermPaths };
}
