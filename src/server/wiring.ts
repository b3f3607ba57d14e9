import { listenToFunnel } from './funnel-signals';
import { clinicalNoteListener } from './features/matching/note-intake';
import { sequenceFunnelListener } from './features/sequences/listener';

/**
 * Attaches the features that react to other features' changes (funnel-signals.ts). Called by `createApp`
 * and by `startBackgroundWork`, so every way into the server (HTTP, jobs, tests through the app) has them;
 * attaching twice is harmless.
 */
export function wireFeatures(): void {
  listenToFunnel(sequenceFunnelListener);
  listenToFunnel(clinicalNoteListener);
}
