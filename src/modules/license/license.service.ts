/**
 * Licences: a vendor signs a small JSON payload with an Ed25519 key; the server verifies it with the
 * public key in LICENSE_PUBLIC_KEY. Format and tooling: docs/license.md, scripts/license-sign.ts.
 */
import { createPublicKey, verify } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import { AppError } from '../../shared/errors.js';
import { isSysadmin, type Scope } from '../../shared/scope.js';
import { License } from './license.entity.js';
import { type LicenseDto, type LicensePayload, LicensePayloadSchema } from './license.schema.js';

const invalid = (reason: string) => new AppError('BAD_REQUEST', `Invalid licence: ${reason}`);

const endOfDay = (day: string) => new Date(`${day}T23:59:59.999Z`);

/** Checks the signature, the payload and the dates of a licence text; answers what it grants. */
export function verifyLicenseText(config: Config, text: string, now = new Date()): LicensePayload {
  if (!config.LICENSE_PUBLIC_KEY)
    throw new AppError('BAD_REQUEST', 'Licensing is not configured (LICENSE_PUBLIC_KEY)');
  const [payloadPart, signaturePart, extra] = text.trim().split('.');
  if (!payloadPart || !signaturePart || extra !== undefined) throw invalid('expected <payload>.<signature>');
  const payloadBytes = Buffer.from(payloadPart, 'base64url');
  const signature = Buffer.from(signaturePart, 'base64url');
  const key = createPublicKey(config.LICENSE_PUBLIC_KEY);
  if (!verify(null, payloadBytes, key, signature)) throw invalid('the signature does not match');
  let json: unknown;
  try {
    json = JSON.parse(payloadBytes.toString('utf8'));
  } catch {
    throw invalid('the payload is not JSON');
  }
  const parsed = LicensePayloadSchema.safeParse(json);
  if (!parsed.success)
    throw invalid(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  if (endOfDay(parsed.data.expires) < now) throw invalid(`it expired on ${parsed.data.expires}`);
  return parsed.data;
}

const toDto = (license: License): LicenseDto => ({
  licensee: license.licensee,
  issued: license.issuedAt.getTime(),
  expires: license.expiresAt.getTime(),
  availableUserSlots: license.availableUserSlots ?? null,
  applied: license.appliedAt.getTime(),
});

/** Applies a licence text (system administrators); answers the License object. */
export async function applyLicense(scope: Scope, text: string): Promise<LicenseDto> {
  if (!isSysadmin(scope.actor)) throw new AppError('FORBIDDEN', 'Only system administrators apply licences');
  const payload = verifyLicenseText(scope.config, text);
  const license = scope.em.create(License, {
    text: text.trim(),
    licensee: payload.licensee,
    issuedAt: new Date(`${payload.issued}T00:00:00Z`),
    expiresAt: endOfDay(payload.expires),
    availableUserSlots: payload.availableUserSlots,
    appliedById: scope.actor.userId,
  });
  await scope.em.flush();
  return toDto(license);
}

/** The licence in force, or null when none was applied. */
export async function currentLicense(em: EntityManager): Promise<License | null> {
  const [latest] = await em.find(License, {}, { orderBy: { appliedAt: 'DESC', id: 'DESC' }, limit: 1 });
  return latest ?? null;
}

export async function getLicense(scope: Scope): Promise<LicenseDto | null> {
  const license = await currentLicense(scope.em);
  return license ? toDto(license) : null;
}

/** The licence's cap on a client's user accounts; null when no licence limits them. */
export async function licensedUserSlots(em: EntityManager): Promise<number | null> {
  return (await currentLicense(em))?.availableUserSlots ?? null;
}

/**
 * Client rule 5: a client's maximum accounts may not exceed the licence's availableUserSlots. A client
 * without maxUsers may have as many accounts as the licence allows.
 */
export async function assertWithinLicense(
  em: EntityManager,
  maxUsers: number | null | undefined,
): Promise<void> {
  const slots = await licensedUserSlots(em);
  if (slots !== null && maxUsers != null && maxUsers > slots) {
    throw new AppError(
      'BAD_REQUEST',
      `The licence allows at most ${slots} user accounts per client; set maxUsers to ${slots} or less`,
    );
  }
}
