/**
 * deploy/kubernetes/ checked offline (no kubectl here): every object against the structural
 * shapes of the fields it uses (k8s-shape.ts), then the references between them and the
 * sharding contract: Indexed Job, completions = parallelism = SHARDS, the shard from
 * JOB_COMPLETION_INDEX, the key from the Secret only, every shard directory merged.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { check, quantityOk, SHAPES } from './k8s-shape.ts';

const DIR = join(import.meta.dirname, '..', '..', 'deploy', 'kubernetes');
type K8s = { apiVersion: string; kind: string; metadata: { name: string }; [k: string]: any };

function load(): { file: string; doc: K8s }[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(DIR, file), 'utf8')).map((d) => {
        expect(d.errors, file).toEqual([]);
        return { file, doc: d.toJS() as K8s };
      }),
    );
}

const docs = load();
const byKind = (kind: string) => docs.filter((d) => d.doc.kind === kind).map((d) => d.doc);

describe('deploy/kubernetes manifests', () => {
  it('every object matches the shape of its kind (types, required fields, enumerations, no unknown field)', () => {
    expect(docs.length).toBeGreaterThanOrEqual(5);
    for (const { file, doc } of docs) {
      const shape = SHAPES[`${doc.apiVersion}/${doc.kind}`];
      expect(shape, `${file}: ${doc.apiVersion}/${doc.kind} is not a kind these manifests may use`).toBeDefined();
      expect(check(doc, shape!), file).toEqual([]);
    }
  });

  it('the validator catches what it claims to (a typo, a wrong type, a missing field)', () => {
    const job = structuredClone(byKind('Job')[0]!);
    job.spec.completionmode = 'Indexed';
    job.spec.parallelism = '3';
    delete job.spec.template.spec.containers[0].image;
    const problems = check(job, SHAPES['batch/v1/Job']!).join('\n');
    expect(problems).toMatch(/unknown field completionmode/);
    expect(problems).toMatch(/spec.parallelism: must be an integer/);
    expect(problems).toMatch(/image is required/);
  });

  it('references resolve: Secret keys, ConfigMaps, PVCs, volume mounts; quantities parse', () => {
    const secrets = new Map(byKind('Secret').map((s) => [s.metadata.name, Object.keys({ ...s.stringData, ...s.data })]));
    const configMaps = new Set(byKind('ConfigMap').map((c) => c.metadata.name));
    const claims = new Set(byKind('PersistentVolumeClaim').map((c) => c.metadata.name));
    for (const job of byKind('Job')) {
      const pod = job.spec.template.spec;
      const volumes = new Set((pod.volumes ?? []).map((v: any) => v.name));
      for (const v of pod.volumes ?? []) {
        if (v.configMap) expect(configMaps.has(v.configMap.name), v.configMap.name).toBe(true);
        if (v.persistentVolumeClaim) expect(claims.has(v.persistentVolumeClaim.claimName)).toBe(true);
      }
      for (const c of pod.containers) {
        for (const m of c.volumeMounts ?? []) expect(volumes.has(m.name), `${job.metadata.name} mounts ${m.name}`).toBe(true);
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref) expect(secrets.get(ref.name), `${ref.name}/${ref.key}`).toContain(ref.key);
        }
        for (const q of [...Object.values(c.resources?.requests ?? {}), ...Object.values(c.resources?.limits ?? {})]) expect(quantityOk(q as string), String(q)).toBe(true);
      }
    }
    for (const p of byKind('PersistentVolumeClaim')) expect(quantityOk(p.spec.resources.requests.storage)).toBe(true);
  });

  it('the shards are an Indexed Job (completions = parallelism = SHARDS, shard from JOB_COMPLETION_INDEX) and the merge reads every shard', () => {
    const shards = byKind('Job').find((j) => j.spec.completionMode === 'Indexed')!;
    const merge = byKind('Job').find((j) => j !== shards)!;
    expect(shards).toBeDefined();
    const n = shards.spec.completions;
    expect(shards.spec.parallelism).toBe(n);
    const c = shards.spec.template.spec.containers[0];
    const env = Object.fromEntries(c.env.filter((e: any) => e.value !== undefined).map((e: any) => [e.name, e.value]));
    expect(Number(env.SHARDS)).toBe(n);
    const script = [...(c.command ?? []), ...(c.args ?? [])].join(' ');
    expect(script).toMatch(/--shard "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/\$SHARDS"/);
    expect(script).toMatch(/--report "\/results\/\$RUN_ID\/shard-\$JOB_COMPLETION_INDEX"/);
    // The key comes from the Secret, never as a literal.
    expect(c.env.find((e: any) => e.name === 'HPS_TEST_KEY')?.valueFrom?.secretKeyRef).toBeDefined();
    expect(JSON.stringify(docs.filter((d) => d.doc.kind !== 'Secret'))).not.toMatch(/pt_(test|live)_sk_/);
    const mergeScript = merge.spec.template.spec.containers[0].args.join(' ');
    expect(mergeScript).toContain('load merge');
    for (let i = 0; i < n; i += 1) expect(mergeScript).toContain(`"/results/$RUN_ID/shard-${i}"`);
    expect(mergeScript).not.toContain(`shard-${n}"`);
  });
});
