import { Menu, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import en from '../../locales/features/chat-model-menu.en.json';
import { IMAGE_EXTENSIONS } from '../../shared/contracts/media.ts';
import { AUTO_MODEL_ID, type ModelListItem } from '../../shared/contracts/model.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { groupModelsByLevel } from '../../shared/utils/default-model.ts';
import { planColor, planName } from '../../shared/utils/plan-level.ts';
import { IconCheck, IconCoin, IconCrown, IconFileText, IconGlobe, IconLock, IconPhoto } from '../ui/icons.tsx';
import { fileKindsInWords } from './file-kinds.ts';
import { modelName } from './model-name.ts';

addEnglishStrings(en);

/** The operator's one line about the model; Auto's is the reader's language's own. */
function modelDescription(model: ModelListItem, t: (key: string) => string): string {
  return model.aiModelId === AUTO_MODEL_ID ? t('chat.model.autoDescription') : model.description.trim();
}

const isImageExtension = (extension: string) => (IMAGE_EXTENSIONS as readonly string[]).includes(extension.toLowerCase());

/**
 * What the model reads besides text, in words: "Images · PDF, Word and text files" (图片 · PDF、Word
 * 和文本文件); '' when it reads neither images nor files.
 */
function readsInWords(model: ModelListItem, t: TFunction, language: string): string {
  const { isImage, fileTypes } = model.modelMap;
  const images = isImage || fileTypes.some(isImageExtension) ? t('chat.model.images') : '';
  const files = fileKindsInWords(
    fileTypes.filter((extension) => !isImageExtension(extension)),
    t,
    language,
  );
  return [images, files].filter(Boolean).join(' · ');
}

/**
 * What a message with the model costs: a short label for the item, and the sentence the composer's
 * cost tooltip says (points.cost.*) for hover and screen readers. Auto costs what the model it picks
 * costs: the range over the models the user's plan reaches.
 */
function costInWords(model: ModelListItem, models: readonly ModelListItem[], t: TFunction): { label: string; detail: string } {
  const picks = model.aiModelId === AUTO_MODEL_ID ? models.filter((m) => m.aiModelId !== AUTO_MODEL_ID && !m.locked) : [];
  if (picks.length > 0) {
    const costs = picks.map((m) => m.pointsCost);
    const [min, max] = [Math.min(...costs), Math.max(...costs)];
    const byTokens = picks.some((m) => !!m.tokenPrice);
    if (min !== max) {
      return {
        label: t(byTokens ? 'chat.model.costRangeTokens' : 'chat.model.costRange', { min, max }),
        detail: t(byTokens ? 'points.cost.tooltipRangeTokens' : 'points.cost.tooltipRange', { min, max }),
      };
    }
    if (byTokens) return { label: t('chat.model.costTokens', { count: min }), detail: t('points.cost.tooltipSameTokens', { count: min }) };
    return flatCost(min, t);
  }
  const price = model.tokenPrice;
  if (price) {
    return {
      label: t('chat.model.costTokens', { count: model.pointsCost }),
      detail: t('points.cost.tooltipTokens', { hold: model.pointsCost, input: price.inputPer1k, output: price.outputPer1k }),
    };
  }
  return flatCost(model.pointsCost, t);
}

function flatCost(count: number, t: TFunction): { label: string; detail: string } {
  if (count === 0) return { label: t('points.cost.free'), detail: t('points.cost.tooltipFree') };
  return { label: t('chat.model.cost', { count }), detail: t('points.cost.tooltip', { count }) };
}

/** One fact of the facts line: a small icon and its words (the icon alone says nothing to anyone). */
function Fact({ icon, children, title, testId }: { icon: ReactNode; children: ReactNode; title?: string; testId: string }) {
  return (
    <Text component="span" size="xs" c="dimmed" title={title} data-testid={testId} className="model-fact">
      {icon}
      <span>{children}</span>
    </Text>
  );
}

/** The item's last line: what it reads, web search, its plan (or the plan that unlocks it), then its cost. */
function ModelFacts({ model, models }: { model: ModelListItem; models: readonly ModelListItem[] }) {
  const { t, i18n } = useTranslation();
  const reads = readsInWords(model, t, i18n.language);
  const cost = costInWords(model, models, t);
  const plan = model.minVipLevel > 0 ? planName(model.minVipLevel, model.minVipLevelName, t) : '';
  const readsIcon = model.modelMap.isImage ? <IconPhoto size={12} /> : <IconFileText size={12} />;
  return (
    <span className="model-facts">
      {reads && (
        <Fact icon={readsIcon} testId="model-reads">
          {reads}
        </Fact>
      )}
      {model.webSearch && (
        <Fact icon={<IconGlobe size={12} />} testId="model-web-search">
          {t('chat.model.webSearch')}
        </Fact>
      )}
      {plan && (
        <Fact icon={<IconCrown size={12} color={planColor(model.minVipLevel)} />} testId="model-plan">
          {model.locked ? t('chat.model.lockedHint', { plan }) : plan}
        </Fact>
      )}
      <Fact icon={<IconCoin size={12} />} title={cost.detail} testId="model-cost">
        <span aria-hidden="true">{cost.label}</span>
        <VisuallyHidden>{cost.detail}</VisuallyHidden>
      </Fact>
    </span>
  );
}

/** One model of the menu: its name, the operator's line about it (two lines at most), and its facts. */
function ModelItem({ model, models, selected, onPick, pickable }: { model: ModelListItem; models: readonly ModelListItem[]; selected: boolean; onPick: () => void; pickable: boolean }) {
  const { t } = useTranslation();
  const name = modelName(model, t);
  const description = modelDescription(model, t);
  return (
    <Menu.Item
      disabled={!pickable}
      onClick={onPick}
      data-locked={model.locked || undefined}
      data-model-id={model.aiModelId}
      rightSection={model.locked ? <IconLock size={14} /> : selected ? <IconCheck size={14} /> : undefined}
      aria-current={selected ? 'true' : undefined}
      className="model-item"
    >
      <Text component="span" size="sm" fw={selected ? 600 : 500} c={model.locked ? 'dimmed' : undefined} truncate="end" title={name} className="model-item-name">
        {name}
      </Text>
      {description && (
        <Text component="span" size="xs" c="dimmed" lineClamp={2} title={description} className="model-item-description" data-testid="model-description">
          {description}
        </Text>
      )}
      <ModelFacts model={model} models={models} />
    </Menu.Item>
  );
}

export interface ModelMenuItemsProps {
  models: readonly ModelListItem[];
  selected: ModelListItem | undefined;
  onSelect: (model: ModelListItem) => void;
  /** A locked model was picked (the upgrade prompt); without it, locked models cannot be picked. */
  onLockedSelect?: (model: ModelListItem) => void;
}

/**
 * The model picker's menu (model-picker.tsx): models open to everyone first, then the rest under
 * their plan level, ascending. Shown only once the menu is open: a chunk of its own, fetched when the
 * picker first shows.
 */
export function ModelMenuItems({ models, selected, onSelect, onLockedSelect }: ModelMenuItemsProps) {
  const { t } = useTranslation();
  const { ungrouped, groups } = groupModelsByLevel(models);
  const item = (model: ModelListItem) => (
    <ModelItem
      key={model.aiModelId}
      model={model}
      models={models}
      selected={model.aiModelId === selected?.aiModelId}
      pickable={!model.locked || !!onLockedSelect}
      onPick={() => (model.locked ? onLockedSelect?.(model) : onSelect(model))}
    />
  );
  return (
    <>
      {ungrouped.map(item)}
      {groups.map((group) => [
        <Menu.Label key={`label-${group.level}`}>{planName(group.level, group.levelName, t)}</Menu.Label>,
        ...group.models.map(item),
      ])}
    </>
  );
}
