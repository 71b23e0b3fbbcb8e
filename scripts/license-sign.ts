/**
 * Vendor tool: signs a licence. `npx tsx scripts/license-sign.ts keygen` prints a new Ed25519 key pair
 * (keep the private key secret; deploy the public one as LICENSE_PUBLIC_KEY);
 * `npx tsx scripts/license-sign.ts sign private.pem '{"licensee":"ACME","issued":"2026-11-21",
 * "expires":"2027-11-20","availableUserSlots":50}'` prints the licence text. See docs/license.md.
 */

import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LicensePayloadSchema } from '../src/modules/license/license.schema.js';
import { signLicense } from '../src/modules/license/license-text.js';

const [command, keyFile, payloadJson] = process.argv.slice(2);
if (command === 'keygen') {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  process.stdout.write(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  process.stdout.write(publicKey.export({ type: 'spki', format: 'pem' }).toString());
} else if (command === 'sign' && keyFile && payloadJson) {
  const payload = LicensePayloadSchema.parse(JSON.parse(payloadJson));
  process.stdout.write(`${signLicense(readFileSync(keyFile, 'utf8'), payload)}\n`);
} else {
  console.error('usage: license-sign.ts keygen | sign <private.pem> <payload json>');
  process.exit(2);
}
