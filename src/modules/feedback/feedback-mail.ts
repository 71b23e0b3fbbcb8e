/**
 * E-mail about feedback (docs/feedback.md): the dictionary's administrators learn of new feedback, the
 * sender gets a receipt, each answer and the closing. Sent after the change has committed, on an entity
 * manager of its own, without holding the answer up; a failed send is logged (the feedback is in the
 * administration list either way). Plain text only: what users wrote is never HTML.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { mailConfigured, sendMail } from '../mail/mailer.js';
import { dictionaryRoleKey } from '../role/role.service.js';
import type { Feedback } from './feedback.entity.js';

export type FeedbackEvent =
  | { kind: 'created' }
  | { kind: 'answered'; text: string; author: string; closed: boolean }
  | { kind: 'closed' };

const link = (config: Config, path: string) =>
  `${(config.BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '')}${path}`;

/**
 * Who hears of new feedback: the dictionary's e-mail recipient (emailRecipientId) when it has one;
 * otherwise its DICTIONARY_ADMIN users, or failing those the client's administrators. Active accounts
 * with an address only.
 */
export async function administratorAddresses(em: EntityManager, feedback: Feedback): Promise<string[]> {
  const [dictionary] = await em.execute<
    { id: number; oid: string | null; email_recipient_id: number | null }[]
  >('select id, oid, email_recipient_id from dictionaries where id = ?', [feedback.dictionary.id]);
  if (!dictionary) return [];
  const live = `client_id = ? and not deleted and active and email is not null and email <> ''`;
  const clientId = feedback.client.id;
  if (dictionary.email_recipient_id !== null) {
    const rows = await em.execute<{ email: string }[]>(`select email from users where ${live} and id = ?`, [
      clientId,
      dictionary.email_recipient_id,
    ]);
    if (rows.length) return rows.map((row) => row.email);
  }
  for (const role of [`DICTIONARY_ADMIN@${dictionaryRoleKey(dictionary)}`, 'ADMIN']) {
    const rows = await em.execute<{ email: string }[]>(
      `select distinct email from users where ${live} and ? = any(roles) order by email limit 50`,
      [clientId, role],
    );
    if (rows.length) return rows.map((row) => row.email);
  }
  return [];
}

function about(feedback: Feedback, dictionaryName: string): string {
  const label = feedback.targetLabel ? `“${feedback.targetLabel}”` : '';
  if (feedback.target === 'DICTIONARY') return `the dictionary ${dictionaryName}`;
  return `the ${feedback.target === 'TERM' ? 'term' : 'concept'} ${label} in ${dictionaryName}`.replace(
    /\s+/g,
    ' ',
  );
}

/** The mails of one event, as [to, subject, text]. */
export function feedbackMails(
  config: Config,
  feedback: Feedback,
  dictionaryName: string,
  event: FeedbackEvent,
  administrators: readonly string[],
): { to: string; subject: string; text: string }[] {
  const topic = about(feedback, dictionaryName);
  const sender = feedback.senderName ?? (feedback.senderGuest ? 'A guest' : 'A user');
  const mails: { to: string; subject: string; text: string }[] = [];
  const toSender = feedback.senderEmail;
  if (event.kind === 'created') {
    for (const to of administrators) {
      mails.push({
        to,
        subject: `[Polyterm] Feedback on ${topic}`,
        text: [
          `${sender} sent feedback on ${topic}:`,
          '',
          feedback.text,
          '',
          `Answer or close it here: ${link(config, `/admin/feedback/${feedback.id}`)}`,
        ].join('\r\n'),
      });
    }
    if (toSender) {
      mails.push({
        to: toSender,
        subject: `[Polyterm] Your feedback on ${topic}`,
        text: [
          `Thank you. Your feedback on ${topic} has reached the dictionary's administrators:`,
          '',
          feedback.text,
          '',
          'You will get their answer by e-mail.',
        ].join('\r\n'),
      });
    }
  } else if (toSender) {
    const answered = event.kind === 'answered';
    mails.push({
      to: toSender,
      subject: `[Polyterm] ${answered ? 'Answer to' : 'Closed:'} your feedback on ${topic}`,
      text: [
        answered
          ? `${event.author} answered your feedback on ${topic}:`
          : `Your feedback on ${topic} is closed.`,
        ...(answered ? ['', event.text] : []),
        '',
        'You wrote:',
        feedback.text,
        ...(answered && event.closed ? ['', 'The feedback is closed with this answer.'] : []),
      ].join('\r\n'),
    });
  }
  return mails;
}

/** Sends the mails of an event; never throws (a failure is logged). */
export async function sendFeedbackMails(
  em: EntityManager,
  config: Config,
  log: FastifyBaseLogger,
  feedback: Feedback,
  event: FeedbackEvent,
): Promise<void> {
  try {
    if (!(await mailConfigured(em, config))) return;
    const [dictionary] = await em.execute<{ name: string }[]>('select name from dictionaries where id = ?', [
      feedback.dictionary.id,
    ]);
    const administrators = event.kind === 'created' ? await administratorAddresses(em, feedback) : [];
    for (const mail of feedbackMails(config, feedback, dictionary?.name ?? '', event, administrators)) {
      // One address refused must not keep the others from their mail.
      await sendMail(config, mail, { em, clientId: feedback.client.id }).catch((error: unknown) =>
        log.warn({ err: error, feedback: feedback.id }, 'sending a feedback mail failed'),
      );
    }
  } catch (error) {
    log.warn({ err: error, feedback: feedback.id, event: event.kind }, 'sending feedback mail failed');
  }
}
