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
import type { Feedback } from './feedback.entity.js';
import { type AdministratorMail, administratorMails, senderReadsTarget } from './feedback-recipients.js';

export type FeedbackEvent =
  | { kind: 'created' }
  | { kind: 'answered'; text: string; author: string; closed: boolean }
  | { kind: 'closed' };

const link = (config: Config, path: string) =>
  `${(config.BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '')}${path}`;

/** What the feedback is about, with the target's label when the reader may have it. */
function about(feedback: Feedback, dictionaryName: string, targetLabel: string | null): string {
  const label = targetLabel ? `“${targetLabel}”` : '';
  if (feedback.target === 'DICTIONARY') return `the dictionary ${dictionaryName}`;
  return `the ${feedback.target === 'TERM' ? 'term' : 'concept'} ${label} in ${dictionaryName}`.replace(
    /\s+/g,
    ' ',
  );
}

/**
 * The mails of one event, as [to, subject, text]. `administrators` carry what each may read
 * (feedback-recipients.ts); `senderReads` false: the sender no longer reads the target, so the
 * answer or closing names neither the target nor the answer, only the sender's own words.
 */
export function feedbackMails(
  config: Config,
  feedback: Feedback,
  dictionaryName: string,
  event: FeedbackEvent,
  administrators: readonly AdministratorMail[],
  senderReads = true,
): { to: string; subject: string; text: string }[] {
  const topic = about(feedback, dictionaryName, feedback.targetLabel ?? null);
  const sender = feedback.senderName ?? (feedback.senderGuest ? 'A guest' : 'A user');
  const mails: { to: string; subject: string; text: string }[] = [];
  const toSender = feedback.senderEmail;
  if (event.kind === 'created') {
    for (const { to, label } of administrators) {
      const theirs = about(feedback, dictionaryName, label);
      mails.push({
        to,
        subject: `[Polyterm] Feedback on ${theirs}`,
        text: [
          `${sender} sent feedback on ${theirs}:`,
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
  } else if (toSender && !senderReads) {
    const answered = event.kind === 'answered';
    mails.push({
      to: toSender,
      subject: `[Polyterm] ${answered ? 'Answer to' : 'Closed:'} your feedback`,
      text: [
        answered ? 'Your feedback has been answered.' : 'Your feedback is closed.',
        'It concerns an entry you can no longer read in Polyterm, so neither the entry nor the answer is quoted here.',
        '',
        'You wrote:',
        feedback.text,
      ].join('\r\n'),
    });
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
    const created = event.kind === 'created';
    const administrators = created ? await administratorMails(em, config, log, feedback) : [];
    // The receipt follows the sender's own request, which just read the target; later mails check again.
    const senderReads =
      created || !feedback.senderEmail || (await senderReadsTarget(em, config, log, feedback));
    const mails = feedbackMails(config, feedback, dictionary?.name ?? '', event, administrators, senderReads);
    for (const mail of mails) {
      // One address refused must not keep the others from their mail.
      await sendMail(config, mail, { em, clientId: feedback.client.id }).catch((error: unknown) =>
        log.warn({ err: error, feedback: feedback.id }, 'sending a feedback mail failed'),
      );
    }
  } catch (error) {
    log.warn({ err: error, feedback: feedback.id, event: event.kind }, 'sending feedback mail failed');
  }
}
