import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

// One pooled transport per SMTP address, reused by every request.
const transports = new Map<string, Transporter>();

function transportFor(smtpUrl: string): Transporter {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    transport = nodemailer.createTransport(smtpUrl);
    transports.set(smtpUrl, transport);
  }
  return transport;
}

/** Sends one plain-text mail over SMTP_URL; false when no SMTP server is configured. */
export async function sendMail(config: Config, mail: Mail): Promise<boolean> {
  if (!config.SMTP_URL) return false;
  await transportFor(config.SMTP_URL).sendMail({ from: config.MAIL_FROM, ...mail });
  return true;
}

/** Closes the pooled connections (server shutdown, tests). */
export function closeMailTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}
