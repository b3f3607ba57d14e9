import { ActionsTh } from '../../components/ListState';
import { ChevronDown, ChevronUp, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { CLINICAL_NOTE_MAX } from '../../../contract/clinical-note';
import type { CandidateFact, ClinicalNote } from '../../../contract/matching';
import { ConfirmDialog } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Textarea } from '../../components/Textarea';
import { Badge, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Table, Td, Th } from '../../components/ui';
import { errorMessage, formatDateTime } from '../../lib/utils';
import { plural } from '../candidates/format';
import { AddFactDialog } from './dialogs';
import { FACT_SOURCE_LABELS, FACT_STATUS_LABELS, FACT_STATUS_TONES, factValue, formatDay, groupFacts, newestFirst, noteEvidence, noteOf } from './format';
import { useAddClinicalNote, useClinicalRecordQuery, useDeleteClinicalNote, useDeleteFact } from './queries';

/** Long notes show their start until opened. */
const PREVIEW_CHARS = 240;

function NoteItem({ candidateId, note }: { candidateId: string; note: ClinicalNote }) {
  const [expanded, setExpanded] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteClinicalNote(candidateId);
  const bodyId = useId();
  const long = note.body.length > PREVIEW_CHARS;
  const when = formatDateTime(note.createdAt);
  return (
    <li className="grid gap-2 rounded-md border border-slate-200 bg-white px-3 py-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-700">
          {note.authorName ?? 'Unknown'} · <time dateTime={note.createdAt}>{when}</time> · {plural(note.factCount, 'fact')} read
        </p>
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          trigger={
            <Button variant="ghost" size="sm" aria-label={`Delete the note of ${when}`}>
              <Trash2 aria-hidden="true" className="h-4 w-4" />
              Delete
            </Button>
          }
          title="Delete this note?"
          description={
            note.factCount > 0
              ? `The note and the ${plural(note.factCount, 'fact')} read from it are removed for good; trial matching no longer counts them.`
              : 'The note is removed for good.'
          }
          confirmLabel="Delete note"
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(note.id, {
              onSuccess: () => {
                toast.success('Note deleted');
                setConfirming(false);
              },
            })
          }
        />
      </div>
      <p id={bodyId} className="whitespace-pre-line text-sm text-slate-900">
        {long && !expanded ? `${note.body.slice(0, PREVIEW_CHARS).trimEnd()}…` : note.body}
      </p>
      {long && (
        <div>
          <Button variant="ghost" size="sm" aria-expanded={expanded} aria-controls={bodyId} onClick={() => setExpanded(!expanded)}>
            {expanded ? <ChevronUp aria-hidden="true" className="h-4 w-4" /> : <ChevronDown aria-hidden="true" className="h-4 w-4" />}
            {expanded ? 'Show less' : 'Show the whole note'}
          </Button>
        </div>
      )}
    </li>
  );
}

function NotesSection({ candidateId, notes }: { candidateId: string; notes: ClinicalNote[] }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddClinicalNote(candidateId);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="grid gap-3">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        Clinical notes
      </h3>
      <form
        className="grid gap-2"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const body = text.trim();
          if (!body) return setError('Write or paste the note');
          setError(null);
          add.mutate(body, {
            onSuccess: ({ facts }) => {
              toast.success(`Note saved: ${plural(facts.length, 'fact')} read`);
              setText('');
            },
            onError: (failure) => setError(errorMessage(failure)),
          });
        }}
      >
        <Field
          label="New clinical note"
          error={error ?? undefined}
          hint="A referral letter or visit note. Age, sex, conditions and medications are read from it, with what the patient denies or had before."
        >
          <Textarea rows={5} value={text} maxLength={CLINICAL_NOTE_MAX} onChange={(event) => setText(event.target.value)} />
        </Field>
        <div>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? 'Reading…' : 'Add note'}
          </Button>
        </div>
      </form>
      {notes.length === 0 ? (
        <p className="text-sm text-slate-700">No clinical notes yet. Paste a referral letter or visit note to read conditions, medications and age from it.</p>
      ) : (
        <ol className="grid gap-2" aria-label="Clinical notes, newest first">
          {newestFirst(notes).map((note) => (
            <NoteItem key={note.id} candidateId={candidateId} note={note} />
          ))}
        </ol>
      )}
    </section>
  );
}

/** Where a fact came from, with the words it was read from (the note's sentence, the mention marked). */
function FactSource({ fact, notes }: { fact: CandidateFact; notes: ClinicalNote[] }) {
  const note = noteOf(fact, notes);
  const evidence = note ? noteEvidence(note.body, fact.span) : null;
  return (
    <div className="grid gap-1">
      <span>{FACT_SOURCE_LABELS[fact.source] ?? fact.source}</span>
      {evidence ? (
        <q className="text-xs text-slate-700">
          {evidence.before}
          <mark className="rounded-sm bg-yellow-200 px-0.5 text-slate-900">{evidence.mention}</mark>
          {evidence.after}
        </q>
      ) : (
        fact.sourceText && <q className="text-xs text-slate-700">{fact.sourceText}</q>
      )}
    </div>
  );
}

function FactRow({ candidateId, fact, notes }: { candidateId: string; fact: CandidateFact; notes: ClinicalNote[] }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteFact(candidateId);
  return (
    <tr>
      <Td className="font-medium text-slate-900">{fact.name}</Td>
      <Td>{fact.status ? <Badge tone={FACT_STATUS_TONES[fact.status]}>{FACT_STATUS_LABELS[fact.status]}</Badge> : '—'}</Td>
      <Td>{factValue(fact) || '—'}</Td>
      <Td className="whitespace-nowrap">{formatDay(fact.observedOn)}</Td>
      <Td className="align-top">
        <FactSource fact={fact} notes={notes} />
      </Td>
      <Td className="text-right">
        <ConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          trigger={
            <Button variant="ghost" size="sm" aria-label={`Delete fact: ${fact.name}`}>
              <Trash2 aria-hidden="true" className="h-4 w-4" />
              Delete
            </Button>
          }
          title="Delete this fact?"
          description={`“${fact.name}” is removed from what is known of the candidate; trial matching no longer counts it.`}
          confirmLabel="Delete fact"
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(fact.id, {
              onSuccess: () => {
                toast.success('Fact deleted');
                setConfirming(false);
              },
            })
          }
        />
      </Td>
    </tr>
  );
}

function FactsSection({ candidateId, facts, notes }: { candidateId: string; facts: CandidateFact[]; notes: ClinicalNote[] }) {
  const headingId = useId();
  const groups = groupFacts(facts);
  return (
    <section aria-labelledby={headingId} className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold text-slate-900">
          Known facts
        </h3>
        <AddFactDialog candidateId={candidateId} />
      </div>
      {groups.length === 0 ? (
        <p className="text-sm text-slate-700">No facts known yet. They come from clinical notes, health records, prescreen answers, or are added by hand.</p>
      ) : (
        groups.map((group) => (
          <div key={group.title} className="grid gap-1.5">
            <h4 className="text-sm font-semibold text-slate-800">{group.title}</h4>
            <Table caption={`Known facts: ${group.title}`}>
              <thead>
                <tr>
                  <Th>Name</Th>
                  <Th>Status</Th>
                  <Th>Value</Th>
                  <Th>Date</Th>
                  <Th>Source</Th>
                  <ActionsTh className="text-right" />
                </tr>
              </thead>
              <tbody>
                {group.facts.map((fact) => (
                  <FactRow key={fact.id} candidateId={candidateId} fact={fact} notes={notes} />
                ))}
              </tbody>
            </Table>
          </div>
        ))
      )}
    </section>
  );
}

/** The candidate's clinical record: notes (read into facts when saved) and every fact known, with its source. */
export function ClinicalRecordCard({ candidateId }: { candidateId: string }) {
  const query = useClinicalRecordQuery(candidateId);
  const headingId = useId();
  let body;
  if (query.isPending) body = <Spinner label="Loading the clinical record" />;
  else if (query.isError) body = <ErrorCard title="Could not load the clinical record" error={query.error} onRetry={() => void query.refetch()} />;
  else
    body = (
      <div className="grid gap-6">
        <NotesSection candidateId={candidateId} notes={query.data.notes} />
        <FactsSection candidateId={candidateId} facts={query.data.facts} notes={query.data.notes} />
      </div>
    );
  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle id={headingId}>Clinical record</CardTitle>
        <CardDescription>What is known of the candidate’s health, and where each fact came from. Trial matching uses these facts.</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
