import type { AppDeps } from '../../http/context';

/** The callback-place job: places one callback if it is still due and this job is still its job. (Being written.) */
export async function placeCallbackJob(_deps: AppDeps, _data: { callbackId: string }, _jobId: string): Promise<void> {}

/** The callback-sweep job (and start-up): due callbacks whose job was lost get a new one. (Being written.) */
export async function sweepCallbacks(_deps: AppDeps): Promise<void> {}
