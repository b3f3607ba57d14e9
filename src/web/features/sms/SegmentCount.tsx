import { SMS_MAX_BODY_LENGTH } from '../../../contract/sms';
import { cn } from '../../lib/utils';
import { smsSegments } from './format';

/** Length and SMS segments of a message about to be sent, red once it is over the limit. */
export function SegmentCount({ id, text }: { id: string; text: string }) {
  const count = smsSegments(text);
  const over = text.length > SMS_MAX_BODY_LENGTH;
  return (
    <p id={id} className={cn('text-xs', over ? 'font-medium text-red-800' : 'text-slate-700')} data-testid="sms-count">
      {text.length} / {SMS_MAX_BODY_LENGTH} characters · {count.segments === 1 ? '1 SMS segment' : `${count.segments} SMS segments`}
      {count.encoding === 'Unicode' && text ? ' (special characters: 70 per segment)' : ''}
    </p>
  );
}
