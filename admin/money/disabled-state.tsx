import { Badge, Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import './strings.ts';

/** A record's status in the money tables: enabled or disabled. */
export function DisabledBadge({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={disabled ? 'gray' : 'teal'}>
      {disabled ? t('adminMoney.disabled') : t('adminMoney.enabled')}
    </Badge>
  );
}

/** The row action that turns a record off, or back on. */
export function DisableButton({ disabled, busy, onClick }: { disabled: boolean; busy: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button size="compact-xs" variant="subtle" color={disabled ? 'teal' : 'red'} disabled={busy} onClick={onClick}>
      {disabled ? t('adminMoney.enable') : t('adminMoney.disable')}
    </Button>
  );
}
