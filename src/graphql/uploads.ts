/**
 * Files uploaded over GraphQL (the multipart request specification): yoga hands a resolver a File held in
 * memory, which is written to an upload directory of its own (tbx-upload-dir.ts) so that the imports
 * read it from disk as they read REST uploads.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TbxUpload } from '../modules/tbx/tbx-import.service.js';
import { makeUploadDir } from '../modules/tbx/tbx-upload-dir.js';

/** GraphQL uploads are held in memory while the request is read: at most this, or MAX_FILE_SIZE if less. */
export const GRAPHQL_MAX_FILE_BYTES = 256 * 1024 * 1024;

export const graphqlFileLimit = (maxFileSize: number) => Math.min(maxFileSize, GRAPHQL_MAX_FILE_BYTES);

/** Writes the file to a directory of its own; the caller discards it unless an import claimed it. */
export async function stageUpload(file: File): Promise<TbxUpload> {
  const directory = await makeUploadDir();
  const path = join(directory, 'upload');
  // The file is in memory already (the request's form was read whole).
  await writeFile(path, new Uint8Array(await file.arrayBuffer()));
  return new TbxUpload(path, file.size, file.name || null, directory);
}

/** Runs an import procedure on the staged file and removes the file unless the import took it over. */
export async function withUpload<T>(file: File, run: (upload: TbxUpload) => Promise<T>): Promise<T> {
  const upload = await stageUpload(file);
  try {
    return await run(upload);
  } finally {
    if (!upload.claimed) await upload.discard();
  }
}
