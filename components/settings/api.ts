import { HEAD_IMG, type UpdateUserPasswordRequest } from '../../shared/contracts/account.ts';
import { UserInfoSchema, type UserInfo } from '../../shared/contracts/user.ts';
import { apiPost } from '../../shared/api/request.ts';

/**
 * Changes the signed-in user's password. The server ends every other login of the account and keeps
 * this one; a wrong current password fails with 10401, a weak or unchanged new one with 10400.
 */
export async function updateUserPassword(body: UpdateUserPasswordRequest): Promise<void> {
  await apiPost('/api/Account/UpdateUserPassword', body);
}

/** Uploads the user's picture (the server crops it to a centred square); answers the user info with its address. */
export function uploadHeadImg(file: Blob, fileName: string): Promise<UserInfo> {
  const form = new FormData();
  form.append(HEAD_IMG.field, file, fileName);
  return apiPost('/api/Account/AddUserForHeadImg', form, { data: UserInfoSchema });
}

/** Removes the user's picture; answers the user info without one. */
export function deleteHeadImg(): Promise<UserInfo> {
  return apiPost('/api/Account/DeleteUserHeadImg', {}, { data: UserInfoSchema });
}
