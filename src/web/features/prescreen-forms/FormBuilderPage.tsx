import { Link } from '@tanstack/react-router';
import { Copy, Eye } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { DuplicatePair, Language, PrescreenForm, Question, StudyBlock } from '../../../contract/prescreen-forms';
import { Dialog, DialogFooter } from '../../components/dialogs';
import { ErrorCard } from '../../components/ErrorCard';
import { Spinner } from '../../components/Spinner';
import { Badge, Button, buttonClass, Card, CardContent, CardHeader, CardTitle, EmptyState, PageHeader } from '../../components/ui';
import { FormError } from '../../components/FormError';
import { focusMoveButton, useUnsavedChangesGuard } from '../../components/ItemActions';
import { ApiRequestError } from '../../lib/api';
import { cn, errorMessage, formatDateTime } from '../../lib/utils';
import { FormSaveBar, savedMessage } from './FormSaveBar';
import { type FocusTarget, StudyBlocksSection } from './StudyBlocksSection';
import {
  criterionLabels,
  FORM_STATUS_LABELS,
  FORM_STATUS_TONES,
  LANGUAGE_LABELS,
  localProblems,
  move,
  normalizeBlocks,
  say,
  serverProblems,
  spanishWordingMissing,
  uncoveredCriteria,
} from './format';
import { useApplyDeduplication, useDetectDuplicates, usePrescreenFormQuery, useUpdatePrescreenForm } from './queries';
import { countOf } from '../../lib/counts';

function questionText(blocks: StudyBlock[], id: string): string {
  for (const block of blocks) for (const question of block.questions) if (question.id === id) return question.wording.chat.en || question.id;
  return id;
}

/** detect-duplicates -> choose pairs (and which question stays) -> apply-deduplication -> the editor's blocks. */
function DuplicatesDialog({ blocks, onMerged }: { blocks: StudyBlock[]; onMerged: (next: StudyBlock[], notes: string[]) => void }) {
  const [open, setOpen] = useState(false);
  const detect = useDetectDuplicates();
  const apply = useApplyDeduplication();
  const [choices, setChoices] = useState<Record<number, 'a' | 'b' | null>>({});
  const pairs: DuplicatePair[] = detect.data?.pairs ?? [];
  const chosen = pairs.flatMap((pair, index) => {
    const keep = choices[index];
    if (!keep) return [];
    return [keep === 'a' ? { keep: pair.questionA, remove: pair.questionB } : { keep: pair.questionB, remove: pair.questionA }];
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(value) => {
        setOpen(value);
        if (value) {
          setChoices({});
          apply.reset();
          detect.mutate(normalizeBlocks(blocks));
        }
      }}
      title="Find duplicate questions"
      description="Questions that ask the same thing, best match first. Merging moves the removed question’s criterion links to the kept one; nothing is saved until you save the form."
      trigger={
        <Button variant="secondary">
          <Copy aria-hidden="true" className="h-4 w-4" />
          Find duplicates
        </Button>
      }
    >
      {detect.isPending ? (
        <Spinner label="Looking for duplicates" />
      ) : detect.isError ? (
        <ErrorCard title="Could not check for duplicates" error={detect.error} onRetry={() => detect.mutate(normalizeBlocks(blocks))} />
      ) : pairs.length === 0 ? (
        <EmptyState title="No duplicates found">
          <p>No two questions look alike.</p>
        </EmptyState>
      ) : (
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (chosen.length === 0) return;
            apply.mutate(
              { blocks: normalizeBlocks(blocks), pairs: chosen },
              {
                onSuccess: (answer) => {
                  onMerged(answer.blocks, answer.notes);
                  setOpen(false);
                },
              },
            );
          }}
        >
          <ol className="grid gap-3" aria-label="Likely duplicate pairs">
            {pairs.map((pair, index) => {
              const a = questionText(blocks, pair.questionA);
              const b = questionText(blocks, pair.questionB);
              const name = `pair-${index}`;
              return (
                <li key={`${pair.questionA}-${pair.questionB}`}>
                  <fieldset className="grid gap-2 rounded-md border border-slate-200 p-3">
                    <legend className="px-1 text-sm font-semibold text-slate-900">
                      Pair {index + 1}: score {Math.round(pair.score * 100)}%
                    </legend>
                    <p className="text-sm text-slate-700">{pair.reason}</p>
                    <ul className="grid gap-1 text-sm text-slate-900">
                      <li>
                        <span className="font-mono text-xs text-slate-700">{pair.questionA}</span> {a}
                      </li>
                      <li>
                        <span className="font-mono text-xs text-slate-700">{pair.questionB}</span> {b}
                      </li>
                    </ul>
                    <div className="grid gap-1 text-sm text-slate-800">
                      {(
                        [
                          [null, 'Keep both'],
                          ['a', `Merge, keep ${pair.questionA}`],
                          ['b', `Merge, keep ${pair.questionB}`],
                        ] as const
                      ).map(([keep, label]) => (
                        <label key={keep ?? 'both'} className="flex items-center gap-2">
                          <input
                            type="radio"
                            name={name}
                            className="h-4 w-4 accent-blue-700"
                            checked={(choices[index] ?? null) === keep}
                            onChange={() => setChoices({ ...choices, [index]: keep })}
                          />
                          {label}
                        </label>
                      ))}
                    </div>
                  </fieldset>
                </li>
              );
            })}
          </ol>
          <FormError>{apply.isError && errorMessage(apply.error)}</FormError>
          <DialogFooter
            onCancel={() => setOpen(false)}
            submitLabel={`Merge ${chosen.length} ${chosen.length === 1 ? 'pair' : 'pairs'}`}
            pending={apply.isPending}
            pendingLabel="Merging…"
            submitDisabled={chosen.length === 0}
          />
        </form>
      )}
    </Dialog>
  );
}

function answerHint(question: Question, language: Language): string {
  const hints: Record<string, { en: string; es: string }> = {
    yes_no: { en: 'Yes / No', es: 'Sí / No' },
    date: { en: 'A date', es: 'Una fecha' },
    text: { en: 'Free text', es: 'Texto libre' },
    number: { en: 'A number', es: 'Un número' },
  };
  if (question.type === 'single_choice' || question.type === 'multiple_choice') {
    return (question.options ?? []).map((option) => say(option.label, language)).join(' · ');
  }
  const hint = hints[question.type][language];
  return question.unit ? `${hint} (${question.unit})` : hint;
}

/** The form as a candidate gets it in chat, in English or Spanish. */
function PreviewDialog({ blocks, name }: { blocks: StudyBlock[]; name: string }) {
  const [language, setLanguage] = useState<Language>('en');
  return (
    <Dialog
      title={`Preview: ${name}`}
      description="The chat wording a candidate reads, block by block. Spanish falls back to English where it is missing."
      trigger={
        <Button variant="secondary">
          <Eye aria-hidden="true" className="h-4 w-4" />
          Preview
        </Button>
      }
    >
      <fieldset className="flex gap-4">
        <legend className="sr-only">Language</legend>
        {(['en', 'es'] as const).map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
            <input type="radio" name="preview-language" className="h-4 w-4 accent-blue-700" checked={language === value} onChange={() => setLanguage(value)} />
            {LANGUAGE_LABELS[value]}
          </label>
        ))}
      </fieldset>
      <div className="grid gap-4" lang={language} data-testid="form-preview">
        {blocks.map((block) => (
          <section key={block.id} aria-labelledby={`preview-${block.id}`} className="grid gap-2">
            <h3 id={`preview-${block.id}`} className="font-semibold text-slate-900">
              {say(block.title, language)}
            </h3>
            <ol className="grid gap-2">
              {block.questions.map((question) => (
                <li key={question.id} className="rounded-2xl rounded-tl-sm bg-blue-50 px-3 py-2 text-sm text-slate-900">
                  <p>
                    {say(question.wording.chat, language)}
                    {!question.required && <span className="ml-1 text-xs text-slate-700">({language === 'es' ? 'opcional' : 'optional'})</span>}
                  </p>
                  <p className="mt-1 text-xs text-slate-700">{answerHint(question, language)}</p>
                  {language === 'es' && spanishWordingMissing(question) && (
                    <p className="mt-1 text-xs font-medium text-amber-900" lang="en">
                      No Spanish wording yet: Spanish speakers read this question in English until staff write it.
                    </p>
                  )}
                </li>
              ))}
            </ol>
          </section>
        ))}
      </div>
    </Dialog>
  );
}

function CoveragePanel({ form, blocks }: { form: PrescreenForm; blocks: StudyBlock[] }) {
  const uncovered = uncoveredCriteria(form.criteriaCoverage, blocks);
  const labels = criterionLabels(form.criteriaCoverage);
  return (
    <Card className="lg:sticky lg:top-32">
      <CardHeader>
        <CardTitle>Criteria no question covers</CardTitle>
        <p className="text-sm text-slate-700" data-testid="coverage-summary">
          {form.criteriaCoverage.length - uncovered.length} of {form.criteriaCoverage.length} criteria are asked about.
        </p>
      </CardHeader>
      <CardContent>
        {uncovered.length === 0 ? (
          <p className="text-sm text-green-800">Every criterion is linked to a question.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Uncovered criteria">
            {uncovered.map((criterion) => (
              <li key={criterion.criterionId} className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm">
                <span className="font-semibold text-amber-950">{labels.get(criterion.criterionId)}</span>
                <p className="whitespace-pre-line text-slate-900">{criterion.text}</p>
              </li>
            ))}
          </ul>
        )}
        <p className="mt-3 text-xs text-slate-700">Uncovered criteria are checked at the screening visit. Link a question to close the gap.</p>
      </CardContent>
    </Card>
  );
}

/** The form's state line: status, version, size, when published, and the duplicate finder and preview. */
function FormSummaryBar({ form, blocks, onMerged }: { form: PrescreenForm; blocks: StudyBlock[]; onMerged: (next: StudyBlock[], notes: string[]) => void }) {
  const questionCount = blocks.reduce((sum, block) => sum + block.questions.length, 0);
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3">
      <Badge tone={FORM_STATUS_TONES[form.status]}>{FORM_STATUS_LABELS[form.status]}</Badge>
      <p className="text-sm text-slate-900" data-testid="form-version">
        Version {form.version}
      </p>
      <p className="text-sm text-slate-700">
        {countOf(blocks.length, 'block')}, {countOf(questionCount, 'question')}
      </p>
      {form.publishedAt && <p className="text-sm text-slate-700">Published {formatDateTime(form.publishedAt)}</p>}
      <div className="ml-auto flex flex-wrap gap-2">
        <DuplicatesDialog blocks={blocks} onMerged={onMerged} />
        <PreviewDialog blocks={blocks} name={form.name} />
      </div>
    </div>
  );
}

/** Why the form was not saved or published, with each problem listed. */
type SaveProblems = { title: string; message?: string; details: string[] };

/** What the last save or merge said, and the problems that stopped a save (focused when they appear). */
function SaveFeedback({ notice, problems }: { notice: string | null; problems: SaveProblems | null }) {
  const problemsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (problems) problemsRef.current?.focus();
  }, [problems]);
  return (
    <>
      {notice && (
        <p role="status" className="rounded-md border border-blue-200 bg-blue-50 px-4 py-3 text-sm text-blue-950" data-testid="save-notice">
          {notice}
        </p>
      )}
      {problems && (
        <FormError ref={problemsRef} tabIndex={-1} className="focus:outline-2 focus:outline-red-700" data-testid="form-problems">
          <p className="font-semibold">{problems.title}</p>
          {problems.message && <p className="mt-1">{problems.message}</p>}
          {problems.details.length > 0 && (
            <ul className="mt-2 list-disc pl-5">
              {problems.details.map((detail) => (
                <li key={detail}>{detail}</li>
              ))}
            </ul>
          )}
        </FormError>
      )}
    </>
  );
}

function Builder({ form }: { form: PrescreenForm }) {
  const update = useUpdatePrescreenForm();
  const [blocks, setBlocks] = useState<StudyBlock[]>(form.blocks);
  const [baseline, setBaseline] = useState(() => JSON.stringify(normalizeBlocks(form.blocks)));
  const [problems, setProblems] = useState<SaveProblems | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [focusTarget, setFocusTarget] = useState<FocusTarget | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const labels = useMemo(() => criterionLabels(form.criteriaCoverage), [form.criteriaCoverage]);

  const normalized = normalizeBlocks(blocks);
  const dirty = JSON.stringify(normalized) !== baseline;

  useUnsavedChangesGuard(dirty, 'You have unsaved form changes. Leave without saving?');

  useEffect(() => {
    if (!focusTarget) return;
    const root = rootRef.current?.querySelector(`[data-item="${CSS.escape(focusTarget.id)}"]`);
    if (focusTarget.action === 'text') (root?.querySelector('textarea, input') as HTMLElement | null)?.focus();
    else focusMoveButton(root, focusTarget.action);
    setFocusTarget(null);
  }, [focusTarget]);

  const save = (status?: 'published' | 'draft') => {
    setNotice(null);
    // Unchanged blocks go unchecked here: the server says what keeps them from being published.
    const local = dirty ? localProblems(blocks) : [];
    if (local.length > 0) {
      setProblems({ title: 'Fix these before saving', details: local });
      return;
    }
    setProblems(null);
    const previousVersion = form.version;
    const input = { ...(dirty ? { blocks: normalized } : {}), ...(status ? { status } : {}) };
    update.mutate(
      { id: form.id, input },
      {
        onSuccess: (saved) => {
          setBlocks(saved.blocks);
          setBaseline(JSON.stringify(normalizeBlocks(saved.blocks)));
          setNotice(savedMessage(saved, previousVersion, status));
          toast.success(status === 'published' ? 'Form published' : 'Form saved');
        },
        onError: (error) => {
          const { message, details } = serverProblems(error);
          setProblems({ title: status === 'published' ? 'The form cannot be published yet' : 'The form was not saved', message, details });
        },
      },
    );
  };

  const discard = () => {
    setBlocks(form.blocks);
    setBaseline(JSON.stringify(normalizeBlocks(form.blocks)));
    setProblems(null);
    setAnnouncement('Changes discarded.');
  };

  const moveBlock = (index: number, direction: -1 | 1) => {
    const id = blocks[index].id;
    setBlocks(move(blocks, index, direction));
    setAnnouncement(`Block moved to position ${index + direction + 1} of ${blocks.length}.`);
    setFocusTarget({ id, action: direction === -1 ? 'up' : 'down' });
  };

  const removeBlock = (id: string) => {
    setBlocks((current) => current.filter((item) => item.id !== id));
    setAnnouncement('Block deleted. Save to keep the change, or discard changes to undo.');
  };

  return (
    <div className="grid gap-6 pb-28" ref={rootRef}>
      <FormSummaryBar
        form={form}
        blocks={blocks}
        onMerged={(next, notes) => {
          setBlocks(next);
          setNotice(`Duplicates merged; save the form to keep the change.${notes.length ? ` ${notes.join(' ')}` : ''}`);
        }}
      />

      <SaveFeedback notice={notice} problems={problems} />
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <StudyBlocksSection
          blocks={blocks}
          criteria={form.criteriaCoverage}
          labels={labels}
          setBlocks={setBlocks}
          onMoveBlock={moveBlock}
          onRemoveBlock={removeBlock}
          onFocus={setFocusTarget}
        />
        <aside aria-label="Criteria coverage">
          <CoveragePanel form={form} blocks={blocks} />
        </aside>
      </div>

      <FormSaveBar status={form.status} dirty={dirty} pending={update.isPending} onDiscard={discard} onSave={save} />
    </div>
  );
}

/** /admin/prescreen-forms/$formId: the form builder. */
export function FormBuilderPage({ formId }: { formId: string }) {
  const query = usePrescreenFormQuery(formId);
  let body;
  if (query.isPending) body = <Spinner label="Loading the form" />;
  else if (query.isError) {
    const missing = query.error instanceof ApiRequestError && query.error.status === 404;
    body = (
      <div className="grid gap-3">
        <ErrorCard
          title={missing ? 'This form does not exist' : 'Could not load this form'}
          message={missing ? 'It may belong to another organization.' : errorMessage(query.error)}
          onRetry={missing ? undefined : () => void query.refetch()}
        />
        <div>
          <Link to="/admin/prescreen-forms" className={buttonClass('secondary')}>
            Back to prescreen forms
          </Link>
        </div>
      </div>
    );
  } else body = <Builder key={query.data.id} form={query.data} />;

  return (
    <div>
      <PageHeader
        title={query.data ? query.data.name : 'Prescreen form'}
        description={
          query.data ? (
            <>
              Questions for{' '}
              <Link to="/trials/$trialId" params={{ trialId: query.data.trialId }} className="font-medium text-blue-800 underline underline-offset-4">
                {query.data.trialTitle}
              </Link>
              . Edit the questions, link them to criteria, preview, then publish.
            </>
          ) : undefined
        }
        actions={
          <Link to="/admin/prescreen-forms" className={cn(buttonClass('secondary'))}>
            All forms
          </Link>
        }
      />
      {body}
    </div>
  );
}
