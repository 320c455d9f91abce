import { Button, Group, Stack } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { z } from 'zod';
import { fieldErrors } from '../../components/ui/form-errors.ts';

/**
 * A console form checked against its contract before it is sent: `build` turns what was typed into
 * the body, `schema` (the zod schema the server applies, from shared/contracts) checks it, and a
 * body that passes goes to `onSave` as built (or, with `sendParsed`, as the schema parsed it: trimmed
 * and with its defaults). The problems are keyed by field ('_' for the whole form), for
 * `fieldMessages` to word.
 */
export function useSchemaSubmit<Body>(schema: z.ZodType, build: () => Body, onSave: (body: Body) => void, { sendParsed = false } = {}) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = build();
    const parsed = schema.safeParse(body);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    onSave(sendParsed ? (parsed.data as Body) : body);
  };
  return { errors, submit };
}

export interface ResourceFormProps {
  onSubmit: (event: FormEvent) => void;
  saving: boolean;
  onCancel: () => void;
  cancelLabel: string;
  saveLabel: string;
  /** The form's accessible name, when the page has more than one form. */
  label?: string;
  /** Buttons of the form's own, on the left of Cancel and Save. */
  actions?: ReactNode;
  /** What stands below the buttons. */
  footer?: ReactNode;
  children: ReactNode;
}

/**
 * The console's edit form: its fields, then Cancel and Save (Save shows the request under way), after
 * the form's own `actions` if it has any.
 */
export function ResourceForm({ onSubmit, saving, onCancel, cancelLabel, saveLabel, label, actions, footer, children }: ResourceFormProps) {
  const buttons = (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} disabled={saving}>
        {cancelLabel}
      </Button>
      <Button type="submit" loading={saving}>
        {saveLabel}
      </Button>
    </Group>
  );
  return (
    <form onSubmit={onSubmit} noValidate aria-label={label}>
      <Stack gap="sm">
        {children}
        {actions ? (
          <Group justify="space-between">
            {actions}
            {buttons}
          </Group>
        ) : (
          buttons
        )}
        {footer}
      </Stack>
    </form>
  );
}
