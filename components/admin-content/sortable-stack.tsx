import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconGrip } from '../ui/icons.tsx';

/**
 * Items the operator drags into order (pointer, or the keyboard: space, arrows, space) among
 * their siblings; `onMove` gets the item and the position it was dropped at.
 */
export function SortableStack({ ids, onMove, children }: { ids: string[]; onMove: (id: string, to: number) => void; children: ReactNode }) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(String(active.id), ids.indexOf(String(over.id)));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

/** One draggable item: its handle, then `row`, then what hangs under it (`children`, e.g. a group's items). */
export function SortableItem({ id, handleLabel, disabled, row, children }: { id: string; handleLabel: string; disabled?: boolean; row: ReactNode; children?: ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled });
  return (
    <div ref={setNodeRef} style={{ transform: CSS.Translate.toString(transform), transition, opacity: isDragging ? 0.6 : undefined }}>
      <Group gap="xs" wrap="nowrap" align="center">
        <ActionIcon ref={setActivatorNodeRef} variant="subtle" color="gray" aria-label={handleLabel} disabled={disabled} {...attributes} {...listeners} style={{ cursor: 'grab' }}>
          <IconGrip size={16} />
        </ActionIcon>
        {row}
      </Group>
      {children}
    </div>
  );
}
