import { Link } from '@tanstack/react-router';
import { MessageSquarePlus } from 'lucide-react';
import type { ReactNode } from 'react';
import type { ChatAgent } from '../../../contract/chat';
import type { TrialStatus } from '../../../contract/trials';
import { ActionsTh } from '../../components/ListState';
import { Badge, Button, Table, Td, Th } from '../../components/ui';
import { NotRecruitingBadge } from '../trials/NotRecruitingBadge';
import { AgentRowActions } from './agent-list';
import { languagesText, NEXT_STEP_LABELS } from './format';

/** The chat agents list: trial, form, languages and next step per agent, with Try it, Edit and Delete. */
export function ChatAgentsTable({
  agents,
  organizationNames,
  onEdit,
  onDelete,
  onTry,
  tryDisabled,
}: {
  agents: ChatAgent[];
  /** Names by organization id when the global operator sees every organization's agents; otherwise none. */
  organizationNames: Map<string, string> | null;
  onEdit: (agent: ChatAgent) => void;
  onDelete: (agent: ChatAgent) => void;
  onTry: (agent: ChatAgent) => void;
  tryDisabled: boolean;
}) {
  const isGlobal = organizationNames !== null;
  return (
    <Table caption="Chat agents">
      <thead>
        <tr>
          <Th>Name</Th>
          <Th>Trial</Th>
          <Th>Form</Th>
          <Th>Languages</Th>
          <Th>Phone verification</Th>
          <Th>Next step</Th>
          <Th>Active</Th>
          {isGlobal && <Th>Organization</Th>}
          <ActionsTh />
        </tr>
      </thead>
      <tbody>
        {agents.map((agent) => (
          <AgentTableRow
            key={agent.id}
            agent={agent}
            trial={{ title: agent.trialTitle, status: agent.trialStatus, effect: 'not offered to visitors' }}
            organizationName={isGlobal ? (organizationNames.get(agent.organizationId) ?? '—') : null}
            onEdit={() => onEdit(agent)}
            onDelete={() => onDelete(agent)}
            actions={
              <Button variant="secondary" size="sm" onClick={() => onTry(agent)} disabled={tryDisabled} aria-label={`Try ${agent.name}`}>
                <MessageSquarePlus aria-hidden="true" className="h-4 w-4" />
                Try it
              </Button>
            }
          >
            <Td className="min-w-36 max-w-xs">
              {agent.prescreenFormId ? (
                <span className="flex flex-wrap items-center gap-1.5">
                  <Link
                    to="/admin/prescreen-forms/$formId"
                    params={{ formId: agent.prescreenFormId }}
                    className="text-blue-800 underline-offset-4 hover:underline"
                  >
                    {agent.prescreenFormName ?? 'Form'}
                  </Link>
                  {agent.prescreenFormStatus !== 'published' && <Badge tone="amber">{agent.prescreenFormStatus ?? 'missing'}</Badge>}
                </span>
              ) : (
                <Badge tone="amber">No form</Badge>
              )}
            </Td>
            <Td>{languagesText(agent.languages)}</Td>
            <Td>{agent.requirePhoneVerification ? 'Required' : 'Off'}</Td>
            <Td>{NEXT_STEP_LABELS[agent.nextStep]}</Td>
          </AgentTableRow>
        ))}
      </tbody>
    </Table>
  );
}

/** What a row of the chat or voice agent list shows of every agent, whatever its kind. */
interface TableAgent {
  id: string;
  name: string;
  trialId: string | null;
  active: boolean;
}

/**
 * One agent's row in the chat and the voice agent lists: its name, its trial (linked, with a badge when the trial
 * no longer recruits and what that stops), the kind's own cells (`children`), active, the organization for the
 * global operator (`organizationName`, null otherwise), and its actions (`actions` before Edit and Delete).
 */
export function AgentTableRow({
  agent,
  trial,
  trialNote,
  organizationName,
  onEdit,
  onDelete,
  actions,
  children,
}: {
  agent: TableAgent;
  trial: { title: string | null | undefined; status: TrialStatus | null | undefined; effect: string };
  trialNote?: ReactNode;
  organizationName: string | null;
  onEdit: () => void;
  onDelete: () => void;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <tr>
      <Td className="font-medium text-slate-900">{agent.name}</Td>
      <Td className="min-w-56 max-w-sm">
        {agent.trialId ? (
          <Link
            to="/trials/$trialId"
            params={{ trialId: agent.trialId }}
            title={trial.title ?? undefined}
            className="line-clamp-2 text-blue-800 underline-offset-4 hover:underline"
          >
            {trial.title ?? 'Trial'}
          </Link>
        ) : (
          '—'
        )}
        {agent.trialId && <NotRecruitingBadge status={trial.status} effect={trial.effect} />}
        {trialNote}
      </Td>
      {children}
      <Td>{agent.active ? <Badge tone="green">Active</Badge> : <Badge>Inactive</Badge>}</Td>
      {organizationName !== null && <Td>{organizationName}</Td>}
      <Td className="whitespace-nowrap text-right">
        <AgentRowActions agent={agent} onEdit={onEdit} onDelete={onDelete}>
          {actions}
        </AgentRowActions>
      </Td>
    </tr>
  );
}
