/**
 * Feedback mail and counts hold only what their reader may read (docs/feedback.md "E-mail",
 * "Statistics"): the new-feedback mail is checked per recipient, as the list and the page are (a
 * closed section, a term in an unpublished state, a concept label naming unseen terms); a sender who
 * lost access meanwhile is told of the answer without the target or the answer; `openFeedback` and a
 * dictionary's feedback counts leave out what the caller's list leaves out. Mail through a real SMTP
 * catcher.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchGroup } from '../access/access-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { MailCatcher } from '../helpers/mail-catcher.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { rows, uniqueSuffix } from '../helpers/structure.js';
import { world } from './feedback-world.js';

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
  await t?.close();
  await catcher?.close();
});

/** Mails to an address once there are `count`, within 10 s (they go out after the answer). */
async function mailsTo(address: string, count: number) {
  for (const deadline = Date.now() + 10_000; catcher.to(address).length < count && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return catcher.to(address);
}

/**
 * The world with addresses: the scheme's manager is the dictionary's e-mail recipient, the client's
 * administrator (reads every section, reviews nothing) has an address, and so do the senders.
 */
async function mailWorld() {
  const w = await world(t, sysadmin);
  const suffix = uniqueSuffix();
  const mail = {
    manager: `manager-${suffix}@example.org`,
    admin: `admin-${suffix}@example.org`,
    insider: `insider-${suffix}@example.org`,
    reviewer: `reviewer-${suffix}@example.org`,
    reader: `reader-${suffix}@example.org`,
  };
  for (const [user, address] of [
    [w.manager, mail.manager],
    [w.insider, mail.insider],
    [w.reviewer, mail.reviewer],
    [w.reader, mail.reader],
  ] as const) {
    await rows(t, 'update users set email = ? where id = ?', [address, user.id]);
  }
  await rows(t, `update users set email = ? where client_id = ? and 'ADMIN' = any(roles)`, [
    mail.admin,
    w.tenant.id,
  ]);
  await rows(t, 'update dictionaries set email_recipient_id = ? where id = ?', [
    w.manager.id,
    w.dictionary.id,
  ]);
  return { ...w, mail };
}

async function cidOf(conceptId: number): Promise<string> {
  const [concept] = await rows<{ cid: string }>(t, 'select cid from concepts where id = ?', [conceptId]);
  return concept!.cid;
}

async function send(caller: RestClient, body: Record<string, unknown>): Promise<{ id: number }> {
  const response = await caller.post<{ id: number }>('/feedback', body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe('the new-feedback mail', () => {
  it('goes only to administrators who may open the feedback, with only what each may read', async () => {
    const w = await mailWorld();
    // A term in an unpublished state only the reviewer reviews: no administrator may open it.
    await send(w.reviewer.rest, { termId: w.hiddenTerm, text: 'first note' });
    // Every mail of one feedback goes out in order, the sender's receipt last: once it is here, so are
    // the administrators' mails of that feedback.
    await mailsTo(w.mail.reviewer, 1);
    // A closed section: the e-mail recipient (the manager) does not read it; the administrator does.
    await send(w.insider.rest, { conceptId: w.secret, text: 'second note' });
    await mailsTo(w.mail.insider, 1);
    // A concept with a term the manager is not shown: the feedback, without its label.
    await send(w.reviewer.rest, { conceptId: w.draft, text: 'third note' });
    await mailsTo(w.mail.reviewer, 2);

    const secretCid = await cidOf(w.secret);
    const toManager = catcher.to(w.mail.manager);
    const toAdmin = catcher.to(w.mail.admin);
    expect(toManager.map((mail) => mail.text).join('\n')).not.toMatch(
      /Geheimventil|Blueprint|first note|second note/,
    );
    expect(toManager).toHaveLength(1);
    expect(toManager[0]!.text).toContain('third note');
    // The manager may open the feedback on the draft concept, not learn the name of its hidden term.
    expect(toManager[0]!.text).not.toContain('secret valve');
    // The administrator is the next in line for the closed section, and reads it.
    expect(toAdmin).toHaveLength(1);
    expect(toAdmin[0]!.text).toContain('second note');
    // The secret concept's only term is unpublished (the administrator reviews nothing): the label the
    // insider saw, its id, is withheld as on the page.
    expect(toAdmin[0]!.text).not.toMatch(/Blueprint|Geheimventil/);
    expect(toAdmin[0]!.text).not.toContain(secretCid);

    // Feedback everyone managing it may read reaches the e-mail recipient with its label, as before.
    await send(w.reader.rest, { termId: w.valve, text: 'fourth note' });
    const onValve = (await mailsTo(w.mail.manager, 2))[1]!;
    expect(onValve.text).toContain('fourth note');
    expect(onValve.text).toContain('valve');
    expect(catcher.to(w.mail.admin)).toHaveLength(1);
  });
});

describe('the answer mail', () => {
  it('tells a sender who lost access that the feedback was answered, without the target or the answer', async () => {
    const w = await mailWorld();
    const sent = await send(w.insider.rest, { conceptId: w.secret, text: 'Is this current?' });
    const secretCid = await cidOf(w.secret);
    expect((await mailsTo(w.mail.insider, 1))[0]!.text).toContain(secretCid);
    // The insider leaves the only group that reads the closed section.
    const left = await patchGroup(w.admin, w.insiders.id, { groupMembers: [] });
    expect(left.status, left.text).toBe(200);
    const answered = await w.admin.post(`/feedback/${sent.id}/answers`, { text: 'Renamed to Masterplan' });
    expect(answered.status, answered.text).toBe(200);
    const answer = (await mailsTo(w.mail.insider, 2))[1]!;
    expect(answer.text).toContain('no longer read');
    expect(answer.text).toContain('Is this current?');
    expect(answer.text).not.toContain('Masterplan');
    expect(answer.text).not.toContain(secretCid);
    // Their own list says so, and withholds the same (the answer and the concept's name).
    const mine = await w.insider.rest.get<{
      content: { id: number; answers: unknown[]; answersWithheld: boolean; targetLabel: string | null }[];
    }>('/feedback?mine=true');
    expect(mine.status, mine.text).toBe(200);
    const own = mine.body.content.find((item) => item.id === sent.id)!;
    expect(own).toMatchObject({ answers: [], answersWithheld: true, targetLabel: null });
    expect(mine.text).not.toContain('Masterplan');
    // A sender who still reads the target gets the answer itself.
    const onValve = await send(w.reader.rest, { termId: w.valve, text: 'Plural?' });
    await mailsTo(w.mail.reader, 1);
    expect((await w.admin.post(`/feedback/${onValve.id}/answers`, { text: 'valves' })).status).toBe(200);
    const toReader = (await mailsTo(w.mail.reader, 2))[1]!;
    expect(toReader.text).toContain('valves');
    expect(toReader.text).toContain('answered your feedback on the term');
    const readers = await w.reader.rest.get<{
      content: { id: number; answersWithheld: boolean; answers: { text: string }[] }[];
    }>('/feedback?mine=true');
    const kept = readers.body.content.find((item) => item.id === onValve.id)!;
    expect(kept.answersWithheld).toBe(false);
    expect(kept.answers.map((a) => a.text)).toEqual(['valves']);
  });
});

describe('feedback counts', () => {
  it('count only the feedback the caller may see, their own included', async () => {
    const w = await mailWorld();
    await send(w.reviewer.rest, { termId: w.hiddenTerm, text: 'on the hidden term' });
    await send(w.insider.rest, { conceptId: w.secret, text: 'on the closed section' });
    await send(w.reviewer.rest, { conceptId: w.draft, text: 'on the draft' });
    await send(w.reader.rest, { termId: w.valve, text: 'on the valve' });
    await send(w.manager.rest, { dictionaryId: w.dictionary.id, text: 'the manager’s own' });

    // The client's administrator reads every section but reviews nothing: the hidden term's is left out.
    const statistics = await w.admin.get<{ openFeedback: number }>('/system/statistics');
    expect(statistics.status, statistics.text).toBe(200);
    const adminList = await w.admin.get<{ totalElements: number }>('/feedback?status=OPEN');
    expect(adminList.body.totalElements).toBe(4);
    expect(statistics.body.openFeedback).toBe(4);

    // The scheme's manager reads neither the closed section nor unpublished entries.
    const managerList = await w.manager.rest.get<{ totalElements: number }>('/feedback?status=OPEN');
    expect(managerList.body.totalElements).toBe(3);
    const dictionary = await w.manager.rest.get<{ feedback: { open: number; answered: number } }>(
      `/system/statistics/dictionaries/${w.dictionary.id}`,
    );
    expect(dictionary.status, dictionary.text).toBe(200);
    expect(dictionary.body.feedback).toEqual({ open: 3, answered: 0 });
  });
});
