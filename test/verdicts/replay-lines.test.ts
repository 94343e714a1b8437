/** Every side's replay line is built in results/verdict/replay.ts: one seed form (`--seed=N`, so a negative seed parses). */
import { describe, expect, it } from 'vitest';
import { embeddedReplayArgs, replayCommand, seedFlag, sideReplayCommand } from '../../results/verdict/replay.ts';

describe('replay lines', () => {
  it('run: profile, rules, seed, runs when not the default, then the target words', () => {
    const ctx = { profilePath: 'p.json', seed: -5, runs: 7, replayArgs: ['--time-scale', '600'] };
    expect(replayCommand(
      ctx,
      ['A-ONE', 'B-TWO'],
    )).toBe('hps-conformance run --profile p.json --rule A-ONE --rule B-TWO --seed=-5 --runs 7 --time-scale 600');
    expect(replayCommand(
      { profilePath: null, seed: 3, runs: 100, replayArgs: [] },
      ['A-ONE'],
    )).toBe('hps-conformance run --rule A-ONE --seed=3');
  });

  it("the embedded reference's words: faults, time scale, the alt variant (the default variant says nothing)", () => {
    expect(embeddedReplayArgs({})).toEqual([]);
    expect(embeddedReplayArgs({
      faults: ['a', 'b'],
      timeScale: 600,
      variant: 'alt',
    })).toEqual(['--fault', 'a', '--fault', 'b', '--time-scale', '600', '--variant', 'alt']);
    expect(embeddedReplayArgs({ variant: 'reference' })).toEqual([]);
  });

  it('receiver and client: the command, then the seed in the same form', () => {
    expect(seedFlag(-620616603)).toBe('--seed=-620616603');
    expect(sideReplayCommand('hps-conformance receiver --profile m.json', 42)).toBe('hps-conformance receiver --profile m.json --seed=42');
  });
});
