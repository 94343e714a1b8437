/**
 * What `load merge` accepts: the shards of one run, each once. Every shard's load.json carries
 * `shard_of` (the run id given with --run-id, shard i of N) and its options (scenario, mix, rate,
 * window, connections, thresholds, target); a directory that is not such a shard, a shard given
 * twice, shards of different runs, scenarios or configurations are refused (exit 2, one line),
 * and so is a shard missing unless the merge is told `--allow-missing`.
 */
import { HarnessError } from '../core/errors.ts';
import type { LoadReport } from './report.ts';

/** The shards' run, N, and the indices of the shards not given (1-based). */
export interface ShardSet {
  runId: string;
  count: number;
  missing: number[];
}

const refuse = (text: string): never => {
  throw new HarnessError('HPS_ERR_USAGE', `load merge: ${text}`);
};

/** The options that must be equal on every shard of one run (workers may differ by machine). */
function configurationOf(r: LoadReport): Record<string, string> {
  const o = r.options;
  return {
    target: JSON.stringify(r.target?.base_url ?? null),
    model: JSON.stringify(o.model),
    arrivals: JSON.stringify(o.arrivals),
    rate: JSON.stringify(o.rate),
    warmup_s: String(o.warmup_s),
    duration_s: String(o.duration_s),
    connections: String(o.connections),
    timeout_s: String(o.timeout_s),
    honour_retry_after: String(o.honour_retry_after === true),
    thresholds: JSON.stringify(o.thresholds),
  };
}

function sameRunAndScenario(first: LoadReport, r: LoadReport, dirs: readonly [string, string]): void {
  const [a, b] = dirs;
  const [s, f] = [r.shard_of!, first.shard_of!];
  if (s.run_id !== f.run_id) refuse(`${b} is a shard of run ${s.run_id}, ${a} of run ${f.run_id}: the shards of different runs are not ` +
    `merged`);
  if (s.count !== f.count) refuse(`${b} is shard ${s.index}/${s.count}, ${a} shard ${f.index}/${f.count}: one run has one N`);
  const scenario = (x: LoadReport) => `${x.options.scenario} (${JSON.stringify(x.options.mix)})`;
  if (scenario(r) !== scenario(first)) refuse(`${b} ran scenario ${scenario(r)}, ${a} ${scenario(first)}: the shards of one run share a ` +
    `scenario`);
  const [cr, cf] = [configurationOf(r), configurationOf(first)];
  const differs = Object.keys(cf).find((k) => cr[k] !== cf[k]);
  if (differs) refuse(`${b} ran with ${differs} ${cr[differs]}, ${a} with ${cf[differs]}: the shards of one run share a configuration`);
}

/** Refuses (HarnessError, exit 2) what does not belong to one run; returns the run and the shards missing. */
export function checkShardSet(shards: readonly LoadReport[], dirs: readonly string[], allowMissing: boolean): ShardSet {
  shards.forEach((r, i) => {
    const s = r.shard_of;
    if (
      !s ||
      typeof s.run_id !== 'string' ||
      !/^[A-Za-z0-9_-]{1,40}$/.test(s.run_id) ||
      !Number.isInteger(s.index) ||
      !Number.isInteger(s.count) ||
      s.index < 1 ||
      s.index > s.count
    ) {
      refuse(`${dirs[i]} is not the shard of a run (written without --shard and --run-id, or by a version whose shards did not carry ` +
        `their run id): merge the shards of one run`);
    }
  });
  const first = shards[0]!;
  const seen = new Map<number, string>();
  shards.forEach((r, i) => {
    sameRunAndScenario(first, r, [dirs[0]!, dirs[i]!]);
    const twice = seen.get(r.shard_of!.index);
    if (twice !== undefined) refuse(`${twice} and ${dirs[i]} are both shard ${r.shard_of!.index}/${r.shard_of!.count} of ` +
      `run ${r.shard_of!.run_id}: a shard is merged once`);
    seen.set(r.shard_of!.index, dirs[i]!);
  });
  const { run_id: runId, count } = first.shard_of!;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length && !allowMissing) {
    refuse(`shard ${missing.map((i) => `${i}/${count}`).join(', ')} of run ${runId} not given (give every shard's directory, or ` +
      `--allow-missing to merge the others: the verdict is then incomplete)`);
  }
  return { runId, count, missing };
}
