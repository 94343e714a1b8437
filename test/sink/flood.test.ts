/**
 * Junk cannot crowd out deliveries (issue 11): 20 000+ rejected requests (unknown paths, bad
 * signatures with 64 KiB bodies, GETs) are counted apart in a capped ring, never stored nor
 * logged, and a correctly signed delivery that follows is stored. Prints junk, time and RSS.
 * The client and the sink run in a child process of their own (./flood-child.ts), so its RSS is
 * theirs alone, whatever this test process ran before.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RING_DEFAULTS } from '../../service/sink/rejected-ring.ts';
import { runChild } from '../support/run-child.ts';
import type { FloodFigures } from './flood-child.ts';

const JUNK = 21_000;

describe('a sink flooded with junk', () => {
  it(`still stores a valid signed delivery after ${JUNK} junk requests, in bounded memory`, async () => {
    // The default cap (20 000) is below the junk count: junk counting toward it would block the delivery.
    const child = await runChild(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'flood-child.ts'), String(JUNK)], {
      timeoutMs: 110_000,
    });
    expect(child.status, child.stderr).toBe(0);
    const f = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as FloodFigures;
    console.log(
      `flood: ${JUNK} junk requests in ${(f.floodMs / 1000).toFixed(1)} s (answers ${JSON.stringify(f.statuses)}); ` +
        `then the valid delivery: ${f.answerStatus}, stored ${f.stored}; stats ${JSON.stringify(f.stats)}; ` +
        `ring ${f.ringEntries} entries, ${f.ringBodyBytes} body bytes kept; log ${f.logLines} lines; ` +
        `RSS ${(f.rss0 / 2 ** 20).toFixed(0)} -> peak ${(f.peak / 2 ** 20).toFixed(0)} MB (child process: client and sink)`,
    );
    expect(f.statuses['400']).toBe(JUNK);
    expect(f.answerStatus).toBe(200);
    expect(f.stored).toBe(1);
    expect(f.stats).toMatchObject({ deliveries: 1, rejected: JUNK, dropped: 0 });
    // Junk: the last 1 000, bodiless; forged events to a known endpoint: bounded by entries and body bytes.
    expect(f.ringBodiless).toBe(RING_DEFAULTS.junkEntries);
    expect(f.ringEntries).toBeLessThanOrEqual(RING_DEFAULTS.junkEntries + RING_DEFAULTS.evidenceEntries);
    expect(f.ringBodyBytes).toBeLessThanOrEqual(RING_DEFAULTS.evidenceBodyBytes);
    expect(f.logLines).toBe(2); // start + the valid delivery: junk never reaches the disk
    // The sink keeps a bounded ring of rejected requests (16 MiB of bodies, service/sink/README.md); the rest of the
    // growth is the child's garbage (21 000 requests sent from it) not yet collected: bounded, not exact.
    expect((f.peak - f.rss0) / 2 ** 20).toBeLessThan(450);
  }, 120_000);
});
