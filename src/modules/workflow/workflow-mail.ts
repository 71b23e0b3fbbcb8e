/**
 * Workflow e-mail (docs/workflows.md): NOTIFY actions queue rows in workflow_notifications; this sends
 * them, one mail per notification to users who want them at once, and one digest every N hours to users
 * who chose a digest. Rows are claimed (sent_at set) before sending, so two servers never send one twice;
 * a failed send gives its rows back for the next round. Plain text only: user text is never HTML.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Scope } from '../../shared/scope.js';
import { mailConfigured, sendMail } from '../mail/mailer.js';

interface Claimed {
  id: string;
  user_id: number;
  client_id: number;
  email: string;
  subject: string;
  body: string;
}

async function release(em: EntityManager, ids: readonly string[]) {
  await em.execute('update workflow_notifications set sent_at = null where id = any(?::bigint[])', [
    `{${ids.join(',')}}`,
  ]);
}

/** Sends what is due at `now`; answers the number of mails sent. */
export async function sendPendingMail(
  em: EntityManager,
  config: Config,
  log: FastifyBaseLogger,
  now: Date = new Date(),
): Promise<number> {
  if (!(await mailConfigured(em, config))) return 0;
  let sent = 0;
  const immediate = await em.execute<Claimed[]>(
    `update workflow_notifications n set sent_at = now() from users u
      where u.id = n.user_id and n.sent_at is null and u.email is not null
        and not exists (select 1 from workflow_mail_settings s where s.user_id = n.user_id and s.digest_hours is not null)
      returning n.id::text as id, n.user_id, n.client_id, u.email, n.subject, n.body`,
  );
  for (const mail of immediate) {
    try {
      await sendMail(
        config,
        { to: mail.email, subject: `[Polyterm] ${mail.subject}`, text: mail.body },
        { em, clientId: mail.client_id },
      );
      sent++;
    } catch (error) {
      log.warn({ err: error, notification: mail.id }, 'sending a workflow mail failed; it is retried');
      await release(em, [mail.id]);
    }
  }
  const due = await em.execute<{ user_id: number }[]>(
    `select s.user_id from workflow_mail_settings s
      where s.digest_hours is not null and coalesce(s.last_digest_at, '-infinity') + make_interval(hours => s.digest_hours) <= ?
        and exists (select 1 from workflow_notifications n where n.user_id = s.user_id and n.sent_at is null)`,
    [now],
  );
  for (const { user_id: userId } of due) {
    const claimed = await em.execute<Claimed[]>(
      `update workflow_notifications n set sent_at = now(), digest = true from users u
        where u.id = n.user_id and n.user_id = ? and n.sent_at is null and u.email is not null
        returning n.id::text as id, n.user_id, n.client_id, u.email, n.subject, n.body`,
      [userId],
    );
    if (claimed.length === 0) continue;
    const ordered = [...claimed].sort((a, b) => Number(a.id) - Number(b.id));
    const text = ordered.map((mail) => `${mail.subject}\n${mail.body}`).join('\n\n---\n\n');
    try {
      await sendMail(
        config,
        {
          to: ordered[0]!.email,
          subject: `[Polyterm] Workflow digest: ${ordered.length} change${ordered.length === 1 ? '' : 's'}`,
          text,
        },
        { em, clientId: ordered[0]!.client_id },
      );
      await em.execute('update workflow_mail_settings set last_digest_at = ? where user_id = ?', [
        now,
        userId,
      ]);
      sent++;
    } catch (error) {
      log.warn({ err: error, userId }, 'sending a workflow digest failed; it is retried');
      await release(
        em,
        ordered.map((mail) => mail.id),
      );
    }
  }
  return sent;
}

export const MailSettingsSchema = z.object({
  digestHours: z
    .number()
    .int()
    .min(1)
    .max(720)
    .nullable()
    .describe('null: each workflow mail at once; N: one digest every N hours'),
});
export type MailSettings = z.infer<typeof MailSettingsSchema>;

/** The caller's choice (at once unless set). */
export async function mailSettings(scope: Scope): Promise<MailSettings> {
  const [row] = await scope.em.execute<{ digest_hours: number | null }[]>(
    'select digest_hours from workflow_mail_settings where user_id = ?',
    [scope.actor.userId],
  );
  return { digestHours: row?.digest_hours ?? null };
}

/** Sets the caller's choice; a digest starts counting its hours now. */
export async function setMailSettings(scope: Scope, input: MailSettings): Promise<MailSettings> {
  await scope.em.execute(
    `insert into workflow_mail_settings (user_id, client_id, digest_hours, last_digest_at) values (?, ?, ?, now())
     on conflict (user_id) do update set digest_hours = excluded.digest_hours, last_digest_at = now()`,
    [scope.actor.userId, scope.actor.clientId, input.digestHours],
  );
  return mailSettings(scope);
}
