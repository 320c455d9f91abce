import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconGrip } from '../ui/icons.tsx';

export interface SortableRowsProps {
  ids: string[];
  /** The item `id` was dropped at position `to`. */
  onMove: (id: string, to: number) => void;
  children: ReactNode;
}

/**
 * Table rows the operator drags into order (pointer, or the keyboard: space, arrows, space). The
 * rows are SortableRow elements with the same ids.
 */
export function SortableRows({ ids, onMove, children }: SortableRowsProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onMove(String(active.id), ids.indexOf(String(over.id)));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

export function SortableRow({ id, handleLabel, disabled, children }: { id: string; handleLabel: string; disabled?: boolean; children: ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled });
  return (
    <Table.Tr ref={setNodeRef} style={{ transform: CSS.Translate.toString(transform), transition, opacity: isDragging ? 0.6 : undefined }}>
      <Table.Td w={36}>
        <ActionIcon ref={setActivatorNodeRef} variant="subtle" color="gray" aria-label={handleLabel} disabled={disabled} {...attributes} {...listeners} style={{ cursor: 'grab' }}>
          <IconGrip size={16} />
        </ActionIcon>
      </Table.Td>
      {children}
    </Table.Tr>
  );
}
