import { CLINICAL_NOTE_MAX } from '../../../contract/clinical-note';
import type { ImportField } from '../../../contract/candidates';

/**
 * An import's notes columns (decision 132): the free text of a referral list ("Notes", "Clinical notes",
 * "Referral notes") kept as the candidate's clinical notes, one per column, and read by the matching feature's
 * note reader in the batch's transaction (funnel-signals.ts `notesReceived`), so an imported note has the same
 * facts, spans and quotes as one typed on the candidate's page. Pure: the preview and the run's batches share it.
 */

export const noteColumns = (mapping: Record<string, ImportField>): string[] =>
  Object.entries(mapping)
    .filter(([, field]) => field === 'notes')
    .map(([column]) => column);

/** A row's notes (its non-empty notes cells, in column order); a note over the note limit is an error naming its column. */
export function notesOfRow(
  mapped: { clinical?: Record<string, string> },
  columns: readonly string[],
): { notes: string[]; errors: Array<{ field: string; message: string }> } {
  const notes: string[] = [];
  const errors: Array<{ field: string; message: string }> = [];
  if (!mapped.clinical) return { notes, errors };
  for (const column of columns) {
    const body = mapped.clinical[column]?.trim();
    if (!body) continue;
    if (body.length > CLINICAL_NOTE_MAX) errors.push({ field: column, message: `A note of at most ${CLINICAL_NOTE_MAX.toLocaleString('en-US')} characters` });
    else notes.push(body);
  }
  return { notes, errors };
}
