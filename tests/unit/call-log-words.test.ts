import { describe, expect, it } from 'vitest';
import { callLogSummaryWords, toolWords, transcriptOffsetWords } from '../../src/web/features/voice/format';

// Issue 32: the call page's "Show the provider's messages" said the provider's codes ("Status: ended
// (customer-ended-call)", "user (final)", "Tool calls: set-call-metadata"). The summaries as calls/service.ts writes them.
describe("the provider's log summaries in words", () => {
  it('says a status change and why a call ended', () => {
    expect(callLogSummaryWords('status-update', 'Status: ringing')).toBe('Ringing');
    expect(callLogSummaryWords('status-update', 'Status: in-progress')).toBe('Call in progress');
    expect(callLogSummaryWords('status-update', 'Status: ended (customer-ended-call)')).toBe('The call ended: the person hung up');
    expect(callLogSummaryWords('end-of-call-report', 'Call ended: customer-did-not-answer')).toBe('The call ended: no answer');
    expect(callLogSummaryWords('end-of-call-report', 'Call ended: ')).toBe('The call ended');
  });

  it('says an ended reason it has no words for without its dashes, and failures as failures', () => {
    expect(callLogSummaryWords('end-of-call-report', 'Call ended: customer-hung-up-early')).toBe('The call ended: the person hung up early');
    expect(callLogSummaryWords('end-of-call-report', 'Call ended: pipeline-error-openai-llm-failed')).toMatch(
      /^The call ended: the provider reported a failure/,
    );
  });

  it('says who spoke, and that partial words are not the final transcript', () => {
    expect(callLogSummaryWords('transcript', 'assistant (final)')).toBe('The agent spoke');
    expect(callLogSummaryWords('transcript', 'user (partial)')).toBe('The person spoke (words so far)');
  });

  it('says what the agent did with its tools', () => {
    expect(callLogSummaryWords('tool-calls', 'Tool calls: set-call-metadata, end-prescreen-chat')).toBe('Recorded an answer; Marked the prescreen complete');
    expect(toolWords('schedule-callback')).toBe('Scheduled a call back');
    expect(toolWords('lookup-site-hours')).toBe('Lookup site hours');
  });

  it('leaves out a summary that only repeats the type, and leaves other text to the general rewording', () => {
    expect(callLogSummaryWords('speech-update', 'speech-update')).toBe('');
    expect(callLogSummaryWords('hang', 'Something else')).toBeNull();
  });
});

// Issue 32 QA: the voice demo's transcript read "Agent · —" on every line (the simulator's turns carry "4s").
describe('when a transcript turn was said, in words', () => {
  it("reads a provider's offset and a time of day alike", () => {
    expect(transcriptOffsetWords('4s', null)).toBe('0:04 into the call');
    expect(transcriptOffsetWords('75.4s', '2026-11-30T04:13:00Z')).toBe('1:15 into the call');
    expect(transcriptOffsetWords('2026-11-30T04:13:45Z', '2026-11-30T04:13:00Z')).toBe('0:45 into the call');
  });
  it('says nothing when the time is unknown or before the call', () => {
    expect(transcriptOffsetWords(undefined, '2026-11-30T04:13:00Z')).toBeNull();
    expect(transcriptOffsetWords('soon', '2026-11-30T04:13:00Z')).toBeNull();
    expect(transcriptOffsetWords('2026-11-30T04:12:00Z', '2026-11-30T04:13:00Z')).toBeNull();
    expect(transcriptOffsetWords('2026-11-30T04:13:45Z', null)).toBeNull();
  });
});
