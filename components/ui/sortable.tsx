import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconGrip } from './icons.tsx';

/**
 * Items the operator drags into order (pointer, or the keyboard: space, arrows, space). The items
 * are elements that call `useSortableItem` with the same ids; `onMove` gets the item and the
 * position it was dropped at.
 */
export function SortableList({ ids, onMove, instructions, children }: { ids: string[]; onMove: (id: string, to: number) => void; instructions: string; children: ReactNode }) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(String(active.id), ids.indexOf(String(over.id)));
  };
  return (
    // `instructions`: what a screen reader says of the drag handles, in the reader's language.
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ screenReaderInstructions: { draggable: instructions } }}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

/** One item of a SortableList: the ref and style its element takes, and its drag handle (named `handleLabel`). */
export function useSortableItem(id: string, handleLabel: string, disabled?: boolean) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled });
  return {
    ref: setNodeRef,
    style: { transform: CSS.Translate.toString(transform), transition, opacity: isDragging ? 0.6 : undefined },
    handle: (
      <ActionIcon ref={setActivatorNodeRef} variant="subtle" color="gray" aria-label={handleLabel} disabled={disabled} {...attributes} {...listeners} style={{ cursor: 'grab' }}>
        <IconGrip size={16} />
      </ActionIcon>
    ),
  };
}

/** `ids` with the item at `from` moved to `to` (clamped), or null when nothing moves. */
export function moveId(ids: readonly string[], from: number, to: number): string[] | null {
  const target = Math.max(0, Math.min(ids.length - 1, to));
  if (from < 0 || from >= ids.length || from === target) return null;
  const moved = [...ids];
  const [id] = moved.splice(from, 1);
  moved.splice(target, 0, id!);
  return moved;
}
