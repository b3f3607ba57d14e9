import type { RefObject } from 'react';
import { FormError } from '../../components/FormError';
import type { SequenceStep } from '../../../contract/sequences';
import { groupProblems } from './format';
import { FIELD_LABELS, fieldId } from './StepEditor';
import type { Item } from './useSequenceDraft';
import { builderProblems, structuralProblems, type StepProblem } from './validation';

interface ProblemFacts {
  steps: SequenceStep[];
  /** A save was tried: "Required" and the like show from then on. */
  attempted: boolean;
  /** What the server said when it refused the last save. */
  server: { message: string; details: StepProblem[] } | null;
  name: string;
  /** An internal admin's new sequence still needs its organization. */
  needsOrganization: boolean;
}

/**
 * The builder's problems: rules across steps always, required fields once a save was tried, and the server's own
 * details beside them, grouped by step and field.
 */
export function problemsOf({ steps, attempted, server, name, needsOrganization }: ProblemFacts) {
  const local = attempted ? builderProblems(steps) : structuralProblems(steps);
  const nameProblem = attempted && !name.trim() ? 'Enter a name' : server?.details.find((detail) => detail.path === 'name')?.message;
  const organizationProblem = attempted && needsOrganization ? 'Choose the organization' : undefined;
  const grouped = groupProblems([...local, ...(server?.details.filter((detail) => detail.path.startsWith('steps')) ?? [])]);
  const count = local.length + (nameProblem ? 1 : 0) + (organizationProblem ? 1 : 0);
  return { server, nameProblem, organizationProblem, grouped, count };
}

export type BuilderProblemList = ReturnType<typeof problemsOf>;

interface BuilderProblemsProps {
  problems: BuilderProblemList;
  items: Item[];
  rootRef: RefObject<HTMLFormElement | null>;
  summaryRef: RefObject<HTMLDivElement | null>;
}

/** The builder's problem summary: why the server refused, or each local problem as a link to its field. */
export function BuilderProblems({ problems, items, rootRef, summaryRef }: BuilderProblemsProps) {
  const { server, count: problemCount, organizationProblem, nameProblem, grouped } = problems;
  return (
    <FormError ref={summaryRef} tabIndex={-1} className="focus:outline-2 focus:outline-red-700" data-testid="builder-problems">
      <p className="font-semibold">
        {server ? 'The sequence was not saved' : `Fix ${problemCount === 1 ? 'this problem' : `these ${problemCount} problems`} before saving`}
      </p>
      {server && <p className="mt-1">{server.message}</p>}
      {!server && (
        <ul className="mt-2 list-disc pl-5">
          {organizationProblem && <li>{organizationProblem}</li>}
          {nameProblem && (
            <li>
              <button
                type="button"
                className="text-left underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-red-700"
                onClick={() => document.getElementById('sequence-name')?.focus()}
              >
                Name: {nameProblem}
              </button>
            </li>
          )}
          {grouped.general.map((message) => (
            <li key={message}>{message}</li>
          ))}
          {[...grouped.byStep.entries()].flatMap(([index, fields]) =>
            [...fields.entries()].map(([field, messages]) => {
              const uid = items[index]?.uid;
              const where = `Step ${index + 1}${FIELD_LABELS[field] ? `, ${FIELD_LABELS[field]}` : ''}`;
              return (
                <li key={`${index}-${field}`}>
                  <button
                    type="button"
                    className="text-left underline underline-offset-2 hover:text-red-950 focus-visible:outline-2 focus-visible:outline-red-700"
                    onClick={() => {
                      const target =
                        uid && (document.getElementById(fieldId(uid, field)) ?? rootRef.current?.querySelector(`[data-step="${uid}"] [data-step-heading]`));
                      (target as HTMLElement | null | undefined)?.focus();
                    }}
                  >
                    {where}: {messages.join(' ')}
                  </button>
                </li>
              );
            }),
          )}
        </ul>
      )}
    </FormError>
  );
}
