/**
 * The e-mail to a subscription's owner when the dispatcher disables it after persistent failure
 * (docs/events.md, "Webhooks"); without an owner address, to the client's administrators. Plain text,
 * never the secret.
 */

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../../config.js';
import { sendMail } from '../../mail/mailer.js';
import { sql } from './webhook-sql.js';
import type { SubscriptionRow } from './webhook-store.js';

async function recipients(em: EntityManager, subscription: Pick<SubscriptionRow, 'ownerId' | 'clientId'>) {
  const live = `client_id = ? and not deleted and active and email is not null and email <> ''`;
  if (subscription.ownerId !== null) {
    const rows = await sql<{ email: string }>(
      em,
      'select email from users where id = ? and not deleted and active and email is not null and email <> ?',
      [subscription.ownerId, ''],
    );
    if (rows.length) return rows.map((row) => row.email);
  }
  const rows = await sql<{ email: string }>(
    em,
    `select distinct email from users where ${live} and 'ADMIN' = any(roles) order by email limit 50`,
    [subscription.clientId],
  );
  return rows.map((row) => row.email);
}

export async function sendDisabledMail(
  em: EntityManager,
  config: Config,
  subscription: Pick<SubscriptionRow, 'id' | 'ownerId' | 'clientId' | 'url'>,
  reason: string,
): Promise<void> {
  const base = (config.BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
  const text = [
    `Polyterm stopped delivering events to the webhook ${subscription.id} (${subscription.url}):`,
    reason,
    '',
    'Nothing is lost: the events wait from where delivery stopped. Once the receiver answers again, enable',
    `the webhook (PUT ${base}/api/v4/webhooks/${subscription.id} with {"active": true}) and delivery resumes`,
    `there; the delivery log is at ${base}/api/v4/webhooks/${subscription.id}/deliveries.`,
  ].join('\r\n');
  for (const to of await recipients(em, subscription)) {
    await sendMail(
      config,
      { to, subject: `Webhook ${subscription.id} disabled after failing deliveries`, text },
      { em, clientId: subscription.clientId },
    );
  }
}
