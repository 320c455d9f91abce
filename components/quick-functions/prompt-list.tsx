import { ActionIcon, Badge, Group, Menu, Paper, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { memo, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PromptSubmission } from '../../shared/contracts/prompt-library.ts';
import type { UserQuickFunction } from '../../shared/contracts/quick-function.ts';
import { IconArrowDown, IconArrowUp, IconDots, IconFolder, IconGrip, IconPin } from '../ui/icons.tsx';
import type { PromptRow } from './prompt-order.ts';
import { SubmissionReason, SubmissionState } from './share-prompt.tsx';

/** What a row can do to its item. */
export interface PromptRowActions {
  onEdit: (item: UserQuickFunction) => void;
  onDelete: (item: UserQuickFunction) => void;
  onOnline: (item: UserQuickFunction, online: boolean) => void;
  onPin: (item: UserQuickFunction, pinned: boolean) => void;
  /** Moves the item to position `to` among its siblings. */
  onMove: (item: UserQuickFunction, to: number) => void;
  onGroup: (item: UserQuickFunction, parentId: string | null) => void;
  /** Shares the item to the community library (or shares it again); absent: no sharing. */
  onShare?: (item: UserQuickFunction) => void;
  /** Takes the item's shared copy back out of the library. */
  onWithdraw?: (item: UserQuickFunction, submission: PromptSubmission) => void;
}

export interface PromptListProps extends PromptRowActions {
  rows: readonly PromptRow[];
  groups: readonly UserQuickFunction[];
  /** Reordering is off while the list is filtered (the neighbours on screen are not the real ones). */
  sortable: boolean;
  /** The library state of each own prompt that was shared, by its id. */
  submissions?: ReadonlyMap<string, PromptSubmission>;
}

/**
 * The user's prompts: each with its show/hide switch, pin to the toolbar, up and down (or drag among
 * its siblings), and a menu to edit, move to a group, or delete. A group's prompts are indented under it.
 */
export function PromptList({ rows, groups, sortable, submissions, ...actions }: PromptListProps) {
  const [dragged, setDragged] = useState<PromptRow | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const sameParent = (row: PromptRow) => !!dragged && dragged.siblings === row.siblings;

  const drag = (row: PromptRow) => ({
    onDragStart: (event: DragEvent) => {
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('text/plain', row.item.userQuickFunctionId);
      setDragged(row);
    },
    onDragEnd: () => {
      setDragged(null);
      setOver(null);
    },
    onDragOver: (event: DragEvent) => {
      if (!sameParent(row)) return;
      event.preventDefault();
      setOver(row.item.userQuickFunctionId);
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      if (dragged && sameParent(row)) actions.onMove(dragged.item, row.siblings.indexOf(row.item.userQuickFunctionId));
      setDragged(null);
      setOver(null);
    },
  });

  return (
    <Stack gap={6} data-testid="prompt-list">
      {rows.map((row) => (
        <PromptRowItem
          key={row.item.userQuickFunctionId}
          row={row}
          groups={groups}
          sortable={sortable}
          submission={submissions?.get(row.item.userQuickFunctionId)}
          dropTarget={over === row.item.userQuickFunctionId}
          drag={sortable ? drag(row) : undefined}
          {...actions}
        />
      ))}
    </Stack>
  );
}

const PromptRowItem = memo(function PromptRowItem({
  row,
  groups,
  sortable,
  submission,
  dropTarget,
  drag,
  ...actions
}: PromptRowActions & {
  row: PromptRow;
  groups: readonly UserQuickFunction[];
  sortable: boolean;
  submission: PromptSubmission | undefined;
  dropTarget: boolean;
  drag?: Record<string, (event: DragEvent) => void>;
}) {
  const { t } = useTranslation();
  const { item, depth, siblings } = row;
  const index = siblings.indexOf(item.userQuickFunctionId);
  return (
    <Paper
      withBorder
      radius={6}
      p="xs"
      ml={depth ? 'lg' : 0}
      data-testid="prompt-row"
      data-id={item.userQuickFunctionId}
      draggable={sortable}
      {...drag}
      style={{ opacity: item.online ? 1 : 0.65, borderColor: dropTarget ? 'var(--mantine-color-indigo-5)' : undefined }}
    >
      {/* On a narrow screen the controls go under the text rather than squeezing it. */}
      <Group gap="xs" wrap="wrap" align="flex-start">
        {sortable && (
          <span style={{ cursor: 'grab', color: 'var(--mantine-color-gray-5)', paddingTop: 2 }} title={t('quickFunctions.dragHandle', { name: item.name })}>
            <IconGrip size={16} />
          </span>
        )}
        <span aria-hidden="true" style={{ fontSize: 18, lineHeight: '22px' }}>
          {item.isGroup ? <IconFolder size={18} /> : item.icon && !/^[\x20-\x7e]+$/.test(item.icon) ? item.icon : '⚡'}
        </span>
        <Stack gap={2} style={{ flex: '1 1 180px', minWidth: 0 }}>
          <Group gap={6} wrap="wrap">
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {item.name}
            </Text>
            {item.isGroup && <Badge size="xs" variant="light" color="gray">{t('quickFunctions.group')}</Badge>}
            {!item.online && <Badge size="xs" variant="outline" color="gray">{t('quickFunctions.hidden')}</Badge>}
            {item.pinned && <Badge size="xs" variant="light">{t('quickFunctions.pinned')}</Badge>}
            {submission && <SubmissionState item={item} submission={submission} />}
          </Group>
          {submission && <SubmissionReason submission={submission} />}
          {item.description && (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {item.description}
            </Text>
          )}
          {!item.isGroup && (
            <Group gap={4}>
              {item.appliesTo.map((a) => (
                <Badge key={a} size="xs" variant="dot" color="indigo" tt="none">
                  {t(`quickFunctions.appliesTo.${a}`)}
                </Badge>
              ))}
              <Badge size="xs" variant="dot" color="gray" tt="none">
                {t(`quickFunctions.category.${item.category}`)}
              </Badge>
            </Group>
          )}
        </Stack>
        <RowControls item={item} index={index} count={siblings.length} sortable={sortable} groups={groups} submission={submission} {...actions} />
      </Group>
    </Paper>
  );
});

function RowControls({
  item,
  index,
  count,
  sortable,
  groups,
  onEdit,
  onDelete,
  onOnline,
  onPin,
  onMove,
  onGroup,
  onShare,
  onWithdraw,
  submission,
}: PromptRowActions & { item: UserQuickFunction; index: number; count: number; sortable: boolean; groups: readonly UserQuickFunction[]; submission: PromptSubmission | undefined }) {
  const { t } = useTranslation();
  const name = item.name;
  return (
    <Group gap={2} wrap="nowrap" ml="auto" style={{ flexShrink: 0 }}>
      <Tooltip label={t('quickFunctions.show')} withArrow>
        <Switch size="xs" mr={4} aria-label={`${t('quickFunctions.show')}: ${name}`} checked={item.online} onChange={(e) => onOnline(item, e.currentTarget.checked)} />
      </Tooltip>
      {!item.isGroup && (
        <Tooltip label={item.pinned ? t('quickFunctions.unpin') : t('quickFunctions.pin')} withArrow>
          <ActionIcon
            variant={item.pinned ? 'light' : 'subtle'}
            color={item.pinned ? 'indigo' : 'gray'}
            aria-label={`${item.pinned ? t('quickFunctions.unpin') : t('quickFunctions.pin')}: ${name}`}
            aria-pressed={item.pinned}
            onClick={() => onPin(item, !item.pinned)}
          >
            <IconPin size={16} />
          </ActionIcon>
        </Tooltip>
      )}
      {sortable && (
        <>
          <ActionIcon variant="subtle" color="gray" aria-label={t('quickFunctions.moveUp', { name })} disabled={index <= 0} onClick={() => onMove(item, index - 1)}>
            <IconArrowUp size={16} />
          </ActionIcon>
          <ActionIcon variant="subtle" color="gray" aria-label={t('quickFunctions.moveDown', { name })} disabled={index >= count - 1} onClick={() => onMove(item, index + 1)}>
            <IconArrowDown size={16} />
          </ActionIcon>
        </>
      )}
      {/* hideDetached off: a row scrolled partly out of a short viewport (the side panel) keeps its menu. */}
      <Menu position="bottom-end" withinPortal hideDetached={false}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={t('quickFunctions.moreActions', { name })}>
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => onEdit(item)}>{t('quickFunctions.edit')}</Menu.Item>
          {!item.isGroup && onShare && (
            <Menu.Item onClick={() => onShare(item)}>{submission ? t('quickFunctions.share.again') : t('quickFunctions.share.action')}</Menu.Item>
          )}
          {submission && onWithdraw && <Menu.Item onClick={() => onWithdraw(item, submission)}>{t('quickFunctions.share.withdraw')}</Menu.Item>}
          {!item.isGroup && groups.length > 0 && (
            <>
              <Menu.Label>{t('quickFunctions.moveTo')}</Menu.Label>
              <Menu.Item disabled={!item.parentId} onClick={() => onGroup(item, null)}>
                {t('quickFunctions.noGroup')}
              </Menu.Item>
              {groups.map((g) => (
                <Menu.Item key={g.userQuickFunctionId} disabled={item.parentId === g.userQuickFunctionId} leftSection={<IconFolder size={14} />} onClick={() => onGroup(item, g.userQuickFunctionId)}>
                  {g.name}
                </Menu.Item>
              ))}
              <Menu.Divider />
            </>
          )}
          <Menu.Item color="red" onClick={() => onDelete(item)}>
            {t('quickFunctions.delete')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
