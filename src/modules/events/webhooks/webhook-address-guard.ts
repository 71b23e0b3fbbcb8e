/**
 * Where webhooks may not go (server-side request forgery): private, loopback, link-local (cloud
 * metadata at 169.254.169.254), unique-local (fc00::/7), multicast and reserved ranges, and the
 * server's own addresses, unless the configuration allows them (WEBHOOKS_ALLOW_PRIVATE, or
 * WEBHOOKS_ALLOWED_NETWORKS for a few). The check runs on the address the connection is actually made
 * to, resolved at delivery time, so a name that resolves elsewhere later (DNS rebinding) is caught.
 */
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Config } from '../../../config.js';

const BLOCKED_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;
const BLOCKED_V6 = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const;

/** Parses "10.0.0.0/8, 127.0.0.1, ::1/128" into a BlockList; throws on a bad entry. */
export function networkList(text: string): BlockList {
  const list = new BlockList();
  for (const entry of text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    if (!family) throw new Error(`${entry} is no IP address or network`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (!Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32))
      throw new Error(`${entry} has no valid prefix length`);
    list.addSubnet(address, bits, type);
  }
  return list;
}

function blockedList(): BlockList {
  const list = new BlockList();
  for (const [address, bits] of BLOCKED_V4) list.addSubnet(address, bits, 'ipv4');
  for (const [address, bits] of BLOCKED_V6) list.addSubnet(address, bits, 'ipv6');
  // The server itself, on whatever public address it has.
  for (const addresses of Object.values(networkInterfaces())) {
    for (const { address, family } of addresses ?? []) {
      list.addAddress(address.split('%')[0]!, family === 'IPv6' ? 'ipv6' : 'ipv4');
    }
  }
  return list;
}

/** An IPv4 address written as IPv6 (::ffff:a.b.c.d) is checked as the IPv4 address it is. */
function normalised(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, type: 'ipv4' };
  return { address, type: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export interface AddressGuard {
  /** Why this address may not be delivered to; null when it may. */
  refusal(address: string): string | null;
}

/** The guard of this configuration. */
export function addressGuard(
  config: Pick<Config, 'WEBHOOKS_ALLOW_PRIVATE' | 'WEBHOOKS_ALLOWED_NETWORKS'>,
): AddressGuard {
  const blocked = blockedList();
  const allowed = networkList(config.WEBHOOKS_ALLOWED_NETWORKS);
  return {
    refusal(raw) {
      if (config.WEBHOOKS_ALLOW_PRIVATE) return null;
      const { address, type } = normalised(raw.replace(/^\[|\]$/g, ''));
      if (allowed.check(address, type)) return null;
      if (blocked.check(address, type))
        return `${raw} is a private, loopback, link-local or reserved address, or the server's own (WEBHOOKS_ALLOW_PRIVATE, WEBHOOKS_ALLOWED_NETWORKS)`;
      return null;
    },
  };
}
