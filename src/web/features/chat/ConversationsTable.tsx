import { Link } from '@tanstack/react-router';
import type { ConversationSummary } from '../../../contract/chat';
import { Badge, Table, Td, Th } from '../../components/ui';
import { formatDateTime } from '../../lib/utils';
import { RecommendationBadge } from '../prescreen/components';
import { LANGUAGE_LABELS, STATUS_LABELS } from './format';
import { countWords } from '../../lib/counts';

/** A conversation's status as a badge: green once completed. */
export function StatusBadge({ status }: { status: keyof typeof STATUS_LABELS }) {
  return <Badge tone={status === 'COMPLETED' ? 'green' : 'blue'}>{STATUS_LABELS[status]}</Badge>;
}

/** The conversations list: each opens its transcript; the organization column shows for the global operator. */
export function ConversationsTable({
  rows,
  organizationNames,
}: {
  rows: ConversationSummary[];
  /** Names by organization id when the global operator sees every organization's chats; otherwise none. */
  organizationNames: Map<string, string> | null;
}) {
  const isGlobal = organizationNames !== null;
  return (
    <Table caption="Chat conversations">
      <thead>
        <tr>
          <Th>Candidate</Th>
          <Th>Agent</Th>
          <Th>Status</Th>
          <Th>Language</Th>
          <Th className="text-right">Messages</Th>
          <Th>AI recommendation</Th>
          <Th>Created</Th>
          <Th>Updated</Th>
          {isGlobal && <Th>Organization</Th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((conversation) => (
          <tr key={conversation.id}>
            <Td className="whitespace-nowrap">
              <Link
                from="/admin/chat-conversations"
                to="/admin/chat-conversations"
                search={(previous) => ({ ...previous, conversationId: conversation.id })}
                className="font-medium text-blue-800 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
              >
                {conversation.candidate?.name || 'Anonymous visitor'}
              </Link>
              {conversation.isTest && (
                <Badge tone="amber" className="ml-2">
                  Test
                </Badge>
              )}
            </Td>
            <Td>{conversation.agent?.name || <span className="text-slate-700">Deleted agent</span>}</Td>
            <Td>
              <StatusBadge status={conversation.status} />
            </Td>
            <Td>{LANGUAGE_LABELS[conversation.language] ?? conversation.language}</Td>
            <Td className="text-right tabular-nums">{countWords(conversation.messageCount)}</Td>
            <Td>
              {conversation.prescreenResult ? (
                <RecommendationBadge recommendation={conversation.prescreenResult.aiRecommendation} />
              ) : (
                <span className="text-slate-700">—</span>
              )}
            </Td>
            <Td className="whitespace-nowrap">{formatDateTime(conversation.createdAt)}</Td>
            <Td className="whitespace-nowrap">{formatDateTime(conversation.updatedAt)}</Td>
            {isGlobal && <Td>{organizationNames.get(conversation.organizationId) ?? '—'}</Td>}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
