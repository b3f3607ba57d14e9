import { Link, useNavigate, useRouter } from '@tanstack/react-router';
import { ClipboardList, History, MessageSquare, Trash2 } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import {
  CANDIDATE_STATUSES,
  ConsentInputSchema,
  CreatePrescreenNoteSchema,
  UpdateCandidateSchema,
  type Candidate,
  type CandidateStatus,
  type IndexedPrescreenNote,
} from '../../../contract/candidates';
import { ConfirmDialog, Dialog } from '../../components/dialogs';
import { RecordLoadError } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Button, buttonClass, Card, CardContent, CardDescription, CardHeader, CardTitle, Field, Input, Label, Select, SubmitButton } from '../../components/ui';
import { maxLengthOf } from '../../lib/limits';
import { usePhoneLibrary } from '../../lib/phone-lazy';
import { cn, formatDate, formatDateTime } from '../../lib/utils';
import { CandidateCallbackCard, ScheduleCallbackButton } from '../callbacks/CandidateCallback';
import { Combobox } from '../../components/Combobox';
import { TRIAL_PICKER, trialOption } from '../trials/trial-option';
import { useTrialsQuery } from '../trials/queries';
import { CallNowButton } from '../voice/CallNowButton';
import { AlsoFitsCard } from '../clinical-record/AlsoFitsCard';
import { ClinicalRecordCard } from '../clinical-record/ClinicalRecordCard';
import { FindTrialsButton } from '../matching/FindTrialsButton';
import { CandidateFormDialog } from './dialogs';
import { CandidateStatusBadge, Checkbox } from './components';
import { CANDIDATE_STATUS_LABELS, candidateName, customFieldLabel, formatBirthDate, formatPhone, languageLabel, SEX_LABELS, sourceLabel } from './format';
import { useAddNote, useBulkUpdateCandidates, useCandidateQuery, useDeleteCandidate, useDeleteNote, useUpdateCandidate } from './queries';

/** The server's limits (src/contract/candidates.ts). */
const STATUS_REASON_MAX = maxLengthOf(UpdateCandidateSchema.shape.statusReason);
const DO_NOT_CONTACT_REASON_MAX = maxLengthOf(ConsentInputSchema.shape.doNotContactReason);
const NOTE_MAX = maxLengthOf(CreatePrescreenNoteSchema.shape.text);

// The Sequences card (its words, actions and timeline helpers) loads after the page shows.
const CandidateSequencesCard = lazy(() => import('../sequences/CandidateSequencesCard'));

const textareaClass =
  'flex min-h-24 w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 aria-[invalid=true]:border-red-700';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    // min-w-0 and anywhere-wrapping: a long email breaks inside its column instead of running under the next.
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-700">{label}</dt>
      <dd className="text-sm text-slate-900 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

function ProfileCard({ candidate }: { candidate: Candidate }) {
  usePhoneLibrary();
  const custom = Object.entries(candidate.customFields ?? {});
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between">
        <CardTitle>Profile</CardTitle>
        <CandidateFormDialog candidate={candidate} triggerVariant="secondary" />
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Detail label="Phone">{formatPhone(candidate.phone)}</Detail>
          <Detail label="Email">{candidate.email ?? '—'}</Detail>
          <Detail label="Date of birth">{formatBirthDate(candidate.dateOfBirth)}</Detail>
          <Detail label="Sex">{SEX_LABELS[candidate.sex] ?? candidate.sex}</Detail>
          <Detail label="Postal code">{candidate.postalCode ?? '—'}</Detail>
          <Detail label="Address">{[candidate.addressLine, candidate.city, candidate.region, candidate.country].filter(Boolean).join(', ') || '—'}</Detail>
          <Detail label="Time zone">{candidate.timeZone?.replace(/_/g, ' ') ?? '—'}</Detail>
          <Detail label="Preferred language">{languageLabel(candidate.preferredLanguage)}</Detail>
          <Detail label="Source">{sourceLabel(candidate.source)}</Detail>
          <Detail label="Added">{formatDateTime(candidate.createdAt)}</Detail>
          <Detail label="Last updated">{formatDateTime(candidate.updatedAt)}</Detail>
          {custom.map(([key, value]) => (
            <Detail key={key} label={customFieldLabel(key)}>
              {value === null ? '—' : String(value)}
            </Detail>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

function StatusCard({ candidate }: { candidate: Candidate }) {
  const [status, setStatus] = useState<CandidateStatus>(candidate.status);
  const [reason, setReason] = useState('');
  const update = useUpdateCandidate();
  useEffect(() => setStatus(candidate.status), [candidate.status]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Status</CardTitle>
        <CardDescription>Each change is kept in the contact history with its reason.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex items-center gap-2 text-sm text-slate-800">
          Now: <CandidateStatusBadge status={candidate.status} />
        </div>
        <form
          className="grid gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (status === candidate.status) return;
            update.mutate(
              { id: candidate.id, input: { status, statusReason: reason.trim() || undefined } },
              {
                onSuccess: () => {
                  toast.success(`Status changed to ${CANDIDATE_STATUS_LABELS[status].toLowerCase()}`);
                  setReason('');
                },
              },
            );
          }}
        >
          <Field label="New status">
            <Select value={status} onChange={(event) => setStatus(event.target.value as CandidateStatus)}>
              {CANDIDATE_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {CANDIDATE_STATUS_LABELS[value]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Reason (optional)">
            <Input value={reason} maxLength={STATUS_REASON_MAX} onChange={(event) => setReason(event.target.value)} />
          </Field>
          <div>
            <SubmitButton variant="secondary" pending={update.isPending} disabled={status === candidate.status}>
              Change status
            </SubmitButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function ConsentCard({ candidate }: { candidate: Candidate }) {
  const update = useUpdateCandidate();
  const [dncOpen, setDncOpen] = useState(false);
  const [reason, setReason] = useState('');
  const { consent } = candidate;
  const save = (input: { sms?: boolean; calls?: boolean; doNotContact?: boolean; doNotContactReason?: string }, message: string, after?: () => void) =>
    update.mutate(
      { id: candidate.id, input: { consent: input } },
      {
        onSuccess: () => {
          toast.success(message);
          after?.();
        },
      },
    );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Consent</CardTitle>
        <CardDescription>What the candidate agreed to be contacted by. Changes are kept in the contact history.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap gap-6">
          <Checkbox
            label="SMS"
            checked={consent.sms}
            disabled={update.isPending}
            onChange={(checked) => save({ sms: checked }, checked ? 'SMS consent recorded' : 'SMS consent withdrawn')}
          />
          <Checkbox
            label="Calls"
            checked={consent.calls}
            disabled={update.isPending}
            onChange={(checked) => save({ calls: checked }, checked ? 'Call consent recorded' : 'Call consent withdrawn')}
          />
        </div>
        {(consent.smsSource || consent.callsSource) && (
          <ul className="grid gap-1 text-sm text-slate-700" data-testid="consent-sources">
            {consent.sms && consent.smsSource && (
              <li>
                SMS: {consent.smsSource}, {formatDate(consent.smsAt)}
              </li>
            )}
            {consent.calls && consent.callsSource && (
              <li>
                Calls: {consent.callsSource}, {formatDate(consent.callsAt)}
              </li>
            )}
          </ul>
        )}
        <div className={cn('rounded-md border p-3', consent.doNotContact ? 'border-red-200 bg-red-50' : 'border-slate-200')}>
          <p className="text-sm font-semibold text-slate-900">Do not contact: {consent.doNotContact ? 'Yes' : 'No'}</p>
          {consent.doNotContact && (
            <dl className="mt-2 grid gap-2 sm:grid-cols-2">
              <Detail label="Reason">{consent.doNotContactReason ?? '—'}</Detail>
              <Detail label="Since">{formatDateTime(consent.doNotContactAt)}</Detail>
            </dl>
          )}
          <div className="mt-3">
            {consent.doNotContact ? (
              <Button variant="secondary" size="sm" disabled={update.isPending} onClick={() => save({ doNotContact: false }, 'Do-not-contact cleared')}>
                Clear do-not-contact
              </Button>
            ) : (
              <Dialog
                open={dncOpen}
                onOpenChange={(open) => {
                  setDncOpen(open);
                  if (open) setReason('');
                }}
                title="Mark as do not contact"
                description="No one will call, text or message this candidate while the flag is set."
                trigger={
                  <Button variant="secondary" size="sm">
                    Mark do not contact
                  </Button>
                }
              >
                <form
                  className="grid gap-4"
                  onSubmit={(event) => {
                    event.preventDefault();
                    save({ doNotContact: true, doNotContactReason: reason.trim() || undefined }, 'Marked do not contact', () => setDncOpen(false));
                  }}
                >
                  <Field label="Reason" hint="Defaults to “Requested by candidate”.">
                    <Input value={reason} maxLength={DO_NOT_CONTACT_REASON_MAX} onChange={(event) => setReason(event.target.value)} />
                  </Field>
                  <div className="flex justify-end gap-2">
                    <Button variant="secondary" onClick={() => setDncOpen(false)}>
                      Cancel
                    </Button>
                    <Button type="submit" variant="danger" disabled={update.isPending}>
                      Mark do not contact
                    </Button>
                  </div>
                </form>
              </Dialog>
            )}
          </div>
        </div>
      </CardContent>
    </Card>
  );
}

function TrialsCard({ candidate }: { candidate: Candidate }) {
  // The candidate's own organization's trials, named even where it is outside the default selection (the internal one).
  const trialsQuery = useTrialsQuery([candidate.organizationId]);
  const trials = trialsQuery.data?.trials.filter((trial) => trial.organizationId === candidate.organizationId) ?? [];
  const titles = new Map((trialsQuery.data?.trials ?? []).map((trial) => [trial.id, trial.publicTitle || trial.title]));
  const available = trials.filter((trial) => !candidate.trialIds.includes(trial.id));
  const [trialId, setTrialId] = useState('');
  const link = useBulkUpdateCandidates();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Trials</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {candidate.trialIds.length === 0 ? (
          <p className="text-sm text-slate-700">Not linked to a trial.</p>
        ) : (
          <ul className="grid gap-2">
            {candidate.trialIds.map((id) => (
              <li key={id} className="flex items-center justify-between gap-2 rounded-md border border-slate-200 px-3 py-2">
                <Link to="/trials/$trialId" params={{ trialId: id }} className="text-sm font-medium text-blue-800 underline-offset-4 hover:underline">
                  {titles.get(id) ?? 'Trial'}
                </Link>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Unlink ${titles.get(id) ?? 'trial'}`}
                  disabled={link.isPending}
                  onClick={() => link.mutate({ candidateIds: [candidate.id], removeTrialId: id }, { onSuccess: () => toast.success('Trial unlinked') })}
                >
                  Unlink
                </Button>
              </li>
            ))}
          </ul>
        )}
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (!trialId) return;
            link.mutate({ candidateIds: [candidate.id], addTrialId: trialId }, { onSuccess: () => (toast.success('Trial linked'), setTrialId('')) });
          }}
        >
          <div className="grid min-w-[12rem] flex-1 gap-1.5">
            <Label htmlFor="link-trial">Link to trial</Label>
            <Combobox
              {...TRIAL_PICKER}
              id="link-trial"
              options={available.map(trialOption)}
              value={trialId}
              onChange={setTrialId}
              loading={trialsQuery.isPending}
              emptyText="No other trials"
              placeholder="Choose a trial"
            />
          </div>
          <Button type="submit" variant="secondary" disabled={!trialId || link.isPending}>
            Link
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function NoteItem({ candidateId, note }: { candidateId: string; note: IndexedPrescreenNote }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteNote(candidateId);
  return (
    <li className="grid gap-1 rounded-md border border-slate-200 bg-white px-3 py-2">
      <p className="whitespace-pre-line text-sm text-slate-900">{note.text}</p>
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs text-slate-700">
          {note.authorName ?? 'Unknown'} · <time dateTime={note.createdAt}>{formatDateTime(note.createdAt)}</time>
        </p>
        <ConfirmDialog
          open={open}
          onOpenChange={setOpen}
          trigger={
            <Button variant="ghost" size="sm" aria-label={`Delete note ${note.index + 1}`}>
              <Trash2 aria-hidden="true" className="h-4 w-4" />
              Delete
            </Button>
          }
          title="Delete this note?"
          description="The note is removed for good; the contact history keeps that a note was deleted."
          confirmLabel="Delete note"
          pending={remove.isPending}
          onConfirm={() =>
            remove.mutate(note.index, {
              onSuccess: () => {
                toast.success('Note deleted');
                setOpen(false);
              },
            })
          }
        />
      </div>
    </li>
  );
}

function NotesCard({ candidate }: { candidate: Candidate }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useAddNote(candidate.id);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Prescreen notes</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {candidate.prescreenNotes.length === 0 ? (
          <p className="text-sm text-slate-700">No notes yet.</p>
        ) : (
          <ol className="grid gap-2" aria-label="Prescreen notes">
            {candidate.prescreenNotes.map((note) => (
              <NoteItem key={`${note.index}-${note.createdAt}`} candidateId={candidate.id} note={note} />
            ))}
          </ol>
        )}
        <form
          className="grid gap-2"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!text.trim()) {
              setError('Write the note first');
              return;
            }
            setError(null);
            add.mutate(text.trim(), {
              onSuccess: () => {
                toast.success('Note added');
                setText('');
              },
            });
          }}
        >
          <Field label="New note" error={error ?? undefined}>
            <textarea className={textareaClass} value={text} maxLength={NOTE_MAX} onChange={(event) => setText(event.target.value)} />
          </Field>
          <div>
            <SubmitButton pending={add.isPending} pendingLabel="Adding…">
              Add note
            </SubmitButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function DeleteCandidateButton({ candidate }: { candidate: Candidate }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteCandidate();
  const navigate = useNavigate();
  const name = candidateName(candidate);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="danger">
          <Trash2 aria-hidden="true" className="h-4 w-4" />
          Delete
        </Button>
      }
      title={`Delete ${name}?`}
      description={`${name}’s personal data — profile, notes, consent and contact history — is removed for good. This cannot be undone; only an audit record that the deletion happened is kept.`}
      confirmLabel="Delete for good"
      pending={remove.isPending}
      onConfirm={() =>
        remove.mutate(candidate.id, {
          onSuccess: () => {
            toast.success(`Deleted ${name}`);
            setOpen(false);
            void navigate({ to: '/candidates' });
          },
        })
      }
    />
  );
}

/** One candidate: profile with edit, clinical record, callback, status, consent, trials (and others they may fit) and prescreen notes. */
export function CandidateDetailPage({ candidateId }: { candidateId: string }) {
  const query = useCandidateQuery(candidateId);
  const router = useRouter();
  const name = query.data ? candidateName(query.data) : undefined;
  // The breadcrumb (route loader) follows a renamed candidate.
  const shownName = useRef(name);
  useEffect(() => {
    if (name && shownName.current && shownName.current !== name) void router.invalidate();
    shownName.current = name;
  }, [name, router]);

  if (query.isPending) return <Spinner label="Loading candidate" />;
  if (query.isError) {
    return (
      <RecordLoadError
        error={query.error}
        heading="Candidate"
        missing={{ heading: 'Candidate not found', title: 'This candidate does not exist or was deleted' }}
        missingMessage="Go back to the list to find another candidate."
        failed="Could not load this candidate"
        onRetry={() => void query.refetch()}
        back={
          <Link to="/candidates" className={buttonClass('secondary')}>
            Back to candidates
          </Link>
        }
      />
    );
  }
  const candidate = query.data;
  const callbackRef = { id: candidate.id, name: name ?? 'the candidate', organizationId: candidate.organizationId, timeZone: candidate.timeZone };
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid gap-2">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{name}</h1>
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <CandidateStatusBadge status={candidate.status} />
            <span>Added {formatDate(candidate.createdAt)}</span>
            {candidate.consent.doNotContact && <span className="font-medium text-red-800">Do not contact</span>}
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <FindTrialsButton candidateId={candidate.id} candidateName={candidateName(candidate)} />
          <Link to="/candidates/$id/prescreen" params={{ id: candidate.id }} className={buttonClass('secondary')}>
            <ClipboardList aria-hidden="true" className="h-4 w-4" />
            Run prescreen
          </Link>
          <Link to="/prescreen/results" search={{ candidateId: candidate.id }} className={buttonClass('secondary')}>
            Review prescreen
          </Link>
          <Link to="/candidates/$id/contact-history" params={{ id: candidate.id }} className={buttonClass('secondary')}>
            <History aria-hidden="true" className="h-4 w-4" />
            Contact history
          </Link>
          <Link to="/admin/sms" search={{ candidateId: candidate.id }} className={buttonClass('secondary')}>
            <MessageSquare aria-hidden="true" className="h-4 w-4" />
            Text message
          </Link>
          <CallNowButton candidateId={candidate.id} candidateName={candidateName(candidate)} phone={candidate.phone} />
          <ScheduleCallbackButton candidate={callbackRef} />
          <DeleteCandidateButton candidate={candidate} />
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid content-start gap-6 lg:col-span-2">
          <ProfileCard candidate={candidate} />
          <ClinicalRecordCard candidateId={candidate.id} />
          <NotesCard candidate={candidate} />
        </div>
        <div className="grid content-start gap-6">
          <CandidateCallbackCard candidate={callbackRef} />
          <Suspense fallback={<Spinner label="Loading sequences" className="p-4" />}>
            <CandidateSequencesCard candidate={candidate} />
          </Suspense>
          <StatusCard candidate={candidate} />
          <ConsentCard candidate={candidate} />
          <TrialsCard candidate={candidate} />
          <AlsoFitsCard candidateId={candidate.id} status={candidate.status} />
        </div>
      </div>
    </div>
  );
}
