import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSortableItem } from '../../components/ui/sortable.tsx';

/** A catalogue row the operator drags into order (inside a SortableList of the same ids): its handle, then its cells. */
export function SortableRow({ id, handleLabel, disabled, children }: { id: string; handleLabel: string; disabled?: boolean; children: ReactNode }) {
  const { ref, style, handle } = useSortableItem(id, handleLabel, disabled);
  return (
    <Table.Tr ref={ref} style={style}>
      <Table.Td w={36}>{handle}</Table.Td>
      {children}
    </Table.Tr>
  );
}
