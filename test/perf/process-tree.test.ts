import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { descendantsOf, parseStat, parseStatus, sampleTree } from './process-tree.ts';

describe('test/perf/process-tree: a process tree measured from outside', () => {
  it('reads ppid and CPU from /proc/<pid>/stat, whatever the command name holds', () => {
    const stat = '4242 (node (worker) x) S 17 4242 4242 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 11 0 123 456 789';
    expect(parseStat(4242, stat)).toEqual({ pid: 4242, ppid: 17, cpuMs: 3000 });
    expect(parseStat(1, 'garbage')).toBeNull();
  });

  it('reads VmRSS and VmHWM (0 when absent, as for a zombie)', () => {
    expect(parseStatus('Name:\tnode\nVmHWM:\t  512000 kB\nVmRSS:\t  400000 kB\n')).toEqual({ rssKb: 400000, hwmKb: 512000 });
    expect(parseStatus('Name:\tnode\nState:\tZ (zombie)\n')).toEqual({ rssKb: 0, hwmKb: 0 });
  });

  it('finds every descendant of the root, and nothing else', () => {
    const p = (pid: number, ppid: number) => ({ pid, ppid, cpuMs: 0 });
    const procs = [p(1, 0), p(10, 1), p(11, 10), p(12, 10), p(13, 12), p(20, 1), p(21, 20)];
    expect(descendantsOf(10, procs).sort()).toEqual([10, 11, 12, 13]);
    expect(descendantsOf(99, procs)).toEqual([99]);
  });

  it.runIf(process.platform === 'linux')('sums the resident memory of a parent and its child', async () => {
    // The parent holds ~60 MB, its child ~60 MB more: the tree's peak is over 100 MB, more than either alone.
    const hold = 'const b = Buffer.alloc(60 * 1024 * 1024, 1); setTimeout(() => b.length, 1500);';
    const parent = `${hold} require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(hold)}], { stdio: "inherit" });`;
    const child = spawn(process.execPath, ['-e', parent], { stdio: 'ignore' });
    const sampler = sampleTree(child.pid!, 50);
    await new Promise((done) => child.on('close', done));
    const fig = sampler.stop();
    expect(fig.processes).toBe(2);
    expect(fig.peakRssKb).toBeGreaterThan(100 * 1024);
    expect(fig.cpuMs).toBeGreaterThan(0);
  });
});
