import { Alert, Badge, Box, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/invite.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { inviteKey, myInviteListQuery, myInviteQuery } from './api.ts';
import { isLoggedInAtom, tokenAtom } from '../../shared/atoms/auth.ts';
import type { InvitedAccount, InviteInfo } from '../../shared/contracts/invites.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { SignInPrompt } from '../app-shell/sign-in-prompt.tsx';
import { IconCopy, IconPhoto } from '../ui/icons.tsx';
import { notifyError, notifySuccess } from '../ui/notify.ts';
import { PageFrame } from '../ui/page-frame.tsx';
import { PosterDialog } from './poster-dialog.tsx';

addEnglishStrings(en);

export interface InvitePageProps {
  /** Back to the chat (/). */
  onBack: () => void;
}

/**
 * Invite friends (/invited): the user's code and link to share, what an invite earns and when, the
 * counts, and the accounts that signed up with the code (docs/economy.md#invites). A visitor is asked
 * to sign in. On a narrow screen (mobile web, the side panel) a bar on top leads back.
 */
export function InvitePage({ onBack }: InvitePageProps) {
  const { t } = useTranslation();
  const { isH5 } = usePlatform();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!loggedIn) queryClient.removeQueries({ queryKey: inviteKey });
  }, [loggedIn, queryClient]);

  return (
    <PageFrame title={t('invite.title')} backLabel={t('invite.back')} onBack={onBack} narrow={isH5}>
      {loggedIn ? <InviteContent /> : <SignInPrompt message={t('invite.signInPrompt')} signInLabel={t('invite.signIn')} notice="invite.signInTip" />}
    </PageFrame>
  );
}

function InviteContent() {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const info = useQuery(myInviteQuery(token));
  if (info.isPending) return <Loading py="xl" />;
  if (info.isError) {
    return (
      <Stack gap="sm">
        <Alert color="red" role="alert">
          {t('invite.loadFailed')}
        </Alert>
        <Button variant="light" onClick={() => void info.refetch()} style={{ alignSelf: 'flex-start' }}>
          {t('invite.retry')}
        </Button>
      </Stack>
    );
  }
  return (
    <>
      <ShareCard info={info.data} />
      <SimpleGrid cols={3} spacing="sm">
        <Stat label={t('invite.invitedCount')} value={info.data.invitedCount} testId="invite-invited" />
        <Stat label={t('invite.creditedCount')} value={info.data.creditedCount} testId="invite-credited" />
        <Stat label={t('invite.pointsEarned')} value={info.data.pointsEarned} testId="invite-points" />
      </SimpleGrid>
      <InvitedList />
    </>
  );
}

/** The page's and the list's spinner while their first answer is on its way. */
function Loading({ py }: { py: 'xl' | 'md' }) {
  return (
    <Center py={py}>
      <Loader size="sm" />
    </Center>
  );
}

/** Copies text; says so in a toast, and answers true for two seconds (the button's "Copied"). */
function useCopy(): [copied: string | null, copy: (text: string, what: string) => void] {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = (text: string, what: string) => {
    const write = navigator.clipboard?.writeText(text) ?? Promise.reject(new Error('no clipboard'));
    write.then(
      () => {
        setCopied(what);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(null), 2_000);
        notifySuccess(t('invite.copied'));
      },
      () => notifyError(t('invite.copyFailed')),
    );
  };
  return [copied, copy];
}

function ShareCard({ info }: { info: InviteInfo }) {
  const { t } = useTranslation();
  const [copied, copy] = useCopy();
  const [posterOpen, setPosterOpen] = useState(false);
  const copyButton = (text: string, what: 'code' | 'link', label: string) => (
    <Button variant="light" leftSection={<IconCopy size={16} />} onClick={() => copy(text, what)} style={{ flex: 'none' }}>
      {copied === what ? t('invite.copied') : label}
    </Button>
  );
  return (
    <Paper withBorder p="md" radius={6}>
      <Stack gap="md">
        {info.disabled ? (
          <Alert color="orange" data-testid="invite-disabled">
            {t('invite.disabled')}
          </Alert>
        ) : (
          <Text size="sm" data-testid="invite-rule">
            {info.pointsPerInvite > 0 ? t('invite.rule', { points: info.pointsPerInvite }) : t('invite.ruleOff')}
          </Text>
        )}
        <ShareField label={t('invite.yourCode')} justify="space-between">
          {/* A code to type or share: the same in every language. */}
          <Text data-testid="invite-code" translate="no" ff="monospace" fz={26} fw={700} style={{ letterSpacing: 3 }}>
            {info.inviteCode}
          </Text>
          {copyButton(info.inviteCode, 'code', t('invite.copyCode'))}
        </ShareField>
        <ShareField label={t('invite.yourLink')} align="flex-start">
          <TextInput
            aria-label={t('invite.yourLink')}
            value={info.inviteUrl}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            style={{ flex: 1, minWidth: 0 }}
          />
          {copyButton(info.inviteUrl, 'link', t('invite.copyLink'))}
        </ShareField>
        <Button variant="light" leftSection={<IconPhoto size={16} />} onClick={() => setPosterOpen(true)} style={{ alignSelf: 'flex-start' }}>
          {t('invite.posterOpen')}
        </Button>
      </Stack>
      <PosterDialog opened={posterOpen} onClose={() => setPosterOpen(false)} inviteCode={info.inviteCode} inviteUrl={info.inviteUrl} />
    </Paper>
  );
}

/** One thing to share (the code, the link): its label above it, its copy button beside it. */
function ShareField({ label, align, justify, children }: { label: string; align?: 'flex-start'; justify?: 'space-between'; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} mb={4}>
        {label}
      </Text>
      <Group gap="sm" wrap="nowrap" align={align} justify={justify}>
        {children}
      </Group>
    </div>
  );
}

function Stat({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Paper withBorder p="sm" radius={6}>
      <Text fz={22} fw={700} data-testid={testId}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Paper>
  );
}

function InvitedList() {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const list = useInfiniteQuery(myInviteListQuery(token));
  let body: ReactNode;
  if (list.isPending) {
    body = <Loading py="md" />;
  } else if (list.isError) {
    body = (
      <Alert color="red" role="alert">
        {t('invite.listFailed')}
      </Alert>
    );
  } else {
    const items = list.data.pages.flatMap((page) => page.list);
    body =
      items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('invite.empty')}
        </Text>
      ) : (
        <Box component="ul" aria-label={t('invite.listTitle')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {items.map((account, i) => (
            <InvitedRow key={`${account.createTime}-${i}`} account={account} />
          ))}
        </Box>
      );
  }
  return (
    <Paper withBorder p="md" radius={6}>
      <Text fw={600} mb="sm">
        {t('invite.listTitle')}
      </Text>
      {body}
      {list.hasNextPage && (
        <Center pt="sm">
          <Button variant="subtle" size="compact-sm" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {t('invite.loadMore')}
          </Button>
        </Center>
      )}
    </Paper>
  );
}

function InvitedRow({ account }: { account: InvitedAccount }) {
  const { t, i18n } = useTranslation();
  const date = new Date(account.createTime);
  const shown = Number.isNaN(date.getTime()) ? '' : new Intl.DateTimeFormat(i18n.language === 'zh' ? 'zh-CN' : 'en', { dateStyle: 'medium' }).format(date);
  return (
    <Group component="li" data-testid="invited-account" justify="space-between" wrap="nowrap" py={8} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={500} truncate>
          {account.userName}
        </Text>
        <Text size="xs" c="dimmed">
          {shown}
        </Text>
      </div>
      {account.credited ? (
        <Badge color="teal" variant="light" tt="none" style={{ flex: 'none' }}>
          {t('invite.credited', { points: account.points })}
        </Badge>
      ) : (
        <Badge color="gray" variant="light" tt="none" style={{ flex: 'none' }}>
          {t('invite.pending')}
        </Badge>
      )}
    </Group>
  );
}
