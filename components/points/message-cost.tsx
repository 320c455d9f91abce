import { Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { AUTO_MODEL_ID, type ModelListItem, type TokenPrice } from '../../shared/contracts/model.ts';
import { IconCoin } from '../ui/icons.tsx';

/**
 * What the next message costs with `model`: its pointsCost; for 'auto', the range over the models
 * auto may pick (those the user's plan reaches). Null without a model.
 */
export function messageCost(model: ModelListItem | undefined, models: readonly ModelListItem[]): { min: number; max: number; byTokens: boolean } | null {
  if (!model) return null;
  const one = { min: model.pointsCost, max: model.pointsCost, byTokens: !!model.tokenPrice };
  if (model.aiModelId !== AUTO_MODEL_ID) return one;
  const picks = models.filter((m) => m.aiModelId !== AUTO_MODEL_ID && !m.locked);
  if (picks.length === 0) return one;
  const costs = picks.map((m) => m.pointsCost);
  // A token-priced pick may cost more than its hold: the range's top is then a floor.
  return { min: Math.min(...costs), max: Math.max(...costs), byTokens: picks.some((m) => !!m.tokenPrice) };
}

/**
 * The coin's number and its tooltip. A coin and the number fit the side panel's narrow composer; the
 * tooltip says it in words. A token-priced model shows its hold with a "+": the answer's length
 * decides the rest (and for Auto, a token-priced pick makes the range's top a floor).
 */
function costText(t: TFunction, cost: { min: number; max: number; byTokens: boolean }, price: TokenPrice | null): { label: string; tooltip: string } {
  if (price) return { label: `${cost.min}+`, tooltip: t('points.cost.tooltipTokens', { hold: cost.min, input: price.inputPer1k, output: price.outputPer1k }) };
  const more = cost.byTokens ? '+' : '';
  if (cost.min !== cost.max) {
    const tooltip = t(cost.byTokens ? 'points.cost.tooltipRangeTokens' : 'points.cost.tooltipRange', { min: cost.min, max: cost.max });
    return { label: `${cost.min}\u2013${cost.max}${more}`, tooltip };
  }
  // Auto, every pick costing the same, one of them priced by tokens.
  if (cost.byTokens) return { label: `${cost.min}${more}`, tooltip: t('points.cost.tooltipSameTokens', { count: cost.min }) };
  if (cost.min === 0) return { label: t('points.cost.free'), tooltip: t('points.cost.tooltipFree') };
  return { label: String(cost.min), tooltip: t('points.cost.tooltip', { count: cost.min }) };
}

export interface MessageCostProps {
  model: ModelListItem | undefined;
  models: readonly ModelListItem[];
}

/** Beside the send button, small and muted: a coin and the points the next message costs, explained on hover. */
export function MessageCost({ model, models }: MessageCostProps) {
  const { t } = useTranslation();
  const cost = messageCost(model, models);
  if (!cost) return null;
  const { label, tooltip } = costText(t, cost, model?.tokenPrice ?? null);
  return (
    <Tooltip label={tooltip} withArrow multiline maw={260}>
      <Text
        component="span"
        size="xs"
        c="dimmed"
        tabIndex={0}
        aria-label={tooltip}
        data-testid="message-cost"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 3, whiteSpace: 'nowrap', flexShrink: 0 }}
      >
        <IconCoin size={13} />
        {label}
      </Text>
    </Tooltip>
  );
}
