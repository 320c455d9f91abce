import { Alert, Button, Group, Stack, type ModalProps } from '@mantine/core';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { Fragment, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { errorMessage } from '../../components/ui/error-message.ts';
import { IconPlus } from '../../components/ui/icons.tsx';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';
import { Modal } from '../../components/ui/overlays.tsx';

/** What a row's buttons do: open it in the form, or ask to delete it. */
export interface ResourceActions<Row> {
  edit: (row: Row) => void;
  askDelete: (row: Row) => void;
}

/** What the family's form is given: the row edited (null for a new one) and how to save or leave. */
export interface ResourceFormSlot<Row, Body> {
  existing: Row | null;
  saving: boolean;
  onSave: (body: Body) => void;
  onCancel: () => void;
}

export interface ResourceTableProps<Row, Body, Saved = unknown> {
  /** The list's query, whose failure shows above the table. */
  list: { isError: boolean; error: unknown };
  /** Refetched after every change. */
  queryKey: QueryKey;
  /** The table itself (columns, paging), with the row actions to put in its actions column. */
  table: (actions: ResourceActions<Row>) => ReactNode;
  /** Filters shown left of the "new" button. */
  filters?: ReactNode;
  /** A page's title, shown left of the buttons (instead of filters). */
  heading?: ReactNode;
  /** More buttons, shown before the "new" button. */
  toolbar?: ReactNode;
  /** What shows between the buttons and the list's failure: a hint, a loader. */
  intro?: ReactNode;
  /** The list's failure's title, if it has one. */
  listErrorTitle?: string;
  newLabel: string;
  /** The "new" button waits (e.g. for what the new row belongs to). */
  newDisabled?: boolean;
  /** The form's title for a new row; `newLabel` when absent. */
  newTitle?: string;
  /** The form's title for an existing row; absent for a family that is created, never edited. */
  editTitle?: string | ((row: Row) => string);
  modalSize?: ModalProps['size'];
  /** A key per row, so the form starts afresh for each row opened. */
  formKey?: (row: Row) => string;
  form: (slot: ResourceFormSlot<Row, Body>) => ReactNode;
  save: (body: Body) => Promise<Saved>;
  /** The toast after a save, from what the server saved when it names it. */
  savedText: string | ((saved: Saved) => string);
  /** Deleting, after a confirmation; absent when the family is not deleted from the list. */
  remove?: {
    call: (row: Row) => Promise<unknown>;
    title: string;
    message: (row: Row | null) => string;
    confirmLabel: string;
    cancelLabel: string;
    /** The toast after a delete; none when absent. */
    deletedText?: (row: Row) => string;
  };
}

/**
 * The console's resource table and form: a family of records listed in a table, added and edited
 * in a form (checked against its contract), deleted after a confirmation. A family brings its
 * columns, its form and its calls; the list's failure, the dialogs, the success toast, the failure
 * toast (onMutationError) and the refetch after a change are the same everywhere.
 */
export function ResourceTable<Row, Body, Saved = unknown>(props: ResourceTableProps<Row, Body, Saved>) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: props.queryKey });
  const save = useMutation({
    mutationFn: props.save,
    onSuccess: async (saved) => {
      setEditing(null);
      notifySuccess(typeof props.savedText === 'function' ? props.savedText(saved) : props.savedText);
      await refresh();
    },
    onError: onMutationError(),
  });
  const remove = useMutation({
    mutationFn: (row: Row) => props.remove!.call(row),
    onSuccess: async (_data, row) => {
      setDeleting(null);
      if (props.remove?.deletedText) notifySuccess(props.remove.deletedText(row));
      await refresh();
    },
    onError: onMutationError(),
  });
  const existing = editing === 'new' ? null : editing;
  return (
    <Stack>
      <ResourceHeader {...props} onNew={() => setEditing('new')} />
      {props.intro}
      {props.list.isError && (
        <Alert color="red" title={props.listErrorTitle}>
          {errorMessage(props.list.error)}
        </Alert>
      )}
      {props.table({ edit: setEditing, askDelete: setDeleting })}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={formTitle(props, existing)} size={props.modalSize ?? 'lg'}>
        {editing !== null && (
          <Fragment key={existing !== null && props.formKey ? props.formKey(existing) : 'new'}>
            {props.form({ existing, saving: save.isPending, onSave: save.mutate, onCancel: () => setEditing(null) })}
          </Fragment>
        )}
      </Modal>
      {props.remove && (
        <ConfirmDialog
          opened={deleting !== null}
          title={props.remove.title}
          message={props.remove.message(deleting)}
          confirmLabel={props.remove.confirmLabel}
          cancelLabel={props.remove.cancelLabel}
          danger
          loading={remove.isPending}
          onConfirm={() => deleting !== null && remove.mutate(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </Stack>
  );
}


function formTitle<Row>(props: Pick<ResourceTableProps<Row, never, never>, 'newLabel' | 'newTitle' | 'editTitle'>, existing: Row | null) {
  if (existing === null) return props.newTitle ?? props.newLabel;
  return typeof props.editTitle === 'function' ? props.editTitle(existing) : (props.editTitle ?? props.newLabel);
}

type HeaderProps = Pick<ResourceTableProps<unknown, never, never>, 'filters' | 'heading' | 'toolbar' | 'newLabel' | 'newDisabled'> & { onNew: () => void };

/** The row above the list: the filters or the page's title on the left, the buttons on the right. */
function ResourceHeader({ filters, heading, toolbar, newLabel, newDisabled, onNew }: HeaderProps) {
  const add = (
    <Button leftSection={<IconPlus size={16} />} onClick={onNew} disabled={newDisabled}>
      {newLabel}
    </Button>
  );
  const left = filters ?? heading;
  return (
    <Group justify={left ? 'space-between' : 'flex-end'} align={filters ? 'flex-end' : undefined}>
      {left}
      {toolbar ? (
        <Group>
          {toolbar}
          {add}
        </Group>
      ) : (
        add
      )}
    </Group>
  );
}
