import { useRef, useState, type ChangeEvent } from 'react';
import { errorMessage } from '../../lib/utils';
import { usePreviewStudy, useImportStudy, type StudyFileContent } from './queries';

interface StudyChoice {
  index: number;
  nctId: string;
  title: string;
}

/** NCT id and title of each record of an array file, to choose from. */
function choicesOf(records: unknown[]): StudyChoice[] {
  return records.map((record, index) => {
    const identification = (
      record as { protocolSection?: { identificationModule?: { nctId?: unknown; briefTitle?: unknown; officialTitle?: unknown } } } | null
    )?.protocolSection?.identificationModule;
    const nctId = typeof identification?.nctId === 'string' ? identification.nctId : `Record ${index + 1}`;
    const title =
      typeof identification?.briefTitle === 'string'
        ? identification.briefTitle
        : typeof identification?.officialTitle === 'string'
          ? identification.officialTitle
          : 'Untitled study';
    return { index, nctId, title };
  });
}

/**
 * The record file being imported: read in the browser, one study chosen when it holds several, and its preview
 * (the trial as the server reads it) asked for as soon as there is one study.
 */
export function useStudyFile(organizationId: string | undefined) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [records, setRecords] = useState<unknown[] | null>(null);
  const [chosen, setChosen] = useState<string>('');
  const [content, setContent] = useState<StudyFileContent | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const preview = usePreviewStudy();
  const save = useImportStudy();

  const runPreview = (next: StudyFileContent) => {
    setContent(next);
    save.reset();
    preview.mutate({ content: next, organizationId });
  };

  /** Forgets what the last file gave: its records, the chosen one, the preview, a read or save error. */
  const forgetFile = () => {
    setRecords(null);
    setChosen('');
    setContent(null);
    setReadError(null);
    preview.reset();
    save.reset();
  };

  const reset = () => {
    forgetFile();
    setFileName(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    forgetFile();
    if (!file) {
      setFileName(null);
      return;
    }
    setFileName(file.name);
    let text: string;
    try {
      text = await file.text();
    } catch (error) {
      setReadError(`Could not read ${file.name}: ${errorMessage(error)}`);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: the server names the problem.
      runPreview({ kind: 'text', text });
      return;
    }
    if (Array.isArray(parsed)) {
      if (parsed.length === 0) {
        setReadError(`${file.name} holds an empty list: there is no study to import.`);
        return;
      }
      if (parsed.length === 1) {
        runPreview({ kind: 'json', study: parsed[0] });
        return;
      }
      setRecords(parsed);
      return;
    }
    runPreview({ kind: 'json', study: parsed });
  };

  /** One study of a file that holds several was chosen ('' for none). */
  const choose = (next: string) => {
    setChosen(next);
    if (next !== '' && records) runPreview({ kind: 'json', study: records[Number(next)] });
  };

  return { fileInput, fileName, records, choices: records ? choicesOf(records) : [], chosen, choose, content, readError, preview, save, onFile, reset };
}
