/**
 * The upload sweep at server start (src/modules/tbx/tbx-upload-dir.ts): directories of processes that
 * are gone go, those of live processes (this one, another one) and of other hosts stay, and legacy
 * `polyterm-tbx-*` directories go only once they are a day old.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  makeUploadDir,
  sweepUploadDirs,
  UPLOADS_FOLDER,
  uploadDirPrefix,
} from '../../src/modules/tbx/tbx-upload-dir.js';

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'polyterm-sweep-test-'));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** The pid of a process that has ended (as a killed server's would be). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

async function uploadDir(name: string): Promise<string> {
  const path = join(tmp, UPLOADS_FOLDER, name);
  await mkdir(path, { recursive: true });
  await writeFile(join(path, 'upload.tbx'), '<martif/>');
  return name;
}

const listing = async (folder: string) => (await readdir(folder)).sort();

describe('sweepUploadDirs', () => {
  it("removes the directories of ended processes and keeps the live ones'", async () => {
    const dead = await deadPid();
    const mine = basename(await makeUploadDir(tmp));
    const ofDead = await uploadDir(`${uploadDirPrefix(dead)}aaaaaa`);
    // This pid in an earlier life (a restarted container's pid 1): another instance id.
    const earlierSelf = await uploadDir(`${uploadDirPrefix(process.pid, '0badf00d')}bbbbbb`);
    const ofParent = await uploadDir(`${uploadDirPrefix(process.ppid)}cccccc`);
    const otherHost = await uploadDir(`${uploadDirPrefix(dead, undefined, 'ffffffff')}dddddd`);
    const foreign = await uploadDir('not-an-upload');

    const removed = await sweepUploadDirs({ tmp });

    expect(removed.map((path) => basename(path)).sort()).toEqual([ofDead, earlierSelf].sort());
    expect(await listing(join(tmp, UPLOADS_FOLDER))).toEqual([mine, ofParent, otherHost, foreign].sort());
  });

  it('removes legacy polyterm-tbx-* directories only when older than a day', async () => {
    const old = join(tmp, 'polyterm-tbx-old');
    const fresh = join(tmp, 'polyterm-tbx-fresh');
    const other = join(tmp, 'something-else');
    for (const path of [old, fresh, other]) await mkdir(path);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await utimes(old, twoDaysAgo, twoDaysAgo);
    await utimes(other, twoDaysAgo, twoDaysAgo);

    expect(await sweepUploadDirs({ tmp })).toEqual([old]);
    expect(await listing(tmp)).toEqual(['polyterm-tbx-fresh', 'something-else']);
  });

  it('does nothing (and does not fail) when there is no upload folder', async () => {
    expect(await sweepUploadDirs({ tmp: join(tmp, 'missing') })).toEqual([]);
  });

  it('makes upload directories in a folder only this user may write to', async () => {
    const directory = await makeUploadDir(tmp);
    expect(basename(directory).startsWith(uploadDirPrefix())).toBe(true);
    // A shared folder others may write to (or a link to one) could let them swap an upload.
    const open = join(tmp, 'open');
    await mkdir(join(open, UPLOADS_FOLDER), { recursive: true });
    await chmod(join(open, UPLOADS_FOLDER), 0o777);
    await expect(makeUploadDir(open)).rejects.toThrow(/only it can write to/);
    const linked = join(tmp, 'linked');
    await mkdir(linked);
    await symlink(join(tmp, UPLOADS_FOLDER), join(linked, UPLOADS_FOLDER));
    await expect(makeUploadDir(linked)).rejects.toThrow(/only it can write to/);
  });
});
