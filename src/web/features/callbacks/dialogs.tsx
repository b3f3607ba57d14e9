import type { ReactElement } from 'react';
import type { Callback } from '../../../contract/callbacks';
import type { VoiceAgentType } from '../../../contract/voice';
import { lazyDialog } from '../../components/lazy-dialog';
import type { ScheduleCallbackResult } from './queries';

export interface ScheduleCallbackDialogProps {
  candidateId: string;
  candidateName: string;
  organizationId?: string;
  /** The candidate's time zone (null: the server's default zone). */
  timeZone: string | null;
  /** The candidate's open callback, when moving it. */
  callback?: Callback | null;
  defaultType?: VoiceAgentType;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  onScheduled?: (result: ScheduleCallbackResult) => void;
}

/** The callback is still to be placed (or being placed): the dialog moves it rather than scheduling another. */
export const isMoving = (callback: Callback | null | undefined) => Boolean(callback && (callback.status === 'pending' || callback.status === 'calling'));

export const scheduleCallbackTitle = ({ candidateName, callback }: Pick<ScheduleCallbackDialogProps, 'candidateName' | 'callback'>) =>
  isMoving(callback) ? `Reschedule the callback to ${candidateName}` : `Schedule a callback to ${candidateName}`;

const LazyScheduleCallbackDialog = lazyDialog<ScheduleCallbackDialogProps>(
  () => import('./ScheduleCallbackDialog').then((module) => module.ScheduleCallbackDialog),
  scheduleCallbackTitle,
);

/**
 * Schedule a callback for a candidate, or move their open one: `trigger` opens it, or `open`/`onOpenChange`.
 * The form loads when the dialog opens.
 */
export function ScheduleCallbackDialog(props: ScheduleCallbackDialogProps & { trigger?: ReactElement }) {
  return <LazyScheduleCallbackDialog {...props} />;
}
