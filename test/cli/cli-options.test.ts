/**
 * The command lines' arguments: a session token or password that starts with a dash (tokens are random
 * base64url, so about one in 32 does) is taken as the option's value, as written with `=` too.
 */
import { describe, expect, it } from 'vitest';
import { parseSkosCli } from '../../scripts/skos/options.js';
import { parseCli } from '../../scripts/tbx/options.js';

const env = {};

describe('secret option values that start with a dash', () => {
  it('npm run tbx takes them after a space and after =', () => {
    for (const args of [
      ['export', '7', '--out', 'x.tbx', '--server', 'http://h', '--token', '-Ab_c'],
      ['export', '7', '--out', 'x.tbx', '--server', 'http://h', '--token=-Ab_c'],
    ]) {
      expect(parseCli(args, env)).toMatchObject({ mode: 'server', token: '-Ab_c' });
    }
    expect(
      parseCli(['export', '7', '--out', 'x.tbx', '--user', 'ada', '--password', '--secret-'], env),
    ).toMatchObject({ mode: 'server', user: 'ada', password: '--secret-' });
  });

  it('npm run skos takes them too', () => {
    const parsed = parseSkosCli(
      ['export', '7', '--out', 'x.ttl', '--server', 'http://h', '--token', '-Zz'],
      env,
    );
    expect(parsed).toMatchObject({ token: '-Zz' });
  });

  it('still refuses an option it does not know', () => {
    expect(() => parseCli(['export', '7', '--tokens', 'x'], env)).toThrow(/tokens/);
  });
});
