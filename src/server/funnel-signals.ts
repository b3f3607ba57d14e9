import type { SequenceTrigger } from '../contract/sequences';
import type { Transaction } from './db/scoped';

/**
 * What just happened to people, said by the feature that made it happen, in the transaction of the change,
 * to the features that react (outreach sequences start and end on these). It sits below the features, like
 * `audit.ts` and `activity.ts`, so that candidates, SMS, prescreen and calls do not import the features
 * listening to them (issue 16 item 3: no import cycles between feature folders). The listeners are
 * attached once, in `wiring.ts`, before the app or the background work starts.
 */
export interface FunnelListener {
  /** A trigger fired for these people (imported for a trial, a missed call, POTENTIAL, a no-show). */
  triggered?(tx: Transaction, organizationId: string, trigger: SequenceTrigger, candidateIds: string[], trialIds: string[]): Promise<unknown>;
  /** A person's status or do-not-contact changed (`values` as written). */
  funnelChanged?(tx: Transaction, candidateId: string, values: { status?: string; doNotContact?: boolean }): Promise<unknown>;
  /** A person answered an SMS: a reply, or STOP. */
  answered?(tx: Transaction, candidateId: string, answer: 'replied' | 'opted_out'): Promise<unknown>;
  /**
   * Clinical notes arrived with people (an import's notes column, decision 132): the listener that keeps notes
   * stores and reads them; answers how many notes and facts it stored.
   */
  notesReceived?(tx: Transaction, organizationId: string, notes: ReceivedNote[]): Promise<{ notes: number; facts: number }>;
}

/** A note that came with a person from outside the candidate's page, and who brought it. */
export interface ReceivedNote {
  candidateId: string;
  body: string;
  authorUserId: string | null;
}

const listeners: FunnelListener[] = [];

/** Attaches a listener (once per process: attaching the same object again is a no-op). */
export function listenToFunnel(listener: FunnelListener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

/** The signals, each awaited in order by every listener inside the caller's transaction: a listener's failure rolls the change back. */
export const funnelSignals = {
  async triggered(tx: Transaction, organizationId: string, trigger: SequenceTrigger, candidateIds: string[], trialIds: string[]): Promise<void> {
    if (!candidateIds.length) return;
    for (const listener of listeners) await listener.triggered?.(tx, organizationId, trigger, candidateIds, trialIds);
  },
  async funnelChanged(tx: Transaction, candidateId: string, values: { status?: string; doNotContact?: boolean }): Promise<void> {
    for (const listener of listeners) await listener.funnelChanged?.(tx, candidateId, values);
  },
  async answered(tx: Transaction, candidateId: string, answer: 'replied' | 'opted_out'): Promise<void> {
    for (const listener of listeners) await listener.answered?.(tx, candidateId, answer);
  },
  async notesReceived(tx: Transaction, organizationId: string, notes: ReceivedNote[]): Promise<{ notes: number; facts: number }> {
    const stored = { notes: 0, facts: 0 };
    if (!notes.length) return stored;
    for (const listener of listeners) {
      const counts = await listener.notesReceived?.(tx, organizationId, notes);
      if (counts) {
        stored.notes += counts.notes;
        stored.facts += counts.facts;
      }
    }
    return stored;
  },
};
