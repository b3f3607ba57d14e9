import { Link } from '@tanstack/react-router';
import { CalendarClock, X } from 'lucide-react';
import type { Callback } from '../../../contract/callbacks';
import { ActionsTh } from '../../components/ListState';
import { Button, Table, Td, Th } from '../../components/ui';
import { AGENT_TYPE_LABELS, OUTCOME_LABELS } from '../voice/format';
import { CallbackStatusBadge, ScheduledFor } from './components';
import { CALLBACK_REASON_LABELS, isOpenCallback } from './format';

interface CallbackActions {
  onReschedule: (callback: Callback) => void;
  onCancel: (callback: Callback) => void;
}

interface CallbacksTableProps extends CallbackActions {
  rows: Callback[];
  /** Internal admins see every organization's callbacks, with an Organization column. */
  isGlobal: boolean;
  organizationNames: Map<string, string>;
}

/** The callbacks list: one row per callback owed, with its last result and the actions it allows. */
export function CallbacksTable({ rows, isGlobal, organizationNames, onReschedule, onCancel }: CallbacksTableProps) {
  return (
    <Table caption="Callbacks">
      <thead>
        <tr>
          <Th>Candidate</Th>
          <Th>Type</Th>
          <Th>Status</Th>
          <Th>Reason</Th>
          <Th>Scheduled for</Th>
          <Th>Attempts</Th>
          <Th>Last outcome</Th>
          <Th>Last call</Th>
          <Th>Note</Th>
          {isGlobal && <Th>Organization</Th>}
          <ActionsTh className="relative" />
        </tr>
      </thead>
      <tbody>
        {rows.map((callback) => (
          <CallbackRow
            key={callback.id}
            callback={callback}
            isGlobal={isGlobal}
            organizationName={organizationNames.get(callback.organizationId)}
            onReschedule={onReschedule}
            onCancel={onCancel}
          />
        ))}
      </tbody>
    </Table>
  );
}

interface CallbackRowProps extends CallbackActions {
  callback: Callback;
  isGlobal: boolean;
  organizationName: string | undefined;
}

function CallbackRow({ callback, isGlobal, organizationName, onReschedule, onCancel }: CallbackRowProps) {
  return (
    <tr data-testid="callback-row">
      <Td className="whitespace-nowrap">
        <Link to="/candidates/$id" params={{ id: callback.candidateId }} className="font-medium text-blue-800 underline-offset-4 hover:underline">
          {callback.candidateName || 'Candidate'}
        </Link>
      </Td>
      <Td>{AGENT_TYPE_LABELS[callback.type]}</Td>
      <Td>
        <CallbackStatusBadge status={callback.status} />
      </Td>
      <Td>{CALLBACK_REASON_LABELS[callback.reason] ?? callback.reason}</Td>
      <Td className="min-w-60">
        <ScheduledFor callback={callback} />
      </Td>
      <Td className="whitespace-nowrap tabular-nums">
        {callback.attempts} of {callback.maxAttempts}
      </Td>
      <Td className="max-w-56">
        <LastResult callback={callback} />
      </Td>
      <Td className="relative whitespace-nowrap">
        {callback.lastCallId ? (
          <Link to="/admin/calls/$callId" params={{ callId: callback.lastCallId }} className="text-blue-800 underline-offset-4 hover:underline">
            Open<span className="sr-only"> the last call to {callback.candidateName}</span>
          </Link>
        ) : (
          <span className="text-slate-700">—</span>
        )}
      </Td>
      <Td className="max-w-64">
        {callback.note ? <span className="line-clamp-3 whitespace-pre-line break-words">{callback.note}</span> : <span className="text-slate-700">—</span>}
      </Td>
      {isGlobal && <Td>{organizationName ?? '—'}</Td>}
      <Td className="whitespace-nowrap text-right">
        <div className="flex justify-end gap-1.5">
          {callback.status !== 'calling' && (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => onReschedule(callback)}
              aria-label={`${callback.status === 'pending' ? 'Reschedule' : 'Schedule again'}: callback to ${callback.candidateName}`}
            >
              <CalendarClock aria-hidden="true" className="h-4 w-4" />
              {callback.status === 'pending' ? 'Reschedule' : 'Schedule again'}
            </Button>
          )}
          {isOpenCallback(callback.status) && (
            <Button
              variant="ghost"
              size="sm"
              className="text-red-800 hover:bg-red-50"
              onClick={() => onCancel(callback)}
              aria-label={`Cancel the callback to ${callback.candidateName}`}
            >
              <X aria-hidden="true" className="h-4 w-4" />
              Cancel
            </Button>
          )}
        </div>
      </Td>
    </tr>
  );
}

function LastResult({ callback }: { callback: Callback }) {
  if (!callback.lastOutcome && !callback.lastError) return <span className="text-slate-700">—</span>;
  return (
    <div className="grid gap-0.5">
      {callback.lastOutcome && <span>{OUTCOME_LABELS[callback.lastOutcome] ?? callback.lastOutcome}</span>}
      {callback.lastError && <span className="text-sm text-red-800">{callback.lastError}</span>}
    </div>
  );
}
