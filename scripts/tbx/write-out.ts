import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Writes the export to its file; an export cut short leaves no partial file that looks whole. */
export async function writeOut(source: Readable, file: string): Promise<void> {
  try {
    await pipeline(source, createWriteStream(file));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
}
