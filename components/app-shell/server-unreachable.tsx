import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useStore } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerUnreachableError } from '../../shared/api/request.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { DEFAULT_SERVER_URL, serverUrlPersisted } from '../../shared/platform/server-url.ts';
import { writePersisted } from '../../shared/storage/active.ts';
import { signOut } from './account.ts';
import { usePlatform } from './platform-context.tsx';
import strings from '../../locales/features/server-unreachable.en.json';

addEnglishStrings(strings);

/** An http(s) address as an origin, or null. */
function serverOrigin(input: string): string | null {
  try {
    const url = new URL(input.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * What a screen shows when the server could not be reached (a first run against a server that is
 * down or mistyped): which address failed, Try again, and in the extension the server address
 * field of the settings, right here (the same stored setting).
 */
export function ServerUnreachable({ error }: { error: ServerUnreachableError }) {
  const { t } = useTranslation();
  const { isExtension } = usePlatform();
  const queryClient = useQueryClient();
  const store = useStore();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(error.address);
  const [invalid, setInvalid] = useState(false);

  const connect = async () => {
    const origin = serverOrigin(value);
    if (!origin) return setInvalid(true);
    // A token belongs to the server that issued it (as the settings do when the server changes).
    await signOut(store);
    await writePersisted(serverUrlPersisted, origin === DEFAULT_SERVER_URL ? null : origin);
    setEditing(false);
    await queryClient.invalidateQueries();
  };

  return (
    <Alert color="red" variant="light" p={10} mb={8} title={t('request.unreachableTitle')} data-testid="server-unreachable">
      <Stack gap={8}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('request.serverUnreachable', { address: error.address })}
        </Text>
        {editing ? (
          <Group gap={6} align="flex-start" wrap="nowrap">
            <TextInput
              size="xs"
              style={{ flex: 1, minWidth: 0 }}
              aria-label={t('request.serverAddress')}
              value={value}
              error={invalid ? t('request.serverInvalid') : undefined}
              onChange={(event) => {
                setValue(event.currentTarget.value);
                setInvalid(false);
              }}
              onKeyDown={(event) => event.key === 'Enter' && void connect()}
            />
            <Button size="xs" onClick={() => void connect()}>
              {t('request.connect')}
            </Button>
          </Group>
        ) : (
          <Group gap={6}>
            <Button size="xs" variant="light" color="red" onClick={() => void queryClient.invalidateQueries()}>
              {t('request.retry')}
            </Button>
            {isExtension && (
              <Button size="xs" variant="default" onClick={() => setEditing(true)}>
                {t('request.changeServer')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
