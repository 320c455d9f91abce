import { Button, Group } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { adminUsersKey, closeUser, endPlan, reopenUser, setUserRole } from './api.ts';
import type { AdminUserDetail, SubscriptionFate } from '../../shared/contracts/admin-users.ts';
import { isRunningSubscription } from '../../shared/contracts/plans.ts';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { onMutationError } from '../../components/ui/notify.ts';
import { DeleteDialog, reportDone, ResetLinkDialog } from './account-dialogs.tsx';
import { ExtendPlanDialog, GrantDialog } from './grant-dialog.tsx';
import './strings.ts';

/** Whether a Stripe subscription still bills the account. */
const isBilled = (user: AdminUserDetail) => isRunningSubscription(user.plan.subscription?.status);

type Action = 'grant' | 'extendPlan' | 'endPlan' | 'role' | 'close' | 'reopen' | 'passwordReset' | 'delete';

/** A yes/no action: what it asks, what it calls, and what it says once done. */
function useConfirmAction(user: AdminUserDetail, action: Action | null, onDone: () => void) {
  const { t } = useTranslation();
  const email = user.email;
  const nextRole = user.role === 'admin' ? 'user' : 'admin';
  const billed = isBilled(user);
  const specs = {
    endPlan: {
      title: t('adminUsers.end.title'),
      message: t(billed ? 'adminUsers.end.messageSubscription' : 'adminUsers.end.message', { email }),
      confirm: t('adminUsers.end.confirm'),
      danger: true,
      run: async () => {
        const { endedOrders, subscription } = await endPlan(user.userId);
        return { message: t('adminUsers.end.done', { count: endedOrders }), subscription };
      },
    },
    role: {
      title: t(nextRole === 'admin' ? 'adminUsers.roleChange.titleAdmin' : 'adminUsers.roleChange.titleUser', { email }),
      message: t(nextRole === 'admin' ? 'adminUsers.roleChange.messageAdmin' : 'adminUsers.roleChange.messageUser'),
      confirm: t('adminUsers.roleChange.confirm'),
      danger: false,
      run: async () => {
        await setUserRole(user.userId, nextRole);
        return { message: t('adminUsers.roleChange.done', { email, role: t(`adminUsers.role.${nextRole}`) }) };
      },
    },
    close: {
      title: t('adminUsers.closeAccount.title', { email }),
      message: t(billed ? 'adminUsers.closeAccount.messageSubscription' : 'adminUsers.closeAccount.message'),
      confirm: t('adminUsers.closeAccount.confirm'),
      danger: true,
      run: async () => {
        await closeUser(user.userId);
        return { message: t('adminUsers.closeAccount.done', { email }) };
      },
    },
    reopen: {
      title: t('adminUsers.reopen.title', { email }),
      message: t('adminUsers.reopen.message'),
      confirm: t('adminUsers.reopen.confirm'),
      danger: false,
      run: async () => {
        await reopenUser(user.userId);
        return { message: t('adminUsers.reopen.done', { email }) };
      },
    },
  };
  const spec = action && action in specs ? specs[action as keyof typeof specs] : null;
  const mutation = useMutation({
    mutationFn: () => spec!.run(),
    onSuccess: ({ message, subscription }: { message: string; subscription?: SubscriptionFate }) => {
      reportDone(t, message, subscription);
      onDone();
    },
    onError: onMutationError(),
  });
  return { spec, mutation };
}

/** The operator's actions on one account, each behind a dialog that says what it will do. */
export function UserActions({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState<Action | null>(null);
  const close = () => setOpen(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminUsersKey });
  const { spec, mutation } = useConfirmAction(user, open, () => {
    refresh();
    close();
  });
  const button = (action: Action, label: string, color?: string) => (
    <Button size="xs" variant={color ? 'light' : 'default'} color={color} onClick={() => setOpen(action)}>
      {label}
    </Button>
  );

  return (
    <>
      <Group gap="xs" role="toolbar" aria-label={t('adminUsers.user.actions')}>
        {button('grant', t('adminUsers.action.grant'))}
        {button('extendPlan', t('adminUsers.action.extendPlan'))}
        {(user.planLevel > 0 || isBilled(user)) && button('endPlan', t('adminUsers.action.endPlan'))}
        {button('role', user.role === 'admin' ? t('adminUsers.action.makeUser') : t('adminUsers.action.makeAdmin'))}
        {user.status === 'closed' ? button('reopen', t('adminUsers.action.reopen')) : button('close', t('adminUsers.action.close'), 'orange')}
        {button('passwordReset', t('adminUsers.action.passwordReset'))}
        {button('delete', t('adminUsers.action.delete'), 'red')}
      </Group>
      {open === 'grant' && <GrantDialog user={user} onClose={close} onDone={refresh} />}
      {open === 'extendPlan' && <ExtendPlanDialog user={user} onClose={close} onDone={refresh} />}
      {open === 'passwordReset' && <ResetLinkDialog user={user} onClose={close} onDone={refresh} />}
      {open === 'delete' && (
        <DeleteDialog
          user={user}
          onClose={close}
          onDone={() => {
            close();
            queryClient.removeQueries({ queryKey: [...adminUsersKey, 'user', user.userId] });
            refresh();
            navigate('/admin/users');
          }}
        />
      )}
      {spec && (
        <ConfirmDialog
          opened
          title={spec.title}
          message={spec.message}
          confirmLabel={spec.confirm}
          cancelLabel={t('adminUsers.action.cancel')}
          danger={spec.danger}
          loading={mutation.isPending}
          onConfirm={() => mutation.mutate()}
          onCancel={close}
        />
      )}
    </>
  );
}
