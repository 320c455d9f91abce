import { Button, Paper, Stack, Text } from '@mantine/core';
import { useSetAtom } from 'jotai';
import { openLoginDialogAtom } from '../../shared/atoms/login-dialog.ts';

export interface SignInPromptProps {
  /** What signing in gives on this page. */
  message: string;
  /** The button's label. */
  signInLabel: string;
  /** The i18n key the login dialog shows above its frame (why it opened). */
  notice: string;
}

/**
 * A visitor's way in on a page that needs a login (the invite page, the plan pages): what signing in
 * gives there, and a button that opens the login dialog. Here and not in components/ui because it
 * opens the dialog through its atom.
 */
export function SignInPrompt({ message, signInLabel, notice }: SignInPromptProps) {
  const openLogin = useSetAtom(openLoginDialogAtom);
  return (
    <Paper withBorder p="lg" radius={6}>
      <Stack align="center" gap="sm">
        <Text ta="center">{message}</Text>
        <Button onClick={() => openLogin(notice)}>{signInLabel}</Button>
      </Stack>
    </Paper>
  );
}
