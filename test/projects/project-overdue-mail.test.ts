/**
 * Overdue assignments by e-mail over a real SMTP server (docs/projects.md, "Overdue e-mail"): the
 * sweeper queues one notification per assignee and coordinator; a coordinator who wants mail at once
 * gets it on the next send, an assignee who chose a digest gets it in the workflow digest once the hours
 * are up. Each mail names the project, the assignment and its due date; nothing is sent twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueOverdueAssignments } from '../../src/modules/project/project-sweep.js';
import { sendPendingMail } from '../../src/modules/workflow/workflow-mail.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { MailCatcher } from '../helpers/mail-catcher.js';
import { loginSysadmin, type RestClient } from '../helpers/rest.js';
import { loggedInUser, rows } from '../helpers/structure.js';
import { workflowWorld } from '../workflow/workflow-helpers.js';

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

describe('overdue assignments by e-mail', () => {
  it('mails the coordinator at once and the assignee in the workflow digest, naming project, assignment and due date', async () => {
    const w = await workflowWorld(t, sysadmin);
    const coordinator = await loggedInUser(t, w.tenant);
    const coordinatorMail = `overdue-coordinator-${coordinator.id}@example.org`;
    const assigneeMail = `overdue-assignee-${w.author.id}@example.org`;
    await rows(t, 'update users set email = ? where id = ?', [coordinatorMail, coordinator.id]);
    await rows(t, 'update users set email = ? where id = ?', [assigneeMail, w.author.id]);
    const digest = await w.author.rest.put('/workflows/mail-settings', { digestHours: 4 });
    expect(digest.status, digest.text).toBe(200);

    const name = `Spring launch ${w.dictionary.id}`;
    const project = await w.dictAdmin.rest.post<{ id: number }>('/projects', {
      name,
      dictionaryIds: [w.dictionary.id],
      coordinatorIds: [coordinator.id],
    });
    expect(project.status, project.text).toBe(201);
    await w.dictAdmin.rest.post(`/projects/${project.body.id}/entries`, {
      conceptIds: [(await w.concept()).id],
    });
    const assignment = await coordinator.rest.post<{ id: number }>(
      `/projects/${project.body.id}/assignments`,
      {
        type: 'TRANSLATION',
        languageCode: 'deu',
        assigneeUserId: w.author.id,
        dueAt: Date.UTC(2026, 0, 15, 9, 30),
      },
    );
    expect(assignment.status, assignment.text).toBe(201);
    await queueOverdueAssignments(t.orm.em.fork());

    const expectAbout = (text: string) => {
      expect(text).toContain(`Assignment overdue: ${name}`);
      expect(text).toContain(
        `The translation assignment ${assignment.body.id} (deu) of the project "${name}"`,
      );
      expect(text).toContain('was due 2026-01-15 09:30 UTC and is still open.');
    };
    // At once to the coordinator; the digest user waits.
    await send();
    const toCoordinator = await mailsTo(coordinatorMail, 1);
    expect(toCoordinator).toHaveLength(1);
    expectAbout(toCoordinator[0]!.text);
    expect(catcher.to(assigneeMail)).toHaveLength(0);

    // The digest once its hours are up, with the overdue assignment in it.
    await send(new Date(Date.now() + 5 * 3_600_000));
    const digests = await mailsTo(assigneeMail, 1);
    expect(digests).toHaveLength(1);
    expect(digests[0]!.text).toContain('Workflow digest: 1 change');
    expectAbout(digests[0]!.text);

    // Announced once: another sweep and send mail nothing more.
    await queueOverdueAssignments(t.orm.em.fork());
    await send(new Date(Date.now() + 10 * 3_600_000));
    expect(catcher.to(coordinatorMail)).toHaveLength(1);
    expect(catcher.to(assigneeMail)).toHaveLength(1);
  });
});
