import { Alert, Anchor, Box, Button, FileButton, Group, Loader, NativeSelect, Paper, Progress, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useAtom, useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import en from '../../locales/features/translate.en.json';
import { documentText } from '../../shared/api/translate.ts';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import { MEDIA_LIMITS } from '../../shared/contracts/media.ts';
import { translatePrefsAtom } from '../../shared/atoms/translate.ts';
import { RTL_LANGUAGES, TRANSLATE_LANGUAGES, TranslateLanguageSchema, type TranslateLanguage } from '../../shared/contracts/translate.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { SignInPrompt } from '../app-shell/sign-in-prompt.tsx';
import { downloadText } from '../ui/download.ts';
import { errorMessage } from '../ui/error-message.ts';
import { IconCopy, IconDownload, IconFileText, IconRefresh, IconX } from '../ui/icons.tsx';
import { PageFrame } from '../ui/page-frame.tsx';
import {
  BATCH_LIMITS,
  batchText,
  documentKind,
  isServerDocument,
  makeBatches,
  normaliseNewlines,
  OPENED_EXTENSIONS,
  PAGE_MAX_CHARS,
  splitDocument,
  translationFileName,
  translationMime,
  type DocumentKind,
} from './document.ts';
import { useEstimate } from './use-estimate.ts';
import { jobOutput, jobProgress, useTranslateJob, type TranslateJob } from './use-translate-job.ts';

addEnglishStrings(en);

export interface TranslatePageProps {
  /** Back to the chat (/). */
  onBack: () => void;
}

/** The app's language as a translation target: en → en, zh → zh-Hans. */
export function appTargetLanguage(appLanguage: string): TranslateLanguage {
  return appLanguage.startsWith('zh') ? 'zh-Hans' : 'en';
}

/** A language's name in the page's language (Intl.DisplayNames), the code itself where the browser has none. */
function languageName(code: string, appLanguage: string): string {
  try {
    return new Intl.DisplayNames([appLanguage.startsWith('zh') ? 'zh-Hans' : 'en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The Translate page (/translate): for phones and for browsers without the extension. A text pasted or
 * typed, or a text document opened, is translated into the language chosen (remembered with the
 * user's translation preferences; the app's language until one is chosen), in batches of paragraphs
 * (use-translate-job.ts) with the price shown before. A visitor is asked to sign in.
 */
export function TranslatePage({ onBack }: TranslatePageProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const loggedIn = useAtomValue(isLoggedInAtom);
  return (
    <PageFrame title={t('translate.title')} backLabel={t('translate.back')} onBack={onBack} narrow={isH5} width={1100}>
      {loggedIn ? <Translator /> : <SignInPrompt message={t('translate.signInPrompt')} signInLabel={t('translate.signIn')} notice="translate.signInTip" />}
    </PageFrame>
  );
}

function Translator() {
  const { t, i18n } = useTranslation();
  const [prefs, setPrefs] = useAtom(translatePrefsAtom);
  const target = prefs.targetLanguage ?? appTargetLanguage(i18n.language);
  const [source, setSource] = useState('');
  const [document, setDocument] = useState<{ name: string; kind: DocumentKind } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [reading, setReading] = useState<string | null>(null);
  const { job, start, retry, resume, stop, clear } = useTranslateJob();
  const kind = document?.kind ?? 'text';
  const tooLong = source.length > PAGE_MAX_CHARS;
  const estimate = useEstimate(source, kind, target, !tooLong);
  const parts = tooLong ? 0 : makeBatches(splitDocument(source, kind), BATCH_LIMITS).length;
  const progress = job ? jobProgress(job) : null;
  const output = job ? jobOutput(job) : null;
  const max = PAGE_MAX_CHARS.toLocaleString(i18n.language);

  const chooseTarget = (value: string) => {
    const parsed = TranslateLanguageSchema.safeParse(value);
    if (parsed.success) void setPrefs({ ...prefs, targetLanguage: parsed.data });
  };

  const open = async (file: File | null) => {
    if (!file) return;
    setFileError(null);
    setReading(file.name);
    const read = await readDocument(file, t, max);
    setReading(null);
    if ('error' in read) return setFileError(read.error);
    clear();
    setSource(read.text);
    setDocument({ name: file.name, kind: documentKind(file.name)! });
  };

  const reset = () => {
    clear();
    setSource('');
    setDocument(null);
    setFileError(null);
  };

  const detected = job?.detectedLanguage ?? null;
  const detectedTarget = TranslateLanguageSchema.safeParse(detected === 'zh' ? 'zh-Hans' : detected);
  const swap = () => {
    if (!detectedTarget.success || output === null) return;
    chooseTarget(detectedTarget.data);
    setSource(output);
    clear();
  };

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label={t('translate.target')}
          value={target}
          onChange={(event) => chooseTarget(event.currentTarget.value)}
          data={TRANSLATE_LANGUAGES.map((code) => ({ value: code, label: languageName(code, i18n.language) }))}
          data-testid="translate-target"
          w={220}
        />
        {progress?.running ? (
          <Button color="gray" variant="light" onClick={stop}>
            {t('translate.stop')}
          </Button>
        ) : (
          <Button onClick={() => start(source, kind, target)} disabled={parts === 0 || tooLong} data-testid="translate-start">
            {t('translate.translateButton')}
          </Button>
        )}
        <EstimateLine estimate={estimate} />
      </Group>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Stack gap={6}>
          <Textarea
            label={t('translate.source')}
            placeholder={t('translate.sourcePlaceholder')}
            value={source}
            onChange={(event) => setSource(event.currentTarget.value)}
            autosize
            minRows={8}
            maxRows={20}
            data-testid="translate-source"
          />
          <CharCount chars={source.length} parts={parts} tooLong={tooLong} />
          <DocumentLine name={document?.name ?? null} reading={reading} error={fileError} onFile={(file) => void open(file)} />
        </Stack>

        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {t('translate.output')}
          </Text>
          <Output job={job} onRetry={retry} />
          {progress && <ProgressLine job={job!} onResume={resume} />}
          {detected && (
            <Group gap="xs" wrap="wrap">
              <Text size="xs" c="dimmed" data-testid="translate-detected">
                {t('translate.detected', { language: languageName(detected, i18n.language) })}
              </Text>
              {detectedTarget.success && detectedTarget.data !== job?.target && output !== null && (
                <Anchor component="button" type="button" size="xs" onClick={swap}>
                  {t('translate.swap', { language: languageName(detectedTarget.data, i18n.language) })}
                </Anchor>
              )}
            </Group>
          )}
          <OutputActions output={output} fileName={job ? translationFileName(document?.name ?? null, job.target) : ''} mime={translationMime(kind, document?.name ?? null)} onClear={reset} canClear={source !== '' || !!job || !!document} />
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

/** The text's length, the number of requests it goes in, or that it is over what the page translates at once. */
function CharCount({ chars, parts, tooLong }: { chars: number; parts: number; tooLong: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <Text size="xs" c={tooLong ? 'red' : 'dimmed'} data-testid="translate-count">
      {tooLong
        ? t('translate.tooLong', { max: PAGE_MAX_CHARS.toLocaleString(i18n.language) })
        : `${t('translate.charCount', { count: chars })}${parts > 1 ? ` · ${t('translate.parts', { count: parts })}` : ''}`}
    </Text>
  );
}

/**
 * An opened document's text, or why it cannot be translated here: a text file read in the browser,
 * a .docx or .pdf read on the server (its text only: the translation downloads as .txt).
 */
async function readDocument(file: File, t: TFunction, max: string): Promise<{ text: string } | { error: string }> {
  if (!documentKind(file.name)) return { error: t('translate.unsupportedFile', { name: file.name }) };
  if (isServerDocument(file.name)) {
    const limit = MEDIA_LIMITS.chat.maxBytes;
    if (file.size > limit) return { error: t('translate.documentTooBig', { name: file.name, mb: limit / 1024 / 1024 }) };
    try {
      return { text: normaliseNewlines((await documentText(file)).text) };
    } catch (error) {
      return { error: errorMessage(error) };
    }
  }
  // A file far bigger than the page translates at once is not read (UTF-8: at most 4 bytes a character).
  if (file.size > PAGE_MAX_CHARS * 4) return { error: t('translate.fileTooBig', { name: file.name, max }) };
  let text: string;
  try {
    text = normaliseNewlines(await file.text());
  } catch {
    return { error: t('translate.fileUnreadable', { name: file.name }) };
  }
  if (text.length > PAGE_MAX_CHARS) return { error: t('translate.fileTooBig', { name: file.name, max }) };
  return { text };
}

/** "Or open a document": the file button, the document open (or the types it opens, or the one being read), and why a file could not be opened. */
function DocumentLine({ name, reading, error, onFile }: { name: string | null; reading: string | null; error: string | null; onFile: (file: File | null) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Group gap="xs" wrap="wrap">
        <FileButton onChange={onFile} accept={OPENED_EXTENSIONS.map((ext) => `.${ext}`).join(',')} inputProps={{ 'data-testid': 'translate-file' } as object}>
          {(props) => (
            <Button {...props} variant="default" size="xs" leftSection={<IconFileText size={14} />}>
              {t('translate.openDocument')}
            </Button>
          )}
        </FileButton>
        {reading ? (
          <Group gap={6} data-testid="translate-file-reading">
            <Loader size="xs" />
            <Text size="xs" c="dimmed">
              {t('translate.readingDocument', { name: reading })}
            </Text>
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            {name ? t(isServerDocument(name) ? 'translate.documentAsText' : 'translate.documentOpened', { name }) : t('translate.documentTypes')}
          </Text>
        )}
      </Group>
      {error && (
        <Alert color="red" variant="light" p="xs" data-testid="translate-file-error">
          {error}
        </Alert>
      )}
    </>
  );
}

/** Copy, Download (once the whole translation is in) and Clear. */
function OutputActions({ output, fileName, mime, onClear, canClear }: { output: string | null; fileName: string; mime: string; onClear: () => void; canClear: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="wrap">
      <CopyButton text={output} />
      <Button variant="default" size="xs" leftSection={<IconDownload size={14} />} disabled={output === null} onClick={() => output !== null && downloadText(output, fileName, mime)}>
        {t('translate.download')}
      </Button>
      <Button variant="default" size="xs" leftSection={<IconX size={14} />} onClick={onClear} disabled={!canClear}>
        {t('translate.clear')}
      </Button>
    </Group>
  );
}

function EstimateLine({ estimate }: { estimate: ReturnType<typeof useEstimate> }) {
  const { t } = useTranslation();
  if (estimate.status === 'idle') return null;
  if (estimate.status === 'loading') {
    return (
      <Group gap={6} mb={8}>
        <Loader size={12} />
        <Text size="sm" c="dimmed">
          {t('translate.estimating')}
        </Text>
      </Group>
    );
  }
  if (estimate.status === 'failed') {
    return (
      <Text size="sm" c="red" mb={8} data-testid="translate-estimate">
        {t('translate.estimateFailed', { message: estimate.error })}
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed" mb={8} data-testid="translate-estimate">
      {t('translate.estimateBalance', { count: estimate.cost, balance: estimate.balance })}
    </Text>
  );
}

/** The translation pane: each batch in order, translated, on its way, stopped, or failed with its Retry. */
function Output({ job, onRetry }: { job: TranslateJob | null; onRetry: (index: number) => void }) {
  const { t } = useTranslation();
  const rtl = job ? RTL_LANGUAGES.includes(job.target) : false;
  return (
    <Paper withBorder p="sm" radius={6} mih={180} data-testid="translate-output" dir={rtl ? 'rtl' : 'ltr'} lang={job?.target}>
      {!job && (
        <Text size="sm" c="dimmed">
          {t('translate.outputPlaceholder')}
        </Text>
      )}
      {job?.batches.map((batch, index) => {
        const state = job.states[index]!;
        const part = index + 1;
        if (state.status === 'done') {
          return (
            <Box key={index} component="span" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="translate-part">
              {batchText(job.pieces, batch, job.translations)}
            </Box>
          );
        }
        if (state.status === 'failed') {
          return (
            <Alert key={index} color="red" variant="light" p="xs" my={6} dir="auto" data-testid="translate-part-error">
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm">{t('translate.partFailed', { part, message: state.error })}</Text>
                <RetryButton onClick={() => onRetry(index)} />
              </Group>
            </Alert>
          );
        }
        return (
          <Text key={index} size="sm" c="dimmed" my={4} dir="auto" data-testid="translate-part-pending">
            {t(state.status === 'stopped' ? 'translate.partStopped' : 'translate.partWaiting', { part })}
          </Text>
        );
      })}
    </Paper>
  );
}

function RetryButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button size="compact-xs" variant="light" color="red" leftSection={<IconRefresh size={12} />} onClick={onClick} style={{ flexShrink: 0 }}>
      {t('translate.retry')}
    </Button>
  );
}

function ProgressLine({ job, onResume }: { job: TranslateJob; onResume: () => void }) {
  const { t } = useTranslation();
  const { done, total, running } = jobProgress(job);
  const stopped = job.states.some((s) => s.status === 'stopped');
  return (
    <Stack gap={4} data-testid="translate-progress">
      {running && <Progress value={total === 0 ? 100 : (done / total) * 100} size="sm" aria-label={t('translate.progress', { done, total })} />}
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Text size="xs" c="dimmed">
          {running ? t('translate.progress', { done, total }) : stopped ? t('translate.stopped', { done, total }) : job.cost > 0 ? t('translate.charged', { count: job.cost }) : ''}
        </Text>
        {!running && stopped && (
          <Button size="compact-xs" variant="light" onClick={onResume}>
            {t('translate.resume')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function CopyButton({ text }: { text: string | null }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    if (text === null) return;
    try {
      await navigator.clipboard.writeText(text);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
    setTimeout(() => setCopied(null), 2000);
  };
  return (
    <>
      <Button variant="default" size="xs" leftSection={<IconCopy size={14} />} disabled={text === null} onClick={() => void copy()}>
        {copied === 'copied' ? t('translate.copied') : t('translate.copy')}
      </Button>
      {copied === 'failed' && (
        <Text size="xs" c="red">
          {t('translate.copyFailed')}
        </Text>
      )}
    </>
  );
}
