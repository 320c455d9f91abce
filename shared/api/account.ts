import {
  AddUserResponseSchema,
  LoginResponseSchema,
  type AddUserRequest,
  type AddUserResponse,
  type LoginRequest,
  type LoginResponse,
} from '../contracts/account.ts';
import { apiPost } from './request.ts';

/** Creates an account; the server answers emailTaken (a conflict) when the e-mail is in use. */
export function addUser(body: AddUserRequest): Promise<AddUserResponse> {
  return apiPost('/api/Account/AddUser', body, { data: AddUserResponseSchema });
}

/** Checks e-mail and password; Data is a single-use temp key (60 s) for GetTokenForTempKey. */
export function login(body: LoginRequest): Promise<LoginResponse> {
  return apiPost('/api/Account/Login', body, { data: LoginResponseSchema });
}
