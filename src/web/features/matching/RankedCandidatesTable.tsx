import type { TrialMatchOverview, TrialMatchRow } from '../../../contract/matching';
import { Badge, Table, Td, Th } from '../../components/ui';
import { Checkbox } from '../candidates/components';
import { CLASS_LABELS, CLASS_TONES, percent } from './format';

type Criterion = TrialMatchOverview['criteria'][number];

/** Why a candidate sits in its class, in a line: the first criterion not met (excluded) or still unknown (possible). */
export function matchReason(row: TrialMatchRow, criteriaById: Map<string, Criterion>): string {
  // For a possible match, the key facts still unknown first: they are why it is not "likely".
  const ids =
    row.matchClass === 'excluded'
      ? row.notMetIds
      : [...row.unknownIds].sort((a, b) => Number(Boolean(criteriaById.get(b)?.key)) - Number(Boolean(criteriaById.get(a)?.key)));
  const texts = ids.map((id) => criteriaById.get(id)?.text).filter(Boolean) as string[];
  if (texts.length === 0) return row.matchClass === 'likely' ? 'Meets every criterion known' : '—';
  const lead = row.matchClass === 'excluded' ? 'Not met: ' : 'Unknown: ';
  return `${lead}${texts[0]}${texts.length > 1 ? ` (+${texts.length - 1} more)` : ''}`;
}

/** One page of ranked candidates, each with a tick box (not for those already in the trial) and its evidence link. */
export function RankedCandidatesTable({
  rows,
  criteriaById,
  selected,
  toggle,
  onOpen,
}: {
  rows: TrialMatchRow[];
  criteriaById: Map<string, Criterion>;
  selected: Set<string>;
  toggle: (candidateId: string, on: boolean) => void;
  /** Opens the candidate's evidence. */
  onOpen: (candidateId: string) => void;
}) {
  const selectable = rows.filter((row) => !row.inTrial);
  const allSelected = selectable.length > 0 && selectable.every((row) => selected.has(row.candidate.id));
  return (
    <Table caption="Candidates ranked by how well they match the trial">
      <thead>
        <tr>
          <Th className="w-10">
            <Checkbox
              label="Select all on this page"
              hideLabel
              checked={allSelected}
              indeterminate={!allSelected && selectable.some((row) => selected.has(row.candidate.id))}
              disabled={selectable.length === 0}
              onChange={(on) => {
                for (const row of selectable) toggle(row.candidate.id, on);
              }}
            />
          </Th>
          <Th>Candidate</Th>
          <Th>Match</Th>
          <Th>Chance eligible</Th>
          <Th>Why</Th>
          <Th>Trial</Th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const name = `${row.candidate.firstName} ${row.candidate.lastName}`.trim();
          return (
            <tr key={row.candidate.id}>
              <Td>
                <Checkbox
                  label={`Select ${name}`}
                  hideLabel
                  checked={selected.has(row.candidate.id)}
                  disabled={row.inTrial}
                  onChange={(on) => toggle(row.candidate.id, on)}
                />
              </Td>
              <Td>
                <button
                  type="button"
                  className="font-medium text-blue-800 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
                  onClick={() => onOpen(row.candidate.id)}
                >
                  {name}
                </button>
              </Td>
              <Td>
                <Badge tone={CLASS_TONES[row.matchClass]}>{CLASS_LABELS[row.matchClass]}</Badge>
                {row.llmFlagged > 0 && (
                  <Badge tone="amber" className="ml-1" title="A language model judged criteria not met from the notes: check them">
                    Check notes
                  </Badge>
                )}
              </Td>
              <Td>{percent(row.score)}</Td>
              <Td className="max-w-md text-sm text-slate-700">{matchReason(row, criteriaById)}</Td>
              <Td>{row.inTrial ? <Badge tone="blue">In trial</Badge> : <span className="text-sm text-slate-700">Not yet</span>}</Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
