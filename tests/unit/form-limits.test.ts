import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConsentInputSchema,
  ConsentSourceSchema,
  CreateCandidateSchema,
  CreatePrescreenNoteSchema,
  UpdateCandidateSchema,
} from '../../src/contract/candidates';
import { ScheduleCallbackSchema } from '../../src/contract/callbacks';
import { CreateChatAgentSchema, VerifyChatSchema } from '../../src/contract/chat';
import { AssignPhoneNumberSchema } from '../../src/contract/phone-numbers';
import { DecisionBodySchema } from '../../src/contract/prescreen';
import { CreatePrescreenFormSchema, QuestionSchema } from '../../src/contract/prescreen-forms';
import { CreateTrialSchema } from '../../src/contract/trials';
import { AddUserSchema } from '../../src/contract/users';
import { CreateVoiceAgentSchema } from '../../src/contract/voice';
import { maxLengthOf, textUpTo } from '../../src/web/lib/limits';

describe('form limits read from the contracts', () => {
  it('reads a maximum through optional, nullable, transforms and pipes', () => {
    expect(maxLengthOf(CreateCandidateSchema.shape.phone)).toBe(40);
    expect(maxLengthOf(CreateCandidateSchema.shape.email)).toBe(254);
    expect(maxLengthOf(CreateCandidateSchema.shape.postalCode)).toBe(20);
    expect(maxLengthOf(ConsentSourceSchema)).toBe(200);
    expect(() => maxLengthOf(z.string())).toThrow(/no maximum/);
  });

  it('finds every limit the forms use', () => {
    const used = [
      CreateCandidateSchema.shape.firstName,
      CreateCandidateSchema.shape.lastName,
      UpdateCandidateSchema.shape.statusReason,
      ConsentInputSchema.shape.doNotContactReason,
      CreatePrescreenNoteSchema.shape.text,
      ScheduleCallbackSchema.shape.note,
      CreateChatAgentSchema.shape.name,
      CreateChatAgentSchema.shape.greeting.shape.en,
      VerifyChatSchema.shape.phone,
      DecisionBodySchema.shape.reason,
      CreatePrescreenFormSchema.shape.name,
      QuestionSchema.shape.unit,
      CreateTrialSchema.shape.title,
      CreateTrialSchema.shape.publicTitle,
      CreateTrialSchema.shape.sponsor,
      CreateTrialSchema.shape.phase,
      CreateTrialSchema.shape.summary,
      CreateTrialSchema.shape.conditions.unwrap().element,
      AddUserSchema.shape.name,
      CreateVoiceAgentSchema.shape.name,
      CreateVoiceAgentSchema.shape.voice,
      CreateVoiceAgentSchema.shape.firstMessage.shape.en,
      AssignPhoneNumberSchema.shape.label,
    ];
    for (const schema of used) expect(maxLengthOf(schema)).toBeGreaterThan(0);
  });

  it('says the limit in words a person can act on', () => {
    const name = textUpTo(CreateVoiceAgentSchema.shape.name, 'Name');
    expect(name.parse('  Ada  ')).toBe('Ada');
    expect(name.safeParse('x'.repeat(101)).error?.issues[0]?.message).toBe('Name must be at most 100 characters');
  });
});
