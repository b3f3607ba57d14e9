import { Plus } from 'lucide-react';
import type { Dispatch, SetStateAction } from 'react';
import type { CriterionCoverage, StudyBlock } from '../../../contract/prescreen-forms';
import { Button, EmptyState } from '../../components/ui';
import { BlockEditor, QuestionExpansionContext, useQuestionExpansionState } from './components';
import { newBlock } from './format';

/** Where focus goes after a change: a moved item's move button, or a new item's first field. */
export type FocusTarget = { id: string; action: 'up' | 'down' | 'text' };

/** The builder's study blocks: expand or collapse every question, add a block, and each block's editor. */
export function StudyBlocksSection({
  blocks,
  criteria,
  labels,
  setBlocks,
  onMoveBlock,
  onRemoveBlock,
  onFocus,
}: {
  blocks: StudyBlock[];
  criteria: CriterionCoverage[];
  labels: Map<string, string>;
  setBlocks: Dispatch<SetStateAction<StudyBlock[]>>;
  onMoveBlock: (index: number, direction: -1 | 1) => void;
  onRemoveBlock: (id: string) => void;
  onFocus: (target: FocusTarget) => void;
}) {
  // Questions start collapsed: the page was ~18,700 px with every one open (issue 15).
  const expansion = useQuestionExpansionState();
  const questionIds = blocks.flatMap((block) => block.questions.map((question) => question.id));
  // "Expand all" until every question is open (one opened by hand still leaves the rest to expand).
  const allExpanded = questionIds.length > 0 && questionIds.every((id) => expansion.isOpen(id));
  return (
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
              onFocus({ id: block.id, action: 'text' });
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
                criteria={criteria}
                labels={labels}
                onChange={(next) => setBlocks((current) => current.map((item) => (item.id === block.id ? next : item)))}
                onMove={(direction) => onMoveBlock(index, direction)}
                onRemove={() => onRemoveBlock(block.id)}
                onFocus={onFocus}
              />
            ))}
          </ol>
        </QuestionExpansionContext.Provider>
      )}
    </section>
  );
}
