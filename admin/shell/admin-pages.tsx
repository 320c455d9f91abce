import { Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
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
