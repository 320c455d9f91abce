import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import './strings.ts';

/** While a page's chunk arrives. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <Center py="xl" role="status" aria-label={t('adminShell.pageLoading')}>
      <Loader size="sm" />
    </Center>
  );
}

/** An address under /admin that is no page of the console. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" maw={520}>
      <Title order={2}>{t('adminShell.notFoundTitle')}</Title>
      <Text>{t('adminShell.notFoundText')}</Text>
      <Group>
        <Button component={Link} href="/admin">
          {t('adminShell.toDashboard')}
        </Button>
      </Group>
    </Stack>
  );
}

function PageFailed({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" title={t('adminShell.pageFailed', { message })}>
      <Button mt="sm" size="xs" variant="default" onClick={() => window.location.reload()}>
        {t('adminShell.reload')}
      </Button>
    </Alert>
  );
}

/**
 * A page that failed to load (its chunk did not arrive after a deploy) or threw while rendering says
 * so in place, leaving the menu usable; the entry keys it by address, so another page starts afresh.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('admin page failed', error, info.componentStack);
  }

  override render() {
    return this.state.error ? <PageFailed message={this.state.error.message} /> : this.props.children;
  }
}
