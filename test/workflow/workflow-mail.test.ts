/**
 * Workflow e-mail over a real SMTP server (docs/workflows.md): NOTIFY actions mail at once, or as one
 * digest every N hours for users who chose it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendPendingMail } from '../../src/modules/workflow/workflow-mail.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { MailCatcher } from '../helpers/mail-catcher.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { rows, waitForJob } from '../helpers/structure.js';
import { enableWorkflow, fire, newAndCheck, transition, workflowWorld } from './workflow-helpers.js';

let t: TestApp;
let sysadmin: RestClient;
let catcher: MailCatcher;

beforeAll(async () => {
  catcher = new MailCatcher();
  const port = await catcher.start();
  t = await buildTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  sysadmin = await loginSysadmin(t.app);
});
afterAll(async () => {
  await t.close();
  await catcher.close();
});

const send = (now = new Date()) => sendPendingMail(t.orm.em.fork(), t.config, t.app.log, now);

/** The mails to an address once there are `count` (the server's sweeper may be sending some), within 20 s. */
async function mailsTo(address: string, count: number) {
  const deadline = Date.now() + 20_000;
  while (catcher.to(address).length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return catcher.to(address);
}

describe('workflow e-mail', () => {
  it('mails the people a transition names at once; a digest user gets one mail after N hours', async () => {
    const w = await workflowWorld(t, sysadmin);
    const reviewerMail = `reviewer-${w.reviewer.id}@example.org`;
    const adminMail = `dict-admin-${w.dictAdmin.id}@example.org`;
    await rows(t, 'update users set email = ? where id = ?', [reviewerMail, w.reviewer.id]);
    await rows(t, 'update users set email = ? where id = ?', [adminMail, w.dictAdmin.id]);
    await enableWorkflow(w, 'Mailing', {
      definition: newAndCheck(
        transition('ask', 'Ask for a check', ['new', 'check'], 'check', ['USER'], {
          actions: [{ type: 'NOTIFY', groupIds: [w.reviewers.id], userIds: [w.dictAdmin.id] }],
        }),
      ),
    });
    const digest = await w.dictAdmin.rest.put('/workflows/mail-settings', { digestHours: 4 });
    expect(digest.status, digest.text).toBe(200);
    expect((await w.dictAdmin.rest.get('/workflows/mail-settings')).body).toEqual({ digestHours: 4 });

    const concept = await w.concept();
    const comment = 'Please check <b>this</b> one';
    expect(
      (
        await fire(w.author.rest, {
          conceptId: concept.id,
          languageCode: 'deu',
          transition: 'ask',
          version: 0,
          comment,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await fire(w.author.rest, {
          conceptId: concept.id,
          languageCode: 'eng',
          transition: 'ask',
          version: 0,
        })
      ).status,
    ).toBe(200);
    await send();
    const toReviewer = await mailsTo(reviewerMail, 2);
    expect(toReviewer).toHaveLength(2);
    expect(toReviewer.some((mail) => mail.text.includes(comment) && mail.text.includes('(deu)'))).toBe(true);
    // Plain text: the comment is sent as written, never as HTML.
    expect(toReviewer.every((mail) => !/content-type: text\/html/i.test(mail.text))).toBe(true);
    // The digest user waits: nothing before the hours are up, one mail with both after.
    expect(catcher.to(adminMail)).toHaveLength(0);
    await send(new Date(Date.now() + 5 * 3_600_000));
    const digests = catcher.to(adminMail);
    expect(digests).toHaveLength(1);
    expect(digests[0]!.text).toContain('Workflow digest: 2 changes');
    // Nothing is sent twice.
    await send(new Date(Date.now() + 10 * 3_600_000));
    expect(catcher.to(reviewerMail)).toHaveLength(2);
    expect(catcher.to(adminMail)).toHaveLength(1);
  });

  it('a bulk transition assigns every moved entry and mails each recipient once, listing the entries', async () => {
    const w = await workflowWorld(t, sysadmin);
    const reviewerMail = `bulk-reviewer-${w.reviewer.id}@example.org`;
    const authorMail = `bulk-author-${w.author.id}@example.org`;
    await rows(t, 'update users set email = ? where id = ?', [reviewerMail, w.reviewer.id]);
    await rows(t, 'update users set email = ? where id = ?', [authorMail, w.author.id]);
    await enableWorkflow(w, 'Bulk mailing', {
      definition: newAndCheck(
        transition('ask', 'Ask for a check', ['new'], 'check', ['USER'], {
          actions: [
            { type: 'ASSIGN', userId: w.reviewer.id },
            { type: 'NOTIFY', assignee: true, groupIds: [], userIds: [] },
          ],
        }),
      ),
    });
    const concepts = [await w.concept(), await w.concept(), await w.concept()];
    const started = await w.author.rest.post<{ result?: unknown; jobTaskId?: number }>(
      '/workflows/bulk-transitions',
      { dictionaryId: w.dictionary.id, transition: 'ask', conceptIds: concepts.map((c) => c.id) },
    );
    expect([200, 202], started.text).toContain(started.status);
    const result = started.body.jobTaskId
      ? (await waitForJob(w.author.rest, started.body.jobTaskId, 60_000)).result
      : started.body.result;
    expect(result).toMatchObject({ moved: 6, skippedCount: 0 });
    // ASSIGN: all six entries (three concepts, two languages) wait in the reviewer's inbox.
    const inbox = await w.reviewer.rest.get<{ conceptId: number }[]>('/workflows/inbox');
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.body.filter((entry) => concepts.some((c) => c.id === entry.conceptId))).toHaveLength(6);
    // NOTIFY the assignee: one mail for the batch, each entry listed; the author who fired gets none.
    await send();
    const mails = await mailsTo(reviewerMail, 1);
    expect(mails).toHaveLength(1);
    for (const concept of concepts) expect(mails[0]!.text).toContain(`(id ${concept.id}), language deu`);
    expect(mails[0]!.text).toContain('on 6 entries at once');
    expect(catcher.to(authorMail)).toHaveLength(0);
  });
});
