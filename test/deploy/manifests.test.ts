/**
 * deploy/kubernetes/ checked offline (no kubectl here): every object against the Kubernetes API's
 * schemas and types from the kubernetes-models package (k8s-check.ts), then the references
 * between them and the sharding contract: Indexed Job, completions = parallelism = SHARDS, the
 * shard from JOB_COMPLETION_INDEX, the key from the Secret only, every shard directory merged;
 * the Jobs run the documented image.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { knownKind, schemaProblem, typeProblems } from './k8s-check.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const DIR = join(ROOT, 'deploy', 'kubernetes');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** The image name the Dockerfile's header, deploy/kubernetes/README.md and the CI examples document. */
export const IMAGE = `registry.example/hps-conformance:${VERSION}`;
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
  it('every object is valid against the Kubernetes API schema of its kind and type-checks as its interface (kubernetes-models)', () => {
    expect(docs.length).toBeGreaterThanOrEqual(5);
    for (const { file, doc } of docs) {
      expect(knownKind(doc), `${file}: ${doc.apiVersion}/${doc.kind} is not a kind these manifests may use`).toBe(true);
      expect(schemaProblem(doc), file).toBeUndefined();
    }
    expect(typeProblems(docs.map((d) => d.doc))).toEqual(docs.map(() => []));
  }, 60_000);

  it('the checks catch what they claim to (a misspelt field, a wrong type, an unknown enumeration value, a bad quantity)', () => {
    const job = byKind('Job').find((j) => j.spec.template.spec.containers[0].resources)!;
    const typo = structuredClone(job);
    typo.spec.completionmode = 'Indexed';
    const wrongType = structuredClone(job);
    wrongType.spec.parallelism = '3';
    const badEnum = structuredClone(job);
    badEnum.spec.template.spec.restartPolicy = 'Sometimes';
    const badQuantity = structuredClone(job);
    badQuantity.spec.template.spec.containers[0].resources.requests.cpu = '2 cores';
    expect(typeProblems([typo])[0]!.join('\n')).toMatch(/'"completionmode"' does not exist in type 'IJobSpec'/);
    expect(schemaProblem(wrongType)).toMatch(/spec\/parallelism must be integer/);
    expect(schemaProblem(badEnum)).toMatch(/restartPolicy must be equal to one of the allowed values/);
    expect(schemaProblem(badQuantity)).toMatch(/requests\/cpu must match format "quantity"/);
  }, 60_000);

  it('the Jobs run the documented image', () => {
    for (const job of byKind('Job')) {
      for (const c of job.spec.template.spec.containers) expect(c.image, job.metadata.name).toBe(IMAGE);
    }
  });

  it('references resolve: Secret keys, ConfigMaps, PVCs, volume mounts', () => {
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
      }
    }
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
