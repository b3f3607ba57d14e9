import type { IndexedPrescreenNote } from '../../../contract/candidates';
import { runScoped, type RequestScope } from '../../auth/scope';
import type { Database } from '../../db/client';
import { notFound } from '../../http/errors';
import { recordAudit, rowChange } from '../../audit';
import { insertContactEvents, updateCandidateRow } from './queries';

import { actorOf, event, indexedNotes, loadCandidate } from './candidate-record';

// ---- prescreen notes ----

export async function listNotes(db: Database, scope: RequestScope, candidateId: string) {
  return runScoped(db, scope, async (tx) => ({ notes: indexedNotes(await loadCandidate(tx, scope, candidateId)) }));
}

export async function addNote(db: Database, scope: RequestScope, candidateId: string, text: string): Promise<IndexedPrescreenNote> {
  return runScoped(db, scope, async (tx) => {
    const row = await loadCandidate(tx, scope, candidateId, true);
    const actor = await actorOf(tx, scope);
    const note = { text, authorUserId: scope.userId, authorName: actor.label, createdAt: new Date().toISOString() };
    const notes = [...(row.prescreenNotes ?? []), note];
    await updateCandidateRow(tx, row.id, { prescreenNotes: notes });
    const index = notes.length - 1;
    // The feed says a note was written and by whom; the text stays in the notes (and out of logs and audit).
    await insertContactEvents(tx, [event(row, actor, { kind: 'note', summary: 'Prescreen note added', details: { noteIndex: index, length: text.length } })]);
    await recordAudit(tx, rowChange(scope.userId, row, 'candidate.note.add', 'candidate', { noteIndex: index }));
    return { ...note, index };
  });
}

export async function deleteNote(db: Database, scope: RequestScope, candidateId: string, noteIndexText: string): Promise<void> {
  await runScoped(db, scope, async (tx) => {
    const row = await loadCandidate(tx, scope, candidateId, true);
    const notes = row.prescreenNotes ?? [];
    const index = /^\d{1,6}$/.test(noteIndexText) ? Number(noteIndexText) : -1;
    if (index < 0 || index >= notes.length) throw notFound('Note not found');
    await updateCandidateRow(tx, row.id, { prescreenNotes: notes.filter((_, i) => i !== index) });
    const actor = await actorOf(tx, scope);
    await insertContactEvents(tx, [event(row, actor, { kind: 'note', summary: 'Prescreen note deleted', details: { noteIndex: index } })]);
    await recordAudit(tx, rowChange(scope.userId, row, 'candidate.note.delete', 'candidate', { noteIndex: index }));
  });
}
