/**
 * A real SMTP server on loopback that keeps every message it receives (password reset and workflow
 * mail suites).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower case. */
  to: string[];
  /** The raw message with quoted-printable soft breaks and escapes decoded. */
  text: string;
}

/** The server: `start()` gives its port, `to()` and `waitFor()` read what came. */
export class MailCatcher {
  readonly mails: ReceivedMail[] = [];
  private waiters: Array<() => void> = [];
  /** With `login`, the server takes mail only after AUTH with exactly these credentials (mail settings suite). */
  readonly server: SMTPServer;
  constructor(login?: { username: string; password: string }) {
    this.server = this.serve(login);
  }

  private serve(login: { username: string; password: string } | undefined): SMTPServer {
    return new SMTPServer({
      authOptional: !login,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, callback) => {
        const ok = login && auth.username === login.username && auth.password === login.password;
        if (ok) callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.mails.push({
            to: session.envelope.rcptTo.map((address) => address.address.toLowerCase()),
            text: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
          });
          for (const wake of this.waiters.splice(0)) wake();
          callback();
        });
      },
    });
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  to(address: string): ReceivedMail[] {
    return this.mails.filter((mail) => mail.to.includes(address.toLowerCase()));
  }

  /** The first mail to the address, waiting for it up to a few seconds. */
  async waitFor(address: string, timeoutMs = 5000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.to(address)[0];
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
