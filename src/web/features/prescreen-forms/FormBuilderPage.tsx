import { Link } from '@tanstack/react-router';
import { Copy, Eye, Plus, Save, Send, Undo2 } from 'lucide-react';
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
import { BlockEditor, QuestionExpansionContext, useQuestionExpansionState } from './components';
import {
  criterionLabels,
  FORM_STATUS_LABELS,
  FORM_STATUS_TONES,
  LANGUAGE_LABELS,
  localProblems,
  move,
  newBlock,
  normalizeBlocks,
  say,
  serverProblems,
  uncoveredCriteria,
} from './format';
import { useApplyDeduplication, useDetectDuplicates, usePrescreenFormQuery, useUpdatePrescreenForm } from './queries';

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

function Builder({ form }: { form: PrescreenForm }) {
  // Questions start collapsed: the page was ~18,700 px with every one open (issue 15).
  const expansion = useQuestionExpansionState();
  const update = useUpdatePrescreenForm();
  const [blocks, setBlocks] = useState<StudyBlock[]>(form.blocks);
  const questionIds = blocks.flatMap((block) => block.questions.map((question) => question.id));
  // "Expand all" until every question is open (one opened by hand still leaves the rest to expand).
  const allExpanded = questionIds.length > 0 && questionIds.every((id) => expansion.isOpen(id));
  const [baseline, setBaseline] = useState(() => JSON.stringify(normalizeBlocks(form.blocks)));
  const [problems, setProblems] = useState<{ title: string; message?: string; details: string[] } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [focusTarget, setFocusTarget] = useState<{ id: string; action: 'up' | 'down' | 'text' } | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const problemsRef = useRef<HTMLDivElement>(null);
  const labels = useMemo(() => criterionLabels(form.criteriaCoverage), [form.criteriaCoverage]);

  const normalized = normalizeBlocks(blocks);
  const dirty = JSON.stringify(normalized) !== baseline;
  const questionCount = blocks.reduce((sum, block) => sum + block.questions.length, 0);

  useUnsavedChangesGuard(dirty, 'You have unsaved form changes. Leave without saving?');

  useEffect(() => {
    if (!focusTarget) return;
    const root = rootRef.current?.querySelector(`[data-item="${CSS.escape(focusTarget.id)}"]`);
    if (focusTarget.action === 'text') (root?.querySelector('textarea, input') as HTMLElement | null)?.focus();
    else focusMoveButton(root, focusTarget.action);
    setFocusTarget(null);
  }, [focusTarget]);

  useEffect(() => {
    if (problems) problemsRef.current?.focus();
  }, [problems]);

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
          const newVersion = saved.version > previousVersion;
          const message = newVersion
            ? `Saved as version ${saved.version}. Results already exist for version ${previousVersion}, which keeps the questions they were asked with.`
            : status === 'published'
              ? `Published version ${saved.version}. Staff can now run it from a candidate’s page.`
              : status === 'draft'
                ? 'Moved back to draft.'
                : `Saved version ${saved.version}.`;
          setNotice(message);
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

  return (
    <div className="grid gap-6 pb-28" ref={rootRef}>
      <div className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3">
        <Badge tone={FORM_STATUS_TONES[form.status]}>{FORM_STATUS_LABELS[form.status]}</Badge>
        <p className="text-sm text-slate-900" data-testid="form-version">
          Version {form.version}
        </p>
        <p className="text-sm text-slate-700">
          {blocks.length} {blocks.length === 1 ? 'block' : 'blocks'}, {questionCount} {questionCount === 1 ? 'question' : 'questions'}
        </p>
        {form.publishedAt && <p className="text-sm text-slate-700">Published {formatDateTime(form.publishedAt)}</p>}
        <div className="ml-auto flex flex-wrap gap-2">
          <DuplicatesDialog
            blocks={blocks}
            onMerged={(next, notes) => {
              setBlocks(next);
              setNotice(`Duplicates merged; save the form to keep the change.${notes.length ? ` ${notes.join(' ')}` : ''}`);
            }}
          />
          <PreviewDialog blocks={blocks} name={form.name} />
        </div>
      </div>

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
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <section aria-labelledby="blocks-heading" className="grid content-start gap-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="blocks-heading" className="text-lg font-semibold text-slate-900">
              Study blocks
            </h2>
            <div className="flex flex-wrap gap-2">
              {blocks.some((block) => block.questions.length > 0) && (
                <Button variant="ghost" size="sm" onClick={() => (allExpanded ? expansion.collapseAll() : expansion.expandAll(questionIds))}>
                  {allExpanded ? 'Collapse all' : 'Expand all'}
                </Button>
              )}
              <Button
                variant="secondary"
                size="sm"
                onClick={() => {
                  const block = newBlock();
                  setBlocks([...blocks, block]);
                  setFocusTarget({ id: block.id, action: 'text' });
                }}
              >
                <Plus aria-hidden="true" className="h-4 w-4" />
                Add block
              </Button>
            </div>
          </div>
          {blocks.length === 0 ? (
            <EmptyState title="No blocks yet">
              <p>Add a block of questions, such as “About you”.</p>
            </EmptyState>
          ) : (
            <QuestionExpansionContext.Provider value={expansion}>
              <ol className="grid gap-4">
                {blocks.map((block, index) => (
                  <BlockEditor
                    key={block.id}
                    block={block}
                    number={index + 1}
                    isFirst={index === 0}
                    isLast={index === blocks.length - 1}
                    criteria={form.criteriaCoverage}
                    labels={labels}
                    onChange={(next) => setBlocks((current) => current.map((item) => (item.id === block.id ? next : item)))}
                    onMove={(direction) => moveBlock(index, direction)}
                    onRemove={() => {
                      setBlocks((current) => current.filter((item) => item.id !== block.id));
                      setAnnouncement('Block deleted. Save to keep the change, or discard changes to undo.');
                    }}
                    onFocus={setFocusTarget}
                  />
                ))}
              </ol>
            </QuestionExpansionContext.Provider>
          )}
        </section>
        <aside aria-label="Criteria coverage">
          <CoveragePanel form={form} blocks={blocks} />
        </aside>
      </div>

      <div className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-2px_8px_rgba(0,0,0,0.06)] md:left-60">
        <div className="flex flex-wrap items-center justify-end gap-3">
          <p className="mr-auto text-sm text-slate-800" aria-live="polite" data-testid="save-state">
            {update.isPending ? 'Saving…' : dirty ? 'Unsaved changes' : 'All changes saved'}
          </p>
          <Button variant="secondary" onClick={discard} disabled={!dirty || update.isPending}>
            <Undo2 aria-hidden="true" className="h-4 w-4" />
            Discard changes
          </Button>
          <Button variant="secondary" onClick={() => save()} disabled={!dirty || update.isPending}>
            <Save aria-hidden="true" className="h-4 w-4" />
            Save
          </Button>
          {form.status === 'published' ? (
            <Button variant="secondary" onClick={() => save('draft')} disabled={update.isPending}>
              Move to draft
            </Button>
          ) : null}
          <Button onClick={() => save('published')} disabled={update.isPending || (form.status === 'published' && !dirty)}>
            <Send aria-hidden="true" className="h-4 w-4" />
            {form.status === 'published' ? (dirty ? 'Save and publish' : 'Published') : dirty ? 'Save and publish' : 'Publish'}
          </Button>
        </div>
      </div>
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
