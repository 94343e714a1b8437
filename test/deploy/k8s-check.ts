/**
 * Kubernetes objects checked offline against kubernetes-models (the Kubernetes API's own OpenAPI
 * schemas, as a maintained npm package), two ways:
 * - its validator (`new Job(obj).validate()`): types, formats, enumerations, required members;
 * - its TypeScript types, by compiling the object as a literal of the kind's interface: the
 *   API schema leaves unknown members open (the API server refuses them only with strict field
 *   validation), while an object literal's excess-property check refuses a misspelt field.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { ConfigMap, PersistentVolumeClaim, Secret } from 'kubernetes-models/v1';
import { Job } from 'kubernetes-models/batch/v1';

type Obj = { apiVersion: string; kind: string; [k: string]: unknown };

/** The kinds these manifests may use: the model class, and the module and interface of its type. */
const KINDS: Readonly<Record<string, { model: new (o: any) => { validate(): void }; module: string; type: string }>> = {
  'batch/v1/Job': { model: Job, module: 'kubernetes-models/batch/v1/Job', type: 'IJob' },
  'v1/ConfigMap': { model: ConfigMap, module: 'kubernetes-models/v1/ConfigMap', type: 'IConfigMap' },
  'v1/Secret': { model: Secret, module: 'kubernetes-models/v1/Secret', type: 'ISecret' },
  'v1/PersistentVolumeClaim': {
    model: PersistentVolumeClaim,
    module: 'kubernetes-models/v1/PersistentVolumeClaim',
    type: 'IPersistentVolumeClaim',
  },
};

export const knownKind = (o: Obj): boolean => `${o.apiVersion}/${o.kind}` in KINDS;

/** The validator's complaint about one object, or undefined when it is valid. */
export function schemaProblem(o: Obj): string | undefined {
  const kind = KINDS[`${o.apiVersion}/${o.kind}`];
  if (kind === undefined) return `${o.apiVersion}/${o.kind} is not a kind these manifests use`;
  try {
    new kind.model(o).validate();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * The type checker's complaints about each object, compiled as `const o: I<Kind> = <object>`
 * in one program (a virtual file beside this one, so the package resolves from node_modules).
 */
export function typeProblems(objects: readonly Obj[]): string[][] {
  const file = join(import.meta.dirname, '__manifests__.ts');
  const lines: string[] = [];
  objects.forEach((o, i) => {
    const kind = KINDS[`${o.apiVersion}/${o.kind}`]!;
    lines.push(`import type { ${kind.type} as T${i} } from '${kind.module}';`, `export const o${i}: T${i} = ${JSON.stringify(o)};`);
  });
  const text = lines.join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (
    name,
    lang,
    ...rest
  ) => (name === file ? ts.createSourceFile(name, text, lang) : getSourceFile(name, lang, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const out: string[][] = objects.map(() => []);
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (d.file?.fileName !== file || d.start === undefined) {
      out.forEach((p) => p.push(message));
      continue;
    }
    const line = d.file.getLineAndCharacterOfPosition(d.start).line;
    out[Math.floor(line / 2)]?.push(message);
  }
  return out;
}
