/**
 * Starting the reference server, written once for everything that serves it: `run`'s embedded
 * target (embedded.ts, beside its sink), `load`'s child process (reference-child-main.ts) and
 * `serve`. Loopback unless told otherwise, a port picked by the system unless told; a server
 * that cannot start is a usage error (exit 2) in one line, worded by the caller.
 */
import { startReference, type RunningReference, type VariantName } from '../../references/service/index.ts';
import { HarnessError } from '../errors.ts';

export type { RunningReference } from '../../references/service/index.ts';

export interface ReferenceServerOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Where its webhooks go: each endpoint's URL is this + its path. */
  webhookBaseUrl: string;
  /** The retry schedule is divided by this. Default 1. */
  timeScale?: number;
  /** Planted faults to switch on. Default none. */
  faults?: readonly string[];
  /** Its decisions on points the spec leaves open. Default 'reference'. */
  variant?: VariantName;
  /** Its internal errors (a planted fault's crash). Default: one line on stderr. */
  onError?: (err: unknown) => void;
}

/** The line a start failure ends as, from its reason. */
export type StartFailureLine = (reason: string) => string;

export const embeddedStartFailure: StartFailureLine = (reason) => `embedded reference server: ${reason}`;

export async function startReferenceServer(
  o: ReferenceServerOptions,
  failureLine: StartFailureLine = embeddedStartFailure,
): Promise<RunningReference> {
  try {
    return await startReference({
      host: o.host ?? '127.0.0.1',
      port: o.port ?? 0,
      webhookBaseUrl: o.webhookBaseUrl,
      timeScale: o.timeScale ?? 1,
      faults: o.faults ?? [],
      variant: o.variant,
      onError: o.onError,
    });
  } catch (e) {
    throw new HarnessError('HPS_ERR_USAGE', failureLine((e as Error).message));
  }
}
