import { Alert, Code, FileInput, Loader, ScrollArea, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MEDIA_LIMITS } from '../../shared/contracts/media.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { readDocument, type DocumentReading } from '../../shared/utils/read-document.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { PageFrame } from '../ui/page-frame.tsx';
import strings from '../../locales/features/local-file.en.json';

addEnglishStrings(strings);

type Outcome = { name: string; reading: DocumentReading } | { name: string; error: string };

/**
 * /local_file (development builds only, product spec §2): a local file read as the chat would attach
 * it. A saved web page goes through the tab reader (shared/utils/read-document.ts: Readability, then
 * Markdown), as a page read in the user's tab; a text file is shown as it is. For trying the reader on
 * pages kept on disk without an extension or a site.
 */
export function LocalFilePage({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);

  const choose = async (file: File | null) => {
    setOutcome(null);
    if (!file) return;
    const max = MEDIA_LIMITS.chat.maxBytes;
    if (file.size >= max) return setOutcome({ name: file.name, error: t('localFile.tooLarge', { name: file.name, max: max / 1024 / 1024 }) });
    setBusy(true);
    try {
      setOutcome({ name: file.name, reading: await readLocalFile(file) });
    } catch (error) {
      setOutcome({ name: file.name, error: t('localFile.failed', { name: file.name, reason: error instanceof Error ? error.message : String(error) }) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <PageFrame title={t('localFile.title')} backLabel={t('localFile.back')} onBack={onBack} narrow={isH5}>
      <Text size="sm" c="dimmed">
        {t('localFile.hint')}
      </Text>
      <FileInput label={t('localFile.choose')} accept=".html,.htm,.txt,.md,text/html,text/plain,text/markdown" clearable onChange={(file) => void choose(file)} data-testid="local-file-input" />
      {busy && <Loader size="sm" aria-label={t('localFile.reading')} />}
      {outcome && 'error' in outcome && (
        <Alert color="red" variant="light" role="alert">
          {outcome.error}
        </Alert>
      )}
      {outcome && 'reading' in outcome && <Reading name={outcome.name} reading={outcome.reading} />}
    </PageFrame>
  );
}

function Reading({ name, reading }: { name: string; reading: DocumentReading }) {
  const { t } = useTranslation();
  if (!reading.markdown) return <Alert variant="light">{t('localFile.empty', { name })}</Alert>;
  return (
    <Stack gap={6} data-testid="local-file-reading">
      <Text size="sm">
        <b>{t('localFile.pageTitle')}:</b> {reading.title}
      </Text>
      <Text size="xs" c="dimmed">
        {t('localFile.characters', { count: reading.markdown.length })}
      </Text>
      <ScrollArea.Autosize mah={480}>
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {reading.markdown}
        </Code>
      </ScrollArea.Autosize>
    </Stack>
  );
}

/** A saved page through the tab reader; any other file as its text. */
async function readLocalFile(file: File): Promise<DocumentReading> {
  const text = await file.text();
  const url = `file:///${encodeURIComponent(file.name)}`;
  if (/\.html?$/i.test(file.name) || file.type === 'text/html') {
    const doc = new DOMParser().parseFromString(text, 'text/html');
    const reading = readDocument(doc);
    // A parsed document has no address of its own: the file's name stands for it.
    return { ...reading, url, title: reading.title === doc.URL ? file.name : reading.title };
  }
  return { title: file.name, url, icon: '', markdown: text.trim() };
}
