import { createPrivateKey, sign } from 'node:crypto';
import type { LicensePayload } from './license.schema.js';

/** A licence text: base64url(JSON payload) "." base64url(Ed25519 signature of those payload bytes). */
export function signLicense(privateKeyPem: string, payload: LicensePayload): string {
  const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
  const signature = sign(null, bytes, createPrivateKey(privateKeyPem));
  return `${bytes.toString('base64url')}.${signature.toString('base64url')}`;
}
