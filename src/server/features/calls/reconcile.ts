import type { ProcessVapiInput, ProcessVapiResult } from '../../../contract/voice';
import type { RequestScope } from '../../auth/scope';
import type { AppDeps } from '../../http/context';

/** POST /api/process/vapi: asks the provider about open calls whose messages never came, records missing results. (Being written.) */
export async function processVapi(_deps: AppDeps, _scope: RequestScope, _input: ProcessVapiInput): Promise<ProcessVapiResult> {
  throw new Error('not implemented yet');
}
