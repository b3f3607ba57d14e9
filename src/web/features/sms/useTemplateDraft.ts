import { useMemo, useState } from 'react';
import type { SmsTemplateKey, SmsTemplateVariable } from '../../../contract/sms';
import { shortTrialTitle } from '../../../contract/trial-name';
import { useActiveOrganization } from '../../lib/active-organization';
import { useTrialsQuery } from '../trials/queries';
import { renderPreview, templateLanguage } from './format';
import { useSmsTemplatesQuery, type SmsThreadDetail } from './queries';

/** Filled from the thread (the server fills them the same way); the others are asked for. */
const AUTOMATIC: SmsTemplateVariable[] = ['firstName', 'organizationName'];

/**
 * A template message being written to one candidate: the chosen template, the variables asked for, and the preview
 * in the candidate's language with the automatic ones filled in.
 */
export function useTemplateDraft(candidate: SmsThreadDetail['candidate']) {
  const [templateKey, setTemplateKey] = useState<SmsTemplateKey | ''>('');
  const [variables, setVariables] = useState<Partial<Record<SmsTemplateVariable, string>>>({});
  const templatesQuery = useSmsTemplatesQuery();
  const { organizations, activeOrganization } = useActiveOrganization();
  const trialsQuery = useTrialsQuery();
  const trialTitles = useMemo(
    () => [
      ...new Set((trialsQuery.data?.trials ?? []).filter((trial) => trial.organizationId === candidate.organizationId).map((trial) => shortTrialTitle(trial))),
    ],
    [trialsQuery.data, candidate.organizationId],
  );
  const organizationName =
    organizations.find((org) => org.id === candidate.organizationId)?.name ??
    (activeOrganization?.id === candidate.organizationId ? activeOrganization.name : '');

  const templates = templatesQuery.data?.templates ?? [];
  const template = templates.find((item) => item.key === templateKey);
  const language = templateLanguage(candidate.preferredLanguage);
  const asked = template ? template.variables.filter((name) => !AUTOMATIC.includes(name)) : [];
  const filled: Record<string, string | undefined> = { firstName: candidate.firstName, organizationName, ...variables };
  const preview = template ? renderPreview(template.text[language], filled) : '';
  const missing = asked.filter((name) => !variables[name]?.trim());
  return {
    templatesQuery,
    templates,
    template,
    templateKey,
    setTemplateKey,
    variables,
    setVariables,
    trialTitles,
    organizationName,
    language,
    asked,
    preview,
    missing,
  };
}

export type TemplateDraft = ReturnType<typeof useTemplateDraft>;
