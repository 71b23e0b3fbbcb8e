/**
 * The Standard Webhooks scheme (standardwebhooks.com): `webhook-id`, `webhook-timestamp` (seconds) and
 * `webhook-signature` = "v1," + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed with the
 * bytes of the base64 secret after "whsec_". The reference library signs, so receivers using any
 * Standard Webhooks library verify without reading our code.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new signing secret: 32 random bytes, base64, with the scheme's "whsec_" prefix. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The three headers of one delivery; the id stays the same on every retry, so receivers can dedupe. */
export function signedHeaders(secret: string, id: string, body: string, at = new Date()) {
  const signature = new Webhook(secret).sign(id, at, body);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}
