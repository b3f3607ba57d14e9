/**
 * The in-process loop of a kind of processing run (decision 006): at most one loop per run in this process,
 * started on the next turn of the event loop, with a way for tests and shutdown to wait for it.
 */
export function backgroundRuns<Deps>(process: (deps: Deps, runId: string, organizationId: string) => Promise<void>) {
  const active = new Map<string, Promise<void>>();
  return {
    /** Processes a run in the background unless this process already does. */
    schedule(deps: Deps, runId: string, organizationId: string): Promise<void> {
      const existing = active.get(runId);
      if (existing) return existing;
      const work = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => process(deps, runId, organizationId))
        .finally(() => active.delete(runId));
      active.set(runId, work);
      return work;
    },
    /** Resolves when the run's background processing (if any, in this process) has settled. */
    whenSettled: (runId: string): Promise<void> => active.get(runId) ?? Promise.resolve(),
    isActive: (runId: string) => active.has(runId),
  };
}
