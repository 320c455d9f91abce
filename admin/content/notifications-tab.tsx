import { Alert, Button, Fieldset, Group, SegmentedControl, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { broadcastNotification } from './api.ts';
import { BroadcastSchema, type Broadcast } from '../../shared/contracts/notifications.ts';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { fieldErrors, fieldMessages } from '../../components/ui/form-errors.ts';
import { notifySuccess, onMutationError } from '../../components/ui/notify.ts';
import './strings.ts';

type Audience = Broadcast['audience'];
const PROBLEMS = new Set(['broadcastLevelRequired', 'broadcastUserRequired', 'notificationLinkInvalid', 'broadcastTranslationIncomplete']);

/**
 * A notification to all users, to one plan level, or to one user. One request id per message
 * written: pressing Send again after a lost answer adds nothing twice. The title and message are the
 * default text; a Chinese title and message, when written, are what users of the app in Chinese see.
 */
export function NotificationsTab() {
  const { t } = useTranslation();
  const [audience, setAudience] = useState<Audience>('all');
  const [level, setLevel] = useState('0');
  const [userId, setUserId] = useState('');
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [zhTitle, setZhTitle] = useState('');
  const [zhBody, setZhBody] = useState('');
  const [link, setLink] = useState('');
  const [requestId, setRequestId] = useState(() => crypto.randomUUID());
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<Broadcast | null>(null);
  const [sent, setSent] = useState<number | null>(null);
  const send = useMutation({
    mutationFn: broadcastNotification,
    onSuccess: (result) => {
      setConfirming(null);
      setSent(result.sent);
      notifySuccess(t('adminContent.notifications.sent', { count: result.sent }));
      // The next message is a new broadcast.
      setTitle('');
      setBody('');
      setZhTitle('');
      setZhBody('');
      setLink('');
      setRequestId(crypto.randomUUID());
    },
    onError: onMutationError(undefined, () => setConfirming(null)),
  });
  const err = fieldMessages(errors, PROBLEMS, (code) => t(`adminContent.problems.${code}`), () => t('adminContent.invalid'));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const message = {
      title,
      body,
      audience,
      requestId,
      ...(zhTitle.trim() || zhBody.trim() ? { translations: { zh: { title: zhTitle, body: zhBody } } } : {}),
      ...(link.trim() ? { link: link.trim() } : {}),
      ...(audience === 'level' ? { level: Number(level) } : {}),
      ...(audience === 'user' && userId.trim() ? { userId: userId.trim() } : {}),
    };
    const parsed = BroadcastSchema.safeParse(message);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setSent(null);
    setConfirming(parsed.data);
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('adminContent.tabs.notifications')}>
      <Stack maw={640}>
        <SegmentedControl
          value={audience}
          onChange={(a) => setAudience(a as Audience)}
          data={(['all', 'level', 'user'] as const).map((a) => ({ value: a, label: t(`adminContent.notifications.audiences.${a}`) }))}
        />
        {audience === 'level' && (
          <Select
            label={t('adminContent.notifications.level')}
            data={[0, 1, 2, 3].map((l) => ({ value: String(l), label: t(`adminContent.levels.${l}`) }))}
            value={level}
            onChange={(l) => setLevel(l ?? '0')}
            allowDeselect={false}
          />
        )}
        {audience === 'user' && <TextInput label={t('adminContent.notifications.userId')} value={userId} onChange={(e) => setUserId(e.currentTarget.value)} error={err('userId')} />}
        <TextInput
          label={t('adminContent.notifications.title')}
          description={t('adminContent.notifications.defaultTextHint')}
          required
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={err('title')}
        />
        <Textarea label={t('adminContent.notifications.body')} required autosize minRows={4} value={body} onChange={(e) => setBody(e.currentTarget.value)} error={err('body')} />
        <Fieldset legend={t('adminContent.notifications.zhLegend')}>
          <Stack gap="sm">
            <TextInput
              label={t('adminContent.notifications.zhTitle')}
              description={t('adminContent.notifications.zhHint')}
              lang="zh"
              value={zhTitle}
              onChange={(e) => setZhTitle(e.currentTarget.value)}
              error={err('translations.zh.title')}
            />
            <Textarea
              label={t('adminContent.notifications.zhBody')}
              lang="zh"
              autosize
              minRows={3}
              value={zhBody}
              onChange={(e) => setZhBody(e.currentTarget.value)}
              error={err('translations.zh.body')}
            />
          </Stack>
        </Fieldset>
        <TextInput label={t('adminContent.notifications.link')} description={t('adminContent.notifications.linkHint')} value={link} onChange={(e) => setLink(e.currentTarget.value)} error={err('link')} />
        {sent !== null && <Alert color="teal">{t('adminContent.notifications.sent', { count: sent })}</Alert>}
        <Group justify="flex-end">
          <Button type="submit" loading={send.isPending}>
            {t('adminContent.notifications.send')}
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirming !== null}
        title={t('adminContent.notifications.confirmTitle')}
        message={t(`adminContent.notifications.confirm.${audience}`, { level: t(`adminContent.levels.${level}`), userId: userId.trim() })}
        confirmLabel={t('adminContent.notifications.send')}
        cancelLabel={t('adminContent.cancel')}
        loading={send.isPending}
        onConfirm={() => confirming && send.mutate(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </form>
  );
}
