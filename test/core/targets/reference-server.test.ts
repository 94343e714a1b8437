/** Starting the reference server (embedded target, load's child, serve, client): one way, one failure line, exit 2. */
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../../core/errors.ts';
import { startReferenceServer } from '../../../core/targets/reference-server.ts';

/** The error a start ended with (a start that succeeded is a failure of the test). */
const failed = (p: Promise<unknown>): Promise<HarnessError> => p.then(
  () => { throw new Error('it started'); },
  (e: unknown) => e as HarnessError,
);

describe('startReferenceServer', () => {
  it('listens on loopback on a free port, with the options given, and closes', async () => {
    const ref = await startReferenceServer({ webhookBaseUrl: 'http://127.0.0.1:9', faults: ['list-limit-clamped'], variant: 'alt' });
    try {
      expect(ref.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(ref.built.faults.has('list-limit-clamped')).toBe(true);
      const res = await fetch(`${ref.url}/v1/payments?limit=1`, { headers: { authorization: `Bearer ${ref.profile.keys.test}` } });
      expect(res.status).toBe(200);
    } finally {
      await ref.close();
    }
  });

  it('a server that cannot start is one usage line (exit 2), worded by the caller', async () => {
    const taken = await startReferenceServer({ webhookBaseUrl: 'http://127.0.0.1:9' });
    const port = Number(new URL(taken.url).port);
    try {
      const byDefault = await failed(startReferenceServer({ port, webhookBaseUrl: 'http://127.0.0.1:9' }));
      expect(byDefault).toBeInstanceOf(HarnessError);
      expect([byDefault.code, byDefault.exitCode]).toEqual(['HPS_ERR_USAGE', 2]);
      expect(byDefault.message).toMatch(/^embedded reference server: listen EADDRINUSE/);
      const worded = await failed(startReferenceServer(
        { port, webhookBaseUrl: 'http://127.0.0.1:9' },
        (why) => `serve: could not start on 127.0.0.1:${port} (${why})`,
      ));
      expect(worded.message).toMatch(new RegExp(`^serve: could not start on 127\\.0\\.0\\.1:${port} \\(listen EADDRINUSE`));
      const bad = await failed(startReferenceServer({ webhookBaseUrl: 'http://127.0.0.1:9', timeScale: 0 }));
      expect(bad.message).toBe('embedded reference server: timeScale must be a positive number, got 0');
    } finally {
      await taken.close();
    }
  });
});
