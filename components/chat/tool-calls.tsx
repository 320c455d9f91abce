import './answer-extras.css';
import { Accordion, Group, Loader, Text, VisuallyHidden } from '@mantine/core';
import type { TFunction } from 'i18next';
import { memo, useContext, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/chat-tools.en.json';
import { loadOwnImage } from '../../shared/api/image-proxy.ts';
import { mediaLink } from '../../shared/api/media.ts';
import type { ChatToolCall } from '../../shared/contracts/chat.ts';
import { openBlobInPopup } from '../../shared/utils/popup.ts';
import { screenshotFile } from '../../shared/utils/screenshot.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { IconAlert, IconFileText, IconGlobe, IconPhoto, IconPuzzle } from '../ui/icons.tsx';
import { ChatAddonsContext } from './chat-addons.ts';

addEnglishStrings(en);

/** The tools the server implements (server/services/plugins/plugins.ts); others are named as the model did. */
const KNOWN_TOOLS = ['web_search', 'read_url', 'generate_image'] as const;
type KnownTool = (typeof KNOWN_TOOLS)[number];
const isKnownTool = (name: string): name is KnownTool => (KNOWN_TOOLS as readonly string[]).includes(name);

/** A call still `running` in an answer that is no longer streaming was cut off (stopped, failed). */
export type ShownToolStatus = ChatToolCall['status'] | 'interrupted';

const ICONS: Record<KnownTool, (props: { size?: number }) => ReactNode> = {
  web_search: IconGlobe,
  read_url: IconFileText,
  generate_image: IconPhoto,
};

function toolLabel(t: TFunction, toolName: string, running: boolean): string {
  const phase = running ? 'running' : 'done';
  return isKnownTool(toolName) ? t(`chat.tools.${toolName}.${phase}`) : t(`chat.tools.other.${phase}`, { tool: toolName });
}

/** What the call was about in a few words (the query searched, the page read, the picture asked for). */
function toolSubject(input: string): string | null {
  try {
    const value: unknown = JSON.parse(input);
    if (value && typeof value === 'object') {
      for (const key of ['query', 'url', 'prompt']) {
        const field = (value as Record<string, unknown>)[key];
        if (typeof field === 'string' && field.trim()) return field.trim();
      }
    }
  } catch {
    // Not JSON: the details show it as it came.
  }
  return null;
}

function prettyInput(input: string): string {
  try {
    return JSON.stringify(JSON.parse(input), null, 2);
  } catch {
    return input;
  }
}

/**
 * Where a generated image loads from: the image-link rule of shared/utils/image-link.ts (a path on the chat server against
 * the server in use, which inside the extension is another origin). Only web and inline-image
 * addresses are shown.
 */
/** Pictures that may open as a page of this origin: raster images only (an SVG could run script there). */
const RASTER_DATA = /^data:image\/(png|jpeg|webp|gif);base64,/i;

function toolImageSrc(link: string): string | null {
  const src = mediaLink(link);
  return /^(https?:\/\/|data:image\/)/i.test(src) ? src : null;
}

/**
 * A generated image is Tandem's own and shows with no click. A web page (the web app, served by the
 * server) loads it as it is; the extension's pages, another origin, as a blob: URL fetched from the
 * server, the only way their CSP lets it in (docs/security.md).
 */
function ToolImage({ src, alt }: { src: string; alt: string }) {
  const direct = /^data:/i.test(src) || /^https?:$/.test(location.protocol);
  const [loaded, setLoaded] = useState({ src: '', url: '' });
  useEffect(() => {
    if (direct) return;
    let live = true;
    loadOwnImage(src).then(
      (url) => live && setLoaded({ src, url }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [src, direct]);
  const shown = direct ? src : loaded.src === src ? loaded.url : '';
  return shown ? <img src={shown} alt={alt} loading="lazy" referrerPolicy="no-referrer" /> : <span role="img" aria-label={alt} aria-busy="true" />;
}

function ToolCallImages({ images }: { images: readonly string[] }) {
  const { t } = useTranslation();
  const shown = images.map(toolImageSrc).filter((src): src is string => src !== null);
  if (shown.length === 0) return null;
  return (
    <div className="tool-call-images" role="group" aria-label={t('chat.tools.images')}>
      {shown.map((src, n) => {
        const image = <ToolImage src={src} alt={t('chat.tools.imageAlt', { n: n + 1 })} />;
        // A web address opens full size in a new tab; a picture given as data (a data: address cannot be
        // opened as a page) opens as a blob in the centred pop-up (shared/utils/popup.ts).
        if (/^https?:/i.test(src)) {
          return (
            <a key={src} className="tool-call-image" href={src} target="_blank" rel="noopener noreferrer">
              {image}
            </a>
          );
        }
        return RASTER_DATA.test(src) ? (
          <button key={`${n}`} type="button" className="tool-call-image" aria-label={t('chat.tools.openImage', { n: n + 1 })} onClick={() => openBlobInPopup(screenshotFile(src))}>
            {image}
          </button>
        ) : (
          <span key={`${n}`} className="tool-call-image">
            {image}
          </span>
        );
      })}
    </div>
  );
}

function ToolCallItem({ call, streaming }: { call: ChatToolCall; streaming: boolean }) {
  const { t } = useTranslation();
  const status: ShownToolStatus = call.status === 'running' && !streaming ? 'interrupted' : call.status;
  const running = status === 'running';
  const Icon = isKnownTool(call.toolName) ? ICONS[call.toolName] : IconPuzzle;
  const subject = toolSubject(call.input);
  return (
    <Accordion.Item value={call.toolCallId} className="tool-call" data-tool={call.toolName} data-status={status} data-testid="tool-call">
      <Accordion.Control icon={<Icon size={14} />}>
        <Group gap={6} wrap="nowrap" className="tool-call-summary">
          <Text size="xs" fw={500} style={{ flex: 'none' }}>
            {toolLabel(t, call.toolName, running)}
          </Text>
          {subject && (
            <Text size="xs" c="dimmed" truncate="end" className="tool-call-subject" title={subject}>
              {subject}
            </Text>
          )}
          {running && (
            <>
              <Loader size={12} aria-hidden="true" />
              <VisuallyHidden>{t('chat.tools.running')}</VisuallyHidden>
            </>
          )}
          {status === 'error' && (
            <Group gap={2} wrap="nowrap" style={{ flex: 'none' }}>
              <IconAlert size={13} color="var(--mantine-color-red-6)" />
              <Text size="xs" c="red">
                {t('chat.tools.failed')}
              </Text>
            </Group>
          )}
          {status === 'interrupted' && (
            <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
              {t('chat.tools.interrupted')}
            </Text>
          )}
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Text size="xs" fw={600} c="dimmed">
          {t('chat.tools.input')}
        </Text>
        <pre className="tool-call-pre" data-testid="tool-call-input">
          {prettyInput(call.input)}
        </pre>
        {!running && (
          <>
            <Text size="xs" fw={600} c="dimmed">
              {t('chat.tools.output')}
            </Text>
            <pre className="tool-call-pre" data-testid="tool-call-output">
              {call.output || t('chat.tools.noOutput')}
            </pre>
          </>
        )}
      </Accordion.Panel>
      {/* Generated pictures are part of the answer: shown whether or not the details are open. */}
      <ToolCallImages images={call.images} />
    </Accordion.Item>
  );
}

export interface ToolCallsProps {
  calls: readonly ChatToolCall[];
  /** The answer is still streaming: a running call shows a spinner (else it was cut off). */
  streaming: boolean;
  /** The answer's id, for the cards of other features' tools (ChatAddons.toolCallCard). */
  chatMessageId?: string;
}

/**
 * The function-plugin calls of an answer, above its text: one compact item per call (what it did,
 * its status), each opening on the input it was given and what it answered. Collapsed panels are
 * not rendered, so a long tool output costs nothing until it is opened.
 */
export const ToolCalls = memo(function ToolCalls({ calls, streaming, chatMessageId }: ToolCallsProps) {
  const { t } = useTranslation();
  const { toolCallCard } = useContext(ChatAddonsContext);
  // A call another feature shows as a card of its own (the memory's proposal) is not listed as an item.
  const cards = calls.map((call) => ({ call, card: toolCallCard?.(call, { chatMessageId, streaming }) ?? null }));
  const items = cards.filter((c) => c.card === null).map((c) => c.call);
  if (calls.length === 0) return null;
  return (
    <div role="group" aria-label={t('chat.tools.label')} data-testid="tool-calls">
      {items.length > 0 && (
        <Accordion multiple variant="separated" chevronPosition="right" keepMounted={false} className="tool-calls" transitionDuration={150}>
          {items.map((call) => (
            <ToolCallItem key={call.toolCallId} call={call} streaming={streaming} />
          ))}
        </Accordion>
      )}
      {cards.map((c) => c.card !== null && <div key={c.call.toolCallId}>{c.card}</div>)}
    </div>
  );
});
