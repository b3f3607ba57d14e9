import type { ProcessingRun } from '../../../contract/processing-runs';
import type { PrescreenAllInput } from '../../../contract/voice';
import type { RequestScope } from '../../auth/scope';
import type { AppDeps } from '../../http/context';

/** POST /api/calls/prescreen-all: a processing run that calls every candidate due a prescreen call. (Being written.) */
export async function startPrescreenAll(_deps: AppDeps, _scope: RequestScope, _input: PrescreenAllInput): Promise<ProcessingRun> {
  throw new Error('not implemented yet');
}

/** At start-up: continues prescreen-call runs left running by a stopped process. */
export async function resumePrescreenRuns(_deps: AppDeps): Promise<string[]> {
  return [];
}
