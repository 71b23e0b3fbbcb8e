/** A real SMTP server on loopback keeping what it receives (the workflow mail suites). */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  text: string;
}

export class WorkflowMailCatcher {
  readonly mails: CaughtMail[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        this.mails.push({
          to: session.envelope.rcptTo.map((address) => address.address.toLowerCase()),
          // Quoted-printable soft breaks and escapes decoded, enough to read subjects and bodies.
          text: raw
            .replace(/=\r?\n/g, '')
            .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
        });
        callback();
      });
    },
  });

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  to(address: string): CaughtMail[] {
    return this.mails.filter((mail) => mail.to.includes(address.toLowerCase()));
  }
}
