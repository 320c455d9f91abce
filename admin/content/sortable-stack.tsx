import { Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSortableItem } from '../../components/ui/sortable.tsx';

/** One draggable item (inside a SortableList of its siblings): its handle, then `row`, then what hangs under it (`children`, e.g. a group's items). */
export function SortableItem({ id, handleLabel, disabled, row, children }: { id: string; handleLabel: string; disabled?: boolean; row: ReactNode; children?: ReactNode }) {
  const { ref, style, handle } = useSortableItem(id, handleLabel, disabled);
  return (
    <div ref={ref} style={style}>
      <Group gap="xs" wrap="nowrap" align="center">
        {handle}
        {row}
      </Group>
      {children}
    </div>
  );
}
